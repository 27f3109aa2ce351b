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

    /**
     * Columns of one table that refer together to columns of another ({@code (system, name, version)} to the same
     * three of a package table): a join on several columns, compared pair by pair in order.
     */
    public record Tuple(String table, List<String> columns, String keyTable, List<String> keyColumns) {
        public Tuple {
            if (columns.isEmpty() || columns.size() != keyColumns.size()) {
                throw new IllegalArgumentException("a tuple pairs as many columns on each side, at least one: " + columns
                        + " / " + keyColumns);
            }
            columns = List.copyOf(columns);
            keyColumns = List.copyOf(keyColumns);
        }
    }

    /**
     * One row {@code total, found, distinct} for a tuple: rows whose columns are all set, those whose tuple occurs in
     * the key table, and how many distinct tuples they hold; {@code limit} bounds the referring side (0: every row).
     */
    public static String sql(Tuple t, long limit) {
        StringBuilder f = new StringBuilder("SELECT ");
        StringBuilder notNull = new StringBuilder();
        StringBuilder k = new StringBuilder("SELECT DISTINCT ");
        StringBuilder on = new StringBuilder();
        StringBuilder vs = new StringBuilder();
        for (int i = 0; i < t.columns().size(); i++) {
            String c = Sql.quoteIdent(t.columns().get(i));
            String sep = i == 0 ? "" : ", ";
            f.append(sep).append(c).append(" AS v").append(i);
            notNull.append(i == 0 ? "" : " AND ").append(c).append(" IS NOT NULL");
            k.append(sep).append(Sql.quoteIdent(t.keyColumns().get(i))).append(" AS v").append(i);
            on.append(i == 0 ? "" : " AND ").append("d.v").append(i).append(" = g.v").append(i);
            vs.append(sep).append('v').append(i);
        }
        return "SELECT coalesce(sum(g.n), 0), coalesce(sum(CASE WHEN d.v0 IS NULL THEN 0 ELSE g.n END), 0), count(*) FROM"
                + " (SELECT " + vs + ", count(*) AS n FROM (" + f + " FROM " + Sql.quoteTable(t.table()) + " WHERE " + notNull
                + (limit > 0 ? " LIMIT " + limit : "") + ") f GROUP BY " + vs + ") g LEFT JOIN (" + k + " FROM "
                + Sql.quoteTable(t.keyTable()) + ") d ON " + on;
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
