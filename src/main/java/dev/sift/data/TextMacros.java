package dev.sift.data;

import java.util.ArrayList;
import java.util.List;

/**
 * The functions for structured text every workspace has (resource {@code sql/text_macros.sql}: text_list, word_date,
 * bare_id), as DuckDB macros. A workspace creates them on its connection before the first statement that names one
 * ({@link #mentioned}): creating them costs a third of opening a workspace, and most sessions never call them.
 */
public final class TextMacros {
    /** The bundled statements, read once. */
    private static final List<String> STATEMENTS = read();
    /** Any macro's name as a word, case folded as DuckDB folds function names. */
    private static final java.util.regex.Pattern NAMES = java.util.regex.Pattern.compile("(?i)\\b("
            + String.join("|", STATEMENTS.stream().map(TextMacros::name).toList()) + ")\\b");

    private TextMacros() { }

    /**
     * The statements that create them, one per block of the resource ended by a line holding only ';' (lines starting
     * with {@code --} left out).
     */
    public static List<String> statements() {
        return STATEMENTS;
    }

    /** Whether {@code sql} names one of the macros (anywhere: a word in a string literal counts too, harmlessly). */
    public static boolean mentioned(String sql) {
        return NAMES.matcher(sql).find();
    }

    /** Creates the macros on {@code connection}, a DuckDB connection (temporary macros belong to it). */
    static void create(java.sql.Connection connection) throws java.sql.SQLException {
        for (String statement : STATEMENTS) {
            try (java.sql.Statement st = connection.createStatement()) {
                st.execute(statement);
            }
        }
    }

    private static String name(String statement) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)\\bMACRO\\s+(\\w+)").matcher(statement);
        if (!m.find()) {
            throw new IllegalStateException("A statement of /sql/text_macros.sql creates no macro: " + statement);
        }
        return m.group(1);
    }

    private static List<String> read() {
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
            return List.copyOf(out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
