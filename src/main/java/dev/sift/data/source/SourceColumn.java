package dev.sift.data.source;

/**
 * One column of a source table: its name, its type as the source names it, the DuckDB type it loads as,
 * the expression that reads it in the source's own SQL (usually the quoted name; a cast where the server
 * must convert, e.g. {@code "c"::text}), and a note when the type has no mapping and loads as text.
 */
public record SourceColumn(String name, String sourceType, DuckType type, String select, String note) {
    public SourceColumn {
        if (name == null || type == null || select == null) {
            throw new IllegalArgumentException("column needs a name, a type and a select expression");
        }
    }
}
