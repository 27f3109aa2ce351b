package dev.sift.data;

/**
 * The SQL dialect a dataset's tables are queried in: DuckDB for built datasets, the engine's own for live
 * ones. Sift's generated SQL (the offline planner's queries) goes through the few functions that differ.
 * All three accept double-quoted identifiers (Spark sessions are opened with
 * {@code spark.sql.ansi.doubleQuotedIdentifiers}), single-quoted strings, {@code DATE '…'} and {@code LIMIT}.
 */
public enum SqlDialect {
    DUCKDB("DuckDB"),
    POSTGRESQL("PostgreSQL"),
    SPARK("Spark SQL");

    private final String label;

    SqlDialect(String label) {
        this.label = label;
    }

    /** The name models and people know it by: "PostgreSQL". */
    public String label() {
        return label;
    }

    /** The calendar year of a date or timestamp expression, as an integer. */
    public String year(String expr) {
        return this == POSTGRESQL ? "CAST(EXTRACT(YEAR FROM " + expr + ") AS INTEGER)" : "year(" + expr + ")";
    }

    /**
     * SQL Sift wrote with DuckDB's date functions, in this dialect: PostgreSQL has no {@code year(x)}, so each
     * call (outside string literals) becomes {@link #year}'s form.
     */
    public String adapt(String sql) {
        if (this != POSTGRESQL) {
            return sql;
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        boolean quoted = false;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            }
            boolean word = i == 0 || !(Character.isLetterOrDigit(sql.charAt(i - 1)) || sql.charAt(i - 1) == '_'
                    || sql.charAt(i - 1) == '"' || sql.charAt(i - 1) == '.');
            if (!quoted && word && sql.regionMatches(true, i, "year(", 0, 5)) {
                int depth = 0;
                int j = i + 4;
                for (; j < sql.length(); j++) {
                    char d = sql.charAt(j);
                    depth += d == '(' ? 1 : d == ')' ? -1 : 0;
                    if (depth == 0) {
                        break;
                    }
                }
                if (j < sql.length()) {
                    out.append(year(adapt(sql.substring(i + 5, j))));
                    i = j + 1;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** An aggregate call; {@code median} is spelled as the dialect has it. */
    public String aggregate(String function, String expr) {
        if (function.equalsIgnoreCase("median") && this == POSTGRESQL) {
            return "percentile_cont(0.5) WITHIN GROUP (ORDER BY " + expr + ")";
        }
        return function + "(" + expr + ")";
    }
}
