package dev.sift.data;

import java.util.ArrayList;
import java.util.List;

/**
 * The functions for structured text every workspace has (resource {@code sql/text_macros.sql}: text_list, word_date,
 * bare_id), as DuckDB macros.
 */
public final class TextMacros {
    private TextMacros() { }

    /**
     * The statements that create them, one per block of the resource ended by a line holding only ';' (lines starting
     * with {@code --} left out).
     */
    public static List<String> statements() {
        try (java.io.InputStream in = TextMacros.class.getResourceAsStream("/sql/text_macros.sql")) {
            if (in == null) {
                throw new IllegalStateException("Resource /sql/text_macros.sql is missing");
            }
            List<String> out = new ArrayList<>();
            StringBuilder statement = new StringBuilder();
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (line.strip().equals(";")) {
                    out.add(statement.toString().strip());
                    statement.setLength(0);
                } else if (!line.strip().startsWith("--")) {
                    statement.append(line).append('\n');
                }
            }
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
