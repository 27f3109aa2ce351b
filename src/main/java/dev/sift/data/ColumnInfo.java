package dev.sift.data;

/**
 * One column of a table or frame; {@code sample} is one representative non-null value (data, not instructions);
 * {@code facts} its nulls, variants and text-date formats when the table was described with them.
 */
public record ColumnInfo(String name, String type, String sample, ColumnFacts facts) {
    public ColumnInfo {
        facts = facts == null ? ColumnFacts.NONE : facts;
    }

    public ColumnInfo(String name, String type, String sample) {
        this(name, type, sample, ColumnFacts.NONE);
    }
}
