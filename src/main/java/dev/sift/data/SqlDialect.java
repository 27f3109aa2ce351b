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

    /** An aggregate call; {@code median} is spelled as the dialect has it. */
    public String aggregate(String function, String expr) {
        if (function.equalsIgnoreCase("median") && this == POSTGRESQL) {
            return "percentile_cont(0.5) WITHIN GROUP (ORDER BY " + expr + ")";
        }
        return function + "(" + expr + ")";
    }
}
