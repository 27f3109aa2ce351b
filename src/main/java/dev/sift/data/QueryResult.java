package dev.sift.data;

import java.util.List;

/**
 * The fetched part of a query result. {@code rows} holds at most the fetch cap; {@code rowCount} is the
 * full count (-1 when it could not be counted in time). Values are JSON-friendly: numbers, strings,
 * booleans or null (dates and timestamps as ISO text). {@code cuts} says which cells were cut to the result's
 * byte budget before they reached Java, and whether rows stopped at it ({@link CellCuts#NONE} when nothing was).
 */
public record QueryResult(String sql, List<Column> columns, List<List<Object>> rows, long rowCount,
                          boolean truncated, long millis, CellCuts cuts) {

    public record Column(String name, String type) { }

    /** A result nothing was cut from. */
    public QueryResult(String sql, List<Column> columns, List<List<Object>> rows, long rowCount, boolean truncated,
                       long millis) {
        this(sql, columns, rows, rowCount, truncated, millis, CellCuts.NONE);
    }

    public List<String> columnNames() {
        return columns.stream().map(Column::name).toList();
    }

    /** The single value of a one-row, one-column result. */
    public Object scalar() {
        if (rows.size() != 1 || columns.size() != 1) {
            throw new IllegalStateException("Not a scalar result: " + rows.size() + " rows x " + columns.size() + " columns");
        }
        return rows.get(0).get(0);
    }

    /** The same result with only the first {@code n} rows (row count unchanged). */
    public QueryResult head(int n) {
        return rows.size() <= n ? this : new QueryResult(sql, columns, rows.subList(0, n), rowCount, true, millis, cuts);
    }
}
