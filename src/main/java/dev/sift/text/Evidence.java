package dev.sift.text;

import dev.sift.data.QueryResult;

import java.util.List;

/** A query an answer rests on: its SQL, columns and (capped) rows, and the frame it was saved as, if any. */
public record Evidence(String sql, List<String> columns, List<List<Object>> rows, long rowCount, String frame) {
    public static final int MAX_ROWS = 50;

    /** Whether {@link #rows} leaves rows of the result out (the count is larger, or unknown because it was capped). */
    public boolean truncated() {
        return rowCount < 0 || rows.size() < rowCount;
    }

    public static Evidence of(QueryResult r, String frame) {
        return new Evidence(r.sql(), r.columnNames(), List.copyOf(r.head(MAX_ROWS).rows()), r.rowCount(), frame);
    }
}
