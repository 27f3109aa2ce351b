package dev.sift.tool.analysis;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the values of VARCHAR columns look like: dates in several formats, numbers stored as text, blanks.
 * Counted over each column's distinct values weighted by their row counts, in one SQL query.
 */
final class Formats {
    /** Format name → DuckDB condition on {@code v}. Date formats first; their names start with "date". */
    static final Map<String, String> PATTERNS = new LinkedHashMap<>();

    static {
        PATTERNS.put("date YYYY-MM-DD", "regexp_full_match(v, '\\d{4}-\\d{1,2}-\\d{1,2}([ T]\\d{1,2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?')");
        PATTERNS.put("date YYYY/MM/DD", "regexp_full_match(v, '\\d{4}/\\d{1,2}/\\d{1,2}')");
        PATTERNS.put("date DD.MM.YYYY", "regexp_full_match(v, '\\d{1,2}\\.\\d{1,2}\\.\\d{4}')");
        PATTERNS.put("date DD/MM/YYYY or MM/DD/YYYY", "regexp_full_match(v, '\\d{1,2}/\\d{1,2}/\\d{2,4}')");
        PATTERNS.put("date like '31 Dec 1986'", "regexp_full_match(v, '\\d{1,2} [A-Za-z]{3,9}\\.? \\d{4}.*')");
        // month first, as 'April 01, 2017 at 12:15 PM' or 'Dec 31, 1986': a month's name, not any word
        PATTERNS.put("date like 'Dec 31, 1986'", "regexp_full_match(v, '(?i)(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                + "[a-z]*\\.? \\d{1,2},? \\d{4}.*')");
        PATTERNS.put("date YYMMDD", "regexp_full_match(v, '\\d{6}') AND try_strptime(v, '%y%m%d') IS NOT NULL");
        PATTERNS.put("number as text", "regexp_full_match(trim(v), '[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?')");
        PATTERNS.put("blank", "trim(v) = ''");
    }

    private Formats() { }

    /** Column → (format → share of its non-null values), for the given VARCHAR columns; formats with no match omitted. */
    static Map<String, Map<String, Double>> detect(Workspace ws, TableInfo t, List<String> textColumns) throws QueryException {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        detect(ws, t, textColumns, out, new LinkedHashMap<>());
        return out;
    }

    /** As {@link #detect(Workspace, TableInfo, List)}, also filling one example value per column and format. */
    static void detect(Workspace ws, TableInfo t, List<String> textColumns, Map<String, Map<String, Double>> out,
                       Map<String, Map<String, String>> examples) throws QueryException {
        if (textColumns.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        for (String c : textColumns) {
            StringBuilder b = new StringBuilder("SELECT ").append(Sql.quoteString(c)).append(" AS col, sum(n)");
            for (String cond : PATTERNS.values()) {
                b.append(", coalesce(sum(n) FILTER (WHERE ").append(cond).append("), 0), min(v) FILTER (WHERE ")
                        .append(cond).append(")");
            }
            b.append(" FROM (SELECT ").append(Columns.q(c)).append(" AS v, count(*) AS n FROM ").append(t.sqlName())
                    .append(" WHERE ").append(Columns.q(c)).append(" IS NOT NULL GROUP BY 1)");
            parts.add(b.toString());
        }
        QueryResult r = ws.trustedQuery(String.join(" UNION ALL ", parts), textColumns.size());
        List<String> names = new ArrayList<>(PATTERNS.keySet());
        for (List<Object> row : r.rows()) {
            Map<String, Double> shares = new LinkedHashMap<>();
            Map<String, String> example = new LinkedHashMap<>();
            double total = Columns.toDouble(row.get(1));
            for (int i = 0; i < names.size(); i++) {
                double n = Columns.toDouble(row.get(2 * i + 2));
                if (total > 0 && n > 0) {
                    shares.put(names.get(i), n / total);
                    example.put(names.get(i), (String) row.get(2 * i + 3));
                }
            }
            out.put((String) row.get(0), shares);
            examples.put((String) row.get(0), example);
        }
    }

    /** The date formats among detected formats (YYMMDD only when the values are not all plain numbers too). */
    static Map<String, Double> dateFormats(Map<String, Double> formats) {
        Map<String, Double> out = new LinkedHashMap<>();
        formats.forEach((k, v) -> {
            if (k.startsWith("date")) {
                out.put(k, v);
            }
        });
        return out;
    }
}
