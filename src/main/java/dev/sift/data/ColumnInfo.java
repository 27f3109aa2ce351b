package dev.sift.data;

/** One column of a table or frame; {@code sample} is one representative non-null value (data, not instructions). */
public record ColumnInfo(String name, String type, String sample) { }
