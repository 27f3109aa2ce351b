package dev.sift.data;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How much of a column's values occur in a key column: the measure an inferred join is approved by. Both sides
 * go through the same expression (the column itself, or a normalisation such as the number a code carries).
 * The SQL names only unqualified aliases, so DuckDB, PostgreSQL and Spark SQL all read it the same way.
 *
 * @param values   the column's non-null values looked at (all of them, or the bounded sample)
 * @param coverage the share of those found in the key
 * @param unique   whether those values are also distinct (a one-to-one join)
 */
public record Containment(long values, double coverage, boolean unique) {

    /** The column that refers and the key it may point at; {@code expr} maps a quoted column to the compared value. */
    public record Pair(String table, String column, String keyTable, String keyColumn, UnaryOperator<String> expr) {
        public static Pair plain(String table, String column, String keyTable, String keyColumn) {
            return new Pair(table, column, keyTable, keyColumn, UnaryOperator.identity());
        }
    }

    /** One row {@code total, found, distinct}; {@code limit} bounds the referring side (0: every row). */
    public static String sql(Pair p, long limit) {
        String col = Sql.quoteIdent(p.column());
        return "SELECT count(*), count(k), count(DISTINCT v) FROM (SELECT " + p.expr().apply(col) + " AS v FROM "
                + Sql.quoteTable(p.table()) + " WHERE " + col + " IS NOT NULL" + (limit > 0 ? " LIMIT " + limit : "")
                + ") f LEFT JOIN (SELECT DISTINCT " + p.expr().apply(Sql.quoteIdent(p.keyColumn())) + " AS k FROM "
                + Sql.quoteTable(p.keyTable()) + ") d ON d.k = f.v";
    }

    /** The measure from {@link #sql}'s row; null when the column has no values. */
    public static Containment of(List<Object> row) {
        long total = ((Number) row.get(0)).longValue();
        long found = ((Number) row.get(1)).longValue();
        long distinct = ((Number) row.get(2)).longValue();
        return total == 0 ? null : new Containment(total, found / (double) total, distinct == total);
    }
}
