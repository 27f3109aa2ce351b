package dev.sift.data;

/** Small SQL text helpers. */
public final class Sql {
    private Sql() { }

    /** A DuckDB identifier in double quotes, with embedded quotes doubled. */
    public static String quoteIdent(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A DuckDB string literal. */
    public static String quoteString(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
