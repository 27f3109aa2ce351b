package dev.sift.tool.analysis;

import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Quantiles of numeric columns in one SQL pass ({@code quantile_cont}). Sources over {@value #SAMPLE_FROM} rows
 * use a systematic 1-in-k sample of about {@value #SAMPLE_ROWS} rows by row id: deterministic (same data, same
 * answer) and several times cheaper than sketching every row, at a precision that quartile-based outlier fences
 * and profiles do not notice.
 */
final class Quantiles {
    static final long SAMPLE_FROM = 200_000;
    static final long SAMPLE_ROWS = 100_000;

    private Quantiles() { }

    /** The 1-in-k stride used for a source of this many rows (1 = every row). */
    static long stride(long rows) {
        return rows > SAMPLE_FROM ? (rows + SAMPLE_ROWS - 1) / SAMPLE_ROWS : 1;
    }

    /** Column → quantiles at {@code probs} (columns with no values are left out). */
    static Map<String, double[]> of(Workspace ws, TableInfo t, List<String> columns, double[] probs, long rows)
            throws QueryException {
        Map<String, double[]> out = new LinkedHashMap<>();
        if (columns.isEmpty()) {
            return out;
        }
        String list = Arrays.toString(probs);
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("array_to_string(quantile_cont(CAST(").append(Columns.q(columns.get(i)))
                    .append(" AS DOUBLE), ").append(list).append("), '|')");
        }
        sql.append(" FROM ").append(t.sqlName());
        long k = stride(rows);
        if (k > 1) {
            sql.append(" WHERE rowid % ").append(k).append(" = 0");
        }
        List<Object> row = ws.trustedQuery(sql.toString(), 1).rows().get(0);
        for (int i = 0; i < columns.size(); i++) {
            if (row.get(i) instanceof String s && !s.isEmpty()) {
                out.put(columns.get(i), Arrays.stream(s.split("\\|")).mapToDouble(Double::parseDouble).toArray());
            }
        }
        return out;
    }
}
