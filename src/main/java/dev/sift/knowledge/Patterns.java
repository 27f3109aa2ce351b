package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The phrase patterns the readers of a question and of a conversation turn use ("never mind …", "in Prague, how
 * many …", "delete …"), read once from the resource {@code patterns.yaml} and compiled there: one file to change,
 * beside {@code vocabulary.yaml}, not a regex per class. Names are dotted paths of the file ("turn.abandon").
 */
public final class Patterns {
    /** The product's patterns, from the classpath. */
    public static final Patterns ALL = load("/patterns.yaml");

    private final Map<String, Pattern> patterns;

    private Patterns(Map<String, Pattern> patterns) {
        this.patterns = patterns;
    }

    static Patterns load(String resource) {
        try (InputStream in = Patterns.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            Map<String, Pattern> out = new LinkedHashMap<>();
            read("", new ObjectMapper(new YAMLFactory()).readTree(in), out);
            return new Patterns(Map.copyOf(out));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static void read(String prefix, JsonNode node, Map<String, Pattern> out) {
        node.fields().forEachRemaining(f -> {
            String name = prefix + f.getKey();
            if (f.getValue().isTextual()) {
                out.put(name, Pattern.compile(f.getValue().asText()));
            } else if (f.getValue().isObject()) {
                read(name + ".", f.getValue(), out);
            }
        });
    }

    /** The pattern {@code name} ("turn.abandon"). */
    public Pattern get(String name) {
        Pattern p = patterns.get(name);
        if (p == null) {
            throw new IllegalArgumentException("patterns.yaml has no pattern '" + name + "' (patterns: " + patterns.keySet() + ")");
        }
        return p;
    }
}
