package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The phrase patterns the readers of a question and of a conversation turn use ("never mind …", "in Prague, how
 * many …", "delete …"), read once from the resource {@code patterns.yaml} and compiled there: one file to change,
 * beside {@code vocabulary.yaml}, not a regex per class. Names are dotted paths of the file ("turn.abandon"). A pattern
 * is compiled on its first use, so a process compiles only those of the readers it runs.
 */
public final class Patterns {
    /** The product's patterns, from the classpath. */
    public static final Patterns ALL = load("/patterns.yaml");

    /** Each pattern's source, by name. */
    private final Map<String, String> sources;
    /** The replacements written beside patterns (entries named "….by"), by name. */
    private final Map<String, String> replacements;
    private final Map<String, Pattern> compiled = new ConcurrentHashMap<>();

    private Patterns(Map<String, String> entries) {
        Map<String, String> patterns = new LinkedHashMap<>();
        Map<String, String> by = new LinkedHashMap<>();
        entries.forEach((name, text) -> (name.endsWith(".by") ? by : patterns).put(name, text));
        this.sources = java.util.Collections.unmodifiableMap(patterns);
        this.replacements = java.util.Collections.unmodifiableMap(by);
    }

    static Patterns load(String resource) {
        try (InputStream in = Patterns.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            Map<String, String> out = new LinkedHashMap<>();
            read("", new ObjectMapper(new YAMLFactory()).readTree(in), out);
            return new Patterns(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static void read(String prefix, JsonNode node, Map<String, String> out) {
        node.fields().forEachRemaining(f -> {
            String name = prefix + f.getKey();
            if (f.getValue().isTextual()) {
                out.put(name, f.getValue().asText());
            } else if (f.getValue().isObject()) {
                read(name + ".", f.getValue(), out);
            }
        });
    }

    /** The pattern {@code name} ("turn.abandon"). */
    public Pattern get(String name) {
        String source = sources.get(name);
        if (source == null) {
            throw new IllegalArgumentException("patterns.yaml has no pattern '" + name + "' (patterns: " + sources.keySet() + ")");
        }
        return compiled.computeIfAbsent(name, n -> Pattern.compile(source));
    }

    /** The replacement written beside a pattern ("spelled.half.by"), as written. */
    public String replacement(String name) {
        String text = replacements.get(name);
        if (text == null) {
            throw new IllegalArgumentException("patterns.yaml has no replacement '" + name + "' (replacements: " + replacements.keySet() + ")");
        }
        return text;
    }

    /** Every pattern's name, in the file's order. */
    public Set<String> names() {
        return sources.keySet();
    }
}
