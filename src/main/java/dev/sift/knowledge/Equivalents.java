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
    private static final Map<String, List<String>> BY_KEY = load();

    private Equivalents() { }

    /** The other forms of the phrase's group (as written in the resource), or none; compared by {@link Phrases#key}. */
    public static List<String> of(String phrase) {
        return BY_KEY.getOrDefault(Phrases.key(phrase), List.of());
    }

    private static Map<String, List<String>> load() {
        try (InputStream in = Equivalents.class.getResourceAsStream("/equivalents.yaml")) {
            if (in == null) {
                throw new IllegalStateException("missing resource /equivalents.yaml");
            }
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            Map<String, List<String>> out = new HashMap<>();
            for (JsonNode group : root.path("groups")) {
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /equivalents.yaml", e);
        }
    }
}
