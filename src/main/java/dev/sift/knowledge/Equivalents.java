package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ways of writing the same value, from the resource {@code equivalents.yaml}: US states and their postal codes,
 * countries with their adjectives and codes, continents ("Texas" = 'TX', "Japanese" = 'Japan'). A question's phrase
 * that no value spells may be a value written another way; which column holds it is still the data's to say.
 */
public final class Equivalents {
    private static final JsonNode ROOT = read();
    private static final Map<String, List<String>> BY_KEY = load();
    private static final Map<String, java.util.Set<String>> KINDS = kinds();
    /** The share of a column's values that must be forms of one kind for the column to be named by the kind. */
    private static final double KIND_SHARE = 0.8;

    private Equivalents() { }

    /**
     * The kind ("state", "country", "continent") whose groups spell at least 80 % of {@code values} (five or more), when
     * {@code noun} (compared by {@link Phrases#key}) names that kind; else empty.
     */
    public static java.util.Optional<String> kindOf(String noun, List<String> values) {
        java.util.Set<String> forms = KINDS.get(Phrases.key(noun));
        if (forms == null || values.size() < 5) {
            return java.util.Optional.empty();
        }
        long of = values.stream().filter(v -> forms.contains(Phrases.key(v))).count();
        return of >= KIND_SHARE * values.size() ? java.util.Optional.of(Phrases.key(noun)) : java.util.Optional.empty();
    }

    /** Whether most of {@code values} (the share a kind needs) are states, countries or continents. */
    public static boolean places(List<String> values) {
        return !values.isEmpty() && values.stream().filter(v -> !kindsOf(v).isEmpty()).count() >= KIND_SHARE * values.size();
    }

    /** The other forms of the phrase's group (as written in the resource), or none; compared by {@link Phrases#key}. */
    public static List<String> of(String phrase) {
        return BY_KEY.getOrDefault(Phrases.key(phrase), List.of());
    }

    /** The kinds ("state", "country", "continent") whose groups have the phrase as a form ("Texas", "TX": state). */
    public static java.util.Set<String> kindsOf(String phrase) {
        String key = Phrases.key(phrase);
        java.util.Set<String> out = new java.util.TreeSet<>();
        KINDS.forEach((kind, forms) -> {
            if (forms.contains(key)) {
                out.add(kind);
            }
        });
        return out;
    }

    private static JsonNode read() {
        try (InputStream in = Equivalents.class.getResourceAsStream("/equivalents.yaml")) {
            if (in == null) {
                throw new IllegalStateException("missing resource /equivalents.yaml");
            }
            return new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /equivalents.yaml", e);
        }
    }

    /** Each kind's noun → the keys of every form of its groups. */
    private static Map<String, java.util.Set<String>> kinds() {
        Map<String, java.util.Set<String>> out = new HashMap<>();
        ROOT.path("kinds").fields().forEachRemaining(kind -> {
            java.util.Set<String> forms = new java.util.HashSet<>();
            kind.getValue().forEach(first -> {
                forms.add(Phrases.key(first.asText()));
                of(first.asText()).forEach(f -> forms.add(Phrases.key(f)));
            });
            out.put(Phrases.key(kind.getKey()), java.util.Set.copyOf(forms));
        });
        return Map.copyOf(out);
    }

    private static Map<String, List<String>> load() {
        Map<String, List<String>> out = new HashMap<>();
        for (JsonNode group : ROOT.path("groups")) {
            List<String> forms = new ArrayList<>();
            group.forEach(f -> forms.add(f.asText()));
            for (String f : forms) {
                List<String> others = out.computeIfAbsent(Phrases.key(f), k -> new ArrayList<>());
                forms.stream().filter(o -> !o.equals(f) && !others.contains(o)).forEach(others::add);
            }
        }
        Map<String, List<String>> frozen = new HashMap<>();
        out.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return Map.copyOf(frozen);
    }
}
