package dev.sift.data;

/** Small SQL text helpers. */
public final class Sql {
    private Sql() { }

    /** A DuckDB identifier in double quotes, with embedded quotes doubled. */
    public static String quoteIdent(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * A dataset table's name as SQL: {@code review} → {@code "review"}, and a table of a source's schema,
     * {@code user_database.review} → {@code "user_database"."review"} (loaders keep dots out of table names).
     */
    public static String quoteTable(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? quoteIdent(name) : quoteIdent(name.substring(0, dot)) + "." + quoteIdent(name.substring(dot + 1));
    }

    /** A DuckDB string literal. */
    public static String quoteString(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
