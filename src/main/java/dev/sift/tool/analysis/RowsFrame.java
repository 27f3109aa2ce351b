package dev.sift.tool.analysis;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps a small computed table (a profile, a correlation list, a forecast) as a frame, so later steps and
 * {@code run_sql} can query it. Columns are typed explicitly; values become SQL literals.
 */
final class RowsFrame {
    /** A column of the frame: its name and DuckDB type (VARCHAR, DOUBLE, BIGINT, DATE, BOOLEAN). */
    record Col(String name, String type) { }

    private RowsFrame() { }

    static QueryResult save(Workspace ws, String label, List<Col> cols, List<? extends Map<String, ?>> rows)
            throws QueryException {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < cols.size(); i++) {
            select.append(i == 0 ? "" : ", ").append("CAST(c").append(i).append(" AS ").append(cols.get(i).type())
                    .append(") AS ").append(Sql.quoteIdent(cols.get(i).name()));
        }
        List<String> aliases = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            aliases.add("c" + i);
        }
        StringBuilder values = new StringBuilder();
        for (Map<String, ?> row : rows) {
            values.append(values.length() == 0 ? "" : ", ").append('(');
            for (int i = 0; i < cols.size(); i++) {
                values.append(i == 0 ? "" : ", ").append(literal(row.get(cols.get(i).name())));
            }
            values.append(')');
        }
        String from = rows.isEmpty()
                ? " FROM (SELECT " + String.join(", ", aliases.stream().map(a -> "NULL AS " + a).toList()) + ") WHERE false"
                : " FROM (VALUES " + values + ") v(" + String.join(", ", aliases) + ")";
        return ws.saveTrustedFrame(label, select + from);
    }

    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return "NULL";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        return Sql.quoteString(v.toString());
    }

    /** A frame label from free text: lowercase letters, digits and '_', at most 63 characters. */
    static String label(String... parts) {
        String s = String.join("_", parts).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]+", "_")
                .replaceAll("_+", "_").replaceAll("^_|_$", "");
        if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
            s = "f_" + s;
        }
        return s.length() > 63 ? s.substring(0, 63) : s;
    }
}
