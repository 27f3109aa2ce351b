package dev.sift.data;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The byte budget of a result, enforced before values cross into Java. DuckDB hands Java each chunk of up to 2,048
 * rows whole, outside its own memory limit, so one enormous value (a gigabyte-long string) would otherwise take the
 * process's memory before any limit could act. The query is wrapped: each text or BLOB column brings its value when
 * it fits the cell budget, else its prefix, and beside it the full size of a value that was cut; a list, struct or map
 * over the budget comes back as NULL. The cell budget shrinks when many such columns share a row, so one chunk stays
 * within the result budget ({@link CellTally#cellBytes}), and the rows a result keeps stop at the result budget.
 */
final class ResultBudget {
    /** What an estimate counts for a value that is not text. */
    private static final int SMALL_VALUE_BYTES = 16;

    private enum Kind { PLAIN, TEXT, BLOB, NESTED }

    private final long cellBytes;
    private final long resultBytes;
    /** The longest stored values of dataset columns: a column certain to fit the cell budget is not wrapped. */
    private final StoredLengths stored;

    ResultBudget(long cellBytes, long resultBytes, StoredLengths stored) {
        this.cellBytes = cellBytes;
        this.resultBytes = resultBytes;
        this.stored = stored;
    }

    /** Forgets the statements known: the workspace switched to another dataset, whose columns may be longer. */
    void forget() {
        known.clear();
    }

    /** A statement ready to run within the budget: the query's own columns, and how to read its rows. */
    record Prepared(java.sql.PreparedStatement statement, List<QueryResult.Column> columns, Reading reading)
            implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }

    /**
     * The columns of statements prepared recently, by their text: a statement run again is prepared once (wrapped
     * straight away), not once to learn its columns and again wrapped. A stale entry (a frame replaced since) is caught
     * by comparing the types the wrapped statement binds to, and the statement is then prepared afresh.
     */
    private final Map<String, Known> known = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
            return size() > 64;
        }
    };

    /**
     * A statement's own columns, the columns of the statement that ran for it (wrapped or not), and the longest value
     * each column can hold when that is certain ({@link StoredLengths}; null when nothing is).
     */
    private record Known(List<QueryResult.Column> columns, List<QueryResult.Column> ran, long[] longest) { }

    /**
     * Prepares {@code sql} to run within the budget: wrapped at once when its columns are known from a run before,
     * else from {@code bound} (the guard's statement for it and DuckDB's parse of it) or a prepare of its own, whose
     * columns say whether a wrapped statement is needed in its place. When every text column is a plain column of a
     * dataset table whose stored values all fit the cell budget, the guard's statement runs as it is: one prepare.
     */
    Prepared prepare(java.sql.Connection c, SqlGuard.Bound bound, String sql) throws SQLException {
        Known seen = bound == null ? known.get(sql) : null;
        if (seen != null) {
            Reading reading = reading(sql, seen.columns(), seen.longest());
            java.sql.PreparedStatement ps = c.prepareStatement(reading.sql != null ? reading.sql : sql);
            try {
                if (sameTypes(columns(ps.getMetaData()), seen.ran())) {
                    return new Prepared(ps, seen.columns(), reading);
                }
            } catch (SQLException | RuntimeException e) {
                // the statement no longer binds as it did: prepared afresh below, which reports why
            }
            ps.close();
            known.remove(sql);
        }
        java.sql.PreparedStatement ps = bound != null ? bound.statement() : c.prepareStatement(sql);
        try {
            List<QueryResult.Column> columns = columns(ps.getMetaData());
            long[] longest = bound != null && anyVarchar(columns) ? lengths(bound, columns.size()) : null;
            Reading reading = reading(sql, columns, longest);
            List<QueryResult.Column> ran = columns;
            if (reading.sql != null) {
                ps.close();
                ps = c.prepareStatement(reading.sql);
                ran = columns(ps.getMetaData());
            }
            known.put(sql, new Known(columns, ran, longest));
            return new Prepared(ps, columns, reading);
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /** Whether a column is VARCHAR: only those may be read as they are thanks to their stored lengths ({@link #reading}). */
    private static boolean anyVarchar(List<QueryResult.Column> columns) {
        for (QueryResult.Column c : columns) {
            if ("VARCHAR".equals(c.type())) {
                return true;
            }
        }
        return false;
    }

    /** The stored lengths of the columns of the guard's statement, from its parse tree; null when it cannot be read. */
    private long[] lengths(SqlGuard.Bound bound, int columns) {
        com.fasterxml.jackson.databind.JsonNode tree = bound.tree();
        return tree == null ? null : stored.of(tree, columns);
    }

    /** Whether a statement prepared again gives the same column types as when it was known. */
    private static boolean sameTypes(List<QueryResult.Column> now, List<QueryResult.Column> known) {
        if (now.size() != known.size()) {
            return false;
        }
        for (int i = 0; i < known.size(); i++) {
            if (!java.util.Objects.equals(now.get(i).type(), known.get(i).type())) {
                return false;
            }
        }
        return true;
    }

    /** A result's columns as JDBC describes them: labels and DuckDB's type names. */
    static List<QueryResult.Column> columns(java.sql.ResultSetMetaData md) throws SQLException {
        List<QueryResult.Column> columns = new ArrayList<>(md.getColumnCount());
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(new QueryResult.Column(md.getColumnLabel(i), md.getColumnTypeName(i)));
        }
        return columns;
    }

    /**
     * How to read a query with {@code columns} (its bound result) within the budget; {@code longest} (may be null) says
     * which text columns cannot hold a value over the cell budget, and those are read as they are.
     */
    Reading reading(String sql, List<QueryResult.Column> columns, long[] longest) {
        Kind[] kinds = new Kind[columns.size()];
        int wide = 0;
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = kind(columns.get(i).type());
            wide += kinds[i] == Kind.PLAIN ? 0 : 1;
        }
        // the short columns still count among the wide ones: the cell budget, and so a chunk's bytes, stay as before
        long cell = CellTally.cellBytes(cellBytes, resultBytes, wide);
        int cut = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == Kind.TEXT && longest != null && longest[i] >= 0 && longest[i] <= cell
                    && "VARCHAR".equals(columns.get(i).type())) {
                kinds[i] = Kind.PLAIN;
            }
            cut += kinds[i] == Kind.PLAIN ? 0 : 1;
        }
        return new Reading(cut == 0 ? null : wrap(sql, kinds, cell), columns, kinds, cell, resultBytes);
    }

    private static Kind kind(String type) {
        String t = type == null ? "" : type.toUpperCase(Locale.ROOT);
        if (t.endsWith("]") || t.startsWith("STRUCT") || t.startsWith("MAP") || t.startsWith("UNION")) {
            return Kind.NESTED;
        }
        if (t.equals("VARCHAR") || t.startsWith("VARCHAR(") || t.equals("JSON")) {
            return Kind.TEXT;
        }
        return t.equals("BLOB") ? Kind.BLOB : Kind.PLAIN;
    }

    /**
     * {@code SELECT <each column, cut>, <each wide column's full size when cut> FROM (SELECT *, <each wide column's
     * size> FROM (sql) AS _sift_cells(c1, …))}: columns are named by position, so duplicate or odd names in the query do
     * not matter, and each wide value is measured once (the measures feed both the cut and the size beside it, which
     * also keeps the prepare cheap: binding costs per function call). A text prefix is cut in characters; when those
     * are wider than the budget (multi-byte text), a quarter as many are kept, which fits.
     */
    private static String wrap(String sql, Kind[] kinds, long n) {
        StringBuilder values = new StringBuilder();
        StringBuilder sizes = new StringBuilder();
        StringBuilder measures = new StringBuilder();
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < kinds.length; i++) {
            String c = "c" + (i + 1);
            String size = "s" + (i + 1);
            names.append(i == 0 ? "" : ", ").append(c);
            values.append(i == 0 ? "" : ", ");
            String measure = switch (kinds[i]) {
                case TEXT -> "strlen(" + c + ")";
                case BLOB -> "octet_length(" + c + ")";
                case NESTED -> "strlen(CAST(" + c + " AS VARCHAR))";
                case PLAIN -> null;
            };
            switch (kinds[i]) {
                case PLAIN -> values.append(c);
                case TEXT -> values.append("CASE WHEN ").append(size).append(" <= ").append(n).append(" THEN ").append(c)
                        .append(" WHEN strlen(left(").append(c).append(", ").append(n).append(")) <= ").append(n)
                        .append(" THEN left(").append(c).append(", ").append(n).append(") ELSE left(").append(c)
                        .append(", ").append(n / 4).append(") END");
                case BLOB -> values.append("CASE WHEN ").append(size).append(" <= ").append(n).append(" THEN ").append(c)
                        .append(" ELSE from_base64(left(to_base64(").append(c).append("), ").append(4 * (n / 3))
                        .append(")) END");
                case NESTED -> values.append("CASE WHEN ").append(size).append(" <= ").append(n).append(" THEN ")
                        .append(c).append(" END");
            }
            if (measure != null) {
                measures.append(", ").append(measure).append(" AS ").append(size);
                sizes.append(", CASE WHEN ").append(size).append(" > ").append(n).append(" THEN ").append(size).append(" END");
            }
        }
        return "SELECT " + values + sizes + " FROM (SELECT *" + measures + " FROM (" + SqlGuard.withoutTerminator(sql)
                + "\n) AS _sift_cells(" + names + ")) AS _sift_sized";
    }

    /** Reads one query's rows within the budget and tallies what was cut. Not thread-safe: one result at a time. */
    static final class Reading {
        /** The SQL to run: the query wrapped, or null to run it as written (no column can be wide). */
        final String sql;
        private final List<QueryResult.Column> columns;
        private final Kind[] kinds;
        private final long resultBytes;
        private final CellTally tally;
        private long bytesKept;

        private Reading(String sql, List<QueryResult.Column> columns, Kind[] kinds, long cell, long resultBytes) {
            this.sql = sql;
            this.columns = columns;
            this.kinds = kinds;
            this.resultBytes = resultBytes;
            boolean[] dropped = new boolean[kinds.length];
            for (int i = 0; i < kinds.length; i++) {
                dropped[i] = kinds[i] == Kind.NESTED;
            }
            this.tally = new CellTally(columns, dropped, cell, resultBytes);
        }

        /** The current row's values (the columns of the query, not the sizes beside them), noting cut cells. */
        List<Object> row(ResultSet rs) throws QueryException, SQLException {
            List<Object> row = new ArrayList<>(columns.size());
            int size = columns.size();
            for (int i = 0; i < columns.size(); i++) {
                row.add(JdbcValues.value(rs, i + 1, columns.get(i)));
                if (sql != null && kinds[i] != Kind.PLAIN) {
                    long full = rs.getLong(++size);
                    if (!rs.wasNull()) {
                        tally.cut(i, full);
                    }
                }
            }
            return row;
        }

        /**
         * Counts a row a result keeps; false when it passes the result budget (the row is then not kept, and the
         * rows kept so far are stated).
         */
        boolean keep(List<Object> row, int rowsSoFar) {
            long bytes = 0;
            for (Object v : row) {
                bytes += v instanceof String s ? s.length() : SMALL_VALUE_BYTES;
            }
            if (bytesKept + bytes > resultBytes && rowsSoFar > 0) {
                tally.rowsStopped(rowsSoFar);
                return false;
            }
            bytesKept += bytes;
            return true;
        }

        /** What was cut so far. */
        CellCuts cuts() {
            return tally.cuts();
        }
    }
}
