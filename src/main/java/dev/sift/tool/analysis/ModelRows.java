package dev.sift.tool.analysis;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolCallException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rows a model works on (classify_rows, extract_fields): each row's id and the text shown for it, read once after
 * the row bound is checked, with the cost estimate and the batches the rows go in.
 */
final class ModelRows {
    static final int DEFAULT_MAX_ROWS = 2_000;
    static final int HARD_MAX_ROWS = 20_000;
    /** Text of one row shown to the model, at most. */
    static final int TEXT_CHARS = 1_500;
    /** A batch: at most this many rows and characters of row text (about 4,000 tokens). */
    static final int BATCH_ROWS = 60;
    static final int BATCH_CHARS = 16_000;
    /** Tokens a row costs beside its text (its id, the JSON around it, its answer). */
    static final int ROW_OVERHEAD_TOKENS = 25;

    record Row(String id, String text) { }

    /** What a call will cost before it runs: rows, input and output tokens (about 4 characters a token), requests. */
    record Estimate(int rows, long tokens, int requests) {
        String text() {
            return String.format(Locale.ROOT, "%,d rows, about %,d tokens in %,d requests", rows, tokens, requests);
        }
    }

    private ModelRows() { }

    /**
     * The rows of {@code source} (filtered) as id and text, ordered by id; refused when more than {@code maxRows}
     * match, with how to narrow.
     */
    static List<Row> read(Workspace ws, TableInfo t, String id, List<String> textColumns, String filter, Integer maxRows,
                          String tool) throws QueryException, ToolCallException {
        int bound = maxRows == null ? DEFAULT_MAX_ROWS : maxRows;
        if (bound < 1 || bound > HARD_MAX_ROWS) {
            throw new ToolCallException("max_rows must be between 1 and " + HARD_MAX_ROWS + ", got " + bound + ".");
        }
        String idCol = idColumn(t, id);
        String src = StatTest.filtered(ws, t, filter);
        long n = ((Number) ws.trustedQuery("SELECT count(*) FROM " + src, 1).scalar()).longValue();
        if (n > bound) {
            throw new ToolCallException(String.format(Locale.ROOT, "%s: %,d rows of %s match, over max_rows %,d (each row"
                    + " is sent to the model). Narrow the rows with filter (an SQL condition, e.g. \"created >= DATE"
                    + " '2024-01-01'\"), or make a frame of only the rows the question needs with run_sql, or raise"
                    + " max_rows (at most %,d) if every row is needed.", tool, n, t.name(), bound, HARD_MAX_ROWS));
        }
        long distinct = ((Number) ws.trustedQuery("SELECT count(DISTINCT " + Columns.q(idCol) + ") FROM " + src, 1)
                .scalar()).longValue();
        if (distinct < n) {
            throw new ToolCallException(tool + ": id column '" + idCol + "' is not unique in " + t.name() + " (" + distinct
                    + " distinct values in " + n + " rows). Give id: a column that identifies each row.");
        }
        String text = text(textColumns);
        return ws.trustedRead("SELECT CAST(" + Columns.q(idCol) + " AS VARCHAR), " + text + " FROM " + src + " WHERE "
                + Columns.q(idCol) + " IS NOT NULL ORDER BY " + Columns.q(idCol), rs -> {
                    List<Row> rows = new ArrayList<>();
                    while (rs.next()) {
                        String v = rs.getString(2);
                        rows.add(new Row(rs.getString(1), v == null ? "" : v));
                    }
                    return rows;
                });
    }

    /** The id column given, else one named {@code id} or ending in {@code _id} (the first). */
    static String idColumn(TableInfo t, String given) throws ToolCallException {
        if (given != null && !given.isBlank()) {
            return t.column(given).map(ColumnInfo::name).orElseThrow();
        }
        for (ColumnInfo c : t.columns()) {
            String n = c.name().toLowerCase(Locale.ROOT);
            if (n.equals("id") || n.endsWith("_id")) {
                return c.name();
            }
        }
        throw new ToolCallException("id: " + t.name() + " has no column named id or *_id. Give id: the column that"
                + " identifies each row (its columns: " + String.join(", ", t.columnNames()) + ").");
    }

    /** The text shown: one column as it is, several as "name: value" lines; cut at {@link #TEXT_CHARS}. */
    private static String text(List<String> cols) {
        if (cols.size() == 1) {
            return "left(CAST(" + Columns.q(cols.get(0)) + " AS VARCHAR), " + TEXT_CHARS + ")";
        }
        List<String> parts = new ArrayList<>();
        for (String c : cols) {
            parts.add("CASE WHEN " + Columns.q(c) + " IS NULL THEN NULL ELSE " + dev.sift.data.Sql.quoteString(c + ": ")
                    + " || CAST(" + Columns.q(c) + " AS VARCHAR) END");
        }
        return "left(concat_ws(chr(10), " + String.join(", ", parts) + "), " + TEXT_CHARS + ")";
    }

    /** The rows in batches of at most {@link #BATCH_ROWS} rows and {@link #BATCH_CHARS} characters of text. */
    static List<List<Row>> batches(List<Row> rows) {
        List<List<Row>> out = new ArrayList<>();
        List<Row> cur = new ArrayList<>();
        int chars = 0;
        for (Row r : rows) {
            if (!cur.isEmpty() && (cur.size() >= BATCH_ROWS || chars + r.text().length() > BATCH_CHARS)) {
                out.add(cur);
                cur = new ArrayList<>();
                chars = 0;
            }
            cur.add(r);
            chars += r.text().length();
        }
        if (!cur.isEmpty()) {
            out.add(cur);
        }
        return out;
    }

    /** The cost of sending {@code rows} (plus the consistency sample) with an instruction of {@code promptChars}. */
    static Estimate estimate(List<Row> rows, int sample, int promptChars) {
        List<List<Row>> b = batches(rows);
        int requests = b.size() + (sample > 0 ? 1 : 0);
        long chars = 0;
        for (Row r : rows) {
            chars += r.text().length();
        }
        double perRow = rows.isEmpty() ? 0 : (double) chars / rows.size();
        long tokens = Math.round((chars + sample * perRow) / 4.0) + (long) (rows.size() + sample) * ROW_OVERHEAD_TOKENS
                + (long) requests * (promptChars / 4);
        return new Estimate(rows.size(), tokens, requests);
    }
}
