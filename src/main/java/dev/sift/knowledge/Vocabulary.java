package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The word lists every reader of a question uses (stop words, function words, aggregates, intents, fillers), read
 * once from the resource {@code vocabulary.yaml}: one file to change, not a list per class. Words are kept in their
 * written form and in comparable form ({@link Phrases#stem}), and {@link #has} compares a word's comparable form. The lists are constant
 * product data, like a prompt file.
 */
public final class Vocabulary {
    /** The product's vocabulary, from the classpath. */
    public static final Vocabulary WORDS = load("/vocabulary.yaml");

    private final Map<String, Set<String>> lists;
    private final Map<String, Map<String, String>> maps;

    private Vocabulary(Map<String, Set<String>> lists, Map<String, Map<String, String>> maps) {
        this.lists = lists;
        this.maps = maps;
    }

    static Vocabulary load(String resource) {
        try (InputStream in = Vocabulary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            Map<String, Set<String>> lists = new LinkedHashMap<>();
            Map<String, Map<String, String>> maps = new LinkedHashMap<>();
            read("", root, lists, maps);
            return new Vocabulary(lists, maps);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * Reads the lists and maps under {@code node}; in a group with a {@code base} list, every other list is the base
     * plus its own words.
     */
    private static void read(String prefix, JsonNode node, Map<String, Set<String>> lists, Map<String, Map<String, String>> maps) {
        JsonNode base = node.path("base");
        node.fields().forEachRemaining(f -> {
            String name = prefix + f.getKey();
            JsonNode v = f.getValue();
            if (v.isArray()) {
                Set<String> words = new LinkedHashSet<>();
                addWords(v, words);
                if (base.isArray()) {
                    addWords(base, words);
                }
                lists.put(name, Set.copyOf(words));
            } else if (v.isObject() && v.elements().hasNext() && v.elements().next().isTextual()) {
                Map<String, String> m = new LinkedHashMap<>();
                v.fields().forEachRemaining(e -> {
                    m.put(e.getKey(), e.getValue().asText());
                    m.put(Phrases.stem(e.getKey()), e.getValue().asText());
                });
                maps.put(name, Map.copyOf(m));
            } else if (v.isObject()) {
                read(name + ".", v, lists, maps);
            }
        });
    }

    /** Each word in its written and its comparable form. */
    private static void addWords(JsonNode list, Set<String> words) {
        list.forEach(w -> {
            words.add(w.asText());
            words.add(Phrases.stem(w.asText()));
        });
    }

    /** The list {@code name} ("filler.stop", "intents.trend"), in comparable form. */
    public Set<String> list(String name) {
        Set<String> s = lists.get(name);
        if (s == null) {
            throw new IllegalArgumentException("vocabulary has no list '" + name + "' (lists: " + lists.keySet() + ")");
        }
        return s;
    }

    /** The map {@code name} ("aggregates", "grains"), keyed by comparable form. */
    public Map<String, String> map(String name) {
        Map<String, String> m = maps.get(name);
        if (m == null) {
            throw new IllegalArgumentException("vocabulary has no map '" + name + "' (maps: " + maps.keySet() + ")");
        }
        return m;
    }

    /** True when {@code word} (any form) is in one of the lists. */
    public boolean has(String word, String... listNames) {
        String w = Phrases.stem(word.toLowerCase(java.util.Locale.ROOT));
        for (String n : listNames) {
            if (maps.containsKey(n) ? maps.get(n).containsKey(w) : list(n).contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** True when any of the words is in the list. */
    public boolean any(List<String> words, String listName) {
        return words.stream().anyMatch(w -> has(w, listName));
    }

    /** Every word of every list (for suggestions: a misspelt function word is still a misspelling). */
    public Set<String> allWords() {
        Set<String> all = new LinkedHashSet<>();
        lists.values().forEach(all::addAll);
        maps.values().forEach(m -> all.addAll(m.keySet()));
        return all;
    }
}
