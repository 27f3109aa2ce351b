package dev.sift.data;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One column of a table or frame; {@code sample} is one representative non-null value (data, not instructions);
 * {@code facts} its nulls, variants and text-date formats when the table was described with them. A dataset table's
 * facts cost scans of the whole table, so they are read on first use: a run that never shows the schema to a model
 * never reads them.
 */
public final class ColumnInfo {
    private final String name;
    private final String type;
    private final String sample;
    private final Supplier<ColumnFacts> facts;

    public ColumnInfo(String name, String type, String sample, Supplier<ColumnFacts> facts) {
        this.name = name;
        this.type = type;
        this.sample = sample;
        this.facts = facts;
    }

    public ColumnInfo(String name, String type, String sample, ColumnFacts facts) {
        this(name, type, sample, facts == null ? () -> ColumnFacts.NONE : () -> facts);
    }

    public ColumnInfo(String name, String type, String sample) {
        this(name, type, sample, ColumnFacts.NONE);
    }

    public String name() {
        return name;
    }

    public String type() {
        return type;
    }

    public String sample() {
        return sample;
    }

    /** Read on the first call for a dataset table (one pass over the table for all its columns), then kept. */
    public ColumnFacts facts() {
        ColumnFacts f = facts.get();
        return f == null ? ColumnFacts.NONE : f;
    }

    /** The same column with facts from {@code source}. */
    ColumnInfo withFacts(Supplier<ColumnFacts> source) {
        return new ColumnInfo(name, type, sample, source);
    }

    /** Columns are equal by name, type and sample: facts are derived from the data they describe. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnInfo c && name.equals(c.name) && type.equals(c.type) && Objects.equals(sample, c.sample);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, sample);
    }

    @Override
    public String toString() {
        return "ColumnInfo[name=" + name + ", type=" + type + ", sample=" + sample + "]";
    }
}
