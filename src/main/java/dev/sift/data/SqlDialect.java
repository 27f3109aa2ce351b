package dev.sift.data;

/**
 * The SQL dialect a dataset's tables are queried in: DuckDB for built datasets, the engine's own for live
 * ones. A model writes the engine's dialect; Sift's own SQL is always DuckDB's and is rendered for the engine where
 * it is sent ({@link LiveEngine#render}).
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
}
