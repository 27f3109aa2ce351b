package dev.sift.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A prompt kept as a resource file ({@code prompts/NAME.md}) with {@code {{placeholders}}}. Prompts are
 * data, not Java strings; a placeholder left unfilled is a bug and fails loudly. Data stands between markers the
 * template writes ({@code <<<RESULTS (…)} … {@code RESULTS>>>}), which the template tells the model are never
 * instructions; a filled-in value cannot write a marker ({@code <<<} and {@code >>>} in it become {@code ‹‹‹} and
 * {@code ›››}), so data cannot end its block early and speak as the prompt.
 */
public final class PromptTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");

    private final String name;
    private final String text;

    private PromptTemplate(String name, String text) {
        this.name = name;
        this.text = text;
    }

    public static PromptTemplate load(String name) {
        String path = "/prompts/" + name + ".md";
        try (InputStream in = PromptTemplate.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Prompt resource " + path + " is missing");
            }
            return new PromptTemplate(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String render(Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalStateException("Prompt " + name + " needs a value for {{" + m.group(1) + "}}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(unmarked(v)));
        }
        m.appendTail(out);
        return out.toString().trim();
    }

    /** A value with no data marker in it. */
    static String unmarked(String v) {
        return v.replace("<<<", "\u2039\u2039\u2039").replace(">>>", "\u203A\u203A\u203A");
    }
}
