package dev.sift.text;

import dev.sift.data.QueryResult;

import java.util.List;

/** Renders a query result as compact text for the planner: header, the first rows, and the full count. */
public final class ResultText {
    static final int CELL_CHARS = 60;

    private ResultText() { }

    public static String render(QueryResult r, int maxRows) {
        StringBuilder b = new StringBuilder(String.join(" | ", r.columnNames().stream().map(SafeText::oneLine).toList()))
                .append('\n');
        List<List<Object>> rows = r.rows();
        int shown = Math.min(maxRows, rows.size());
        for (int i = 0; i < shown; i++) {
            List<Object> row = rows.get(i);
            for (int j = 0; j < row.size(); j++) {
                b.append(j == 0 ? "" : " | ").append(cell(row.get(j)));
            }
            b.append('\n');
        }
        long total = r.rowCount();
        b.append(total < 0 ? "more than " + rows.size() : String.valueOf(total)).append(total == 1 ? " row" : " rows");
        if (shown < Math.max(total, rows.size())) {
            b.append(" (first ").append(shown).append(" shown)");
        }
        return b.toString();
    }

    public static String cell(Object v) {
        if (v == null) {
            return "NULL";
        }
        String s = v instanceof Double d ? formatDouble(d) : v.toString();
        s = SafeText.oneLine(s.replaceAll("[ \\t\\r\\n]+", " ")); // a cell never starts a line or sends escapes
        return s.length() > CELL_CHARS ? s.substring(0, CELL_CHARS) + "…" : s;
    }

    /** Doubles without float noise (12.3 not 12.299999999) and without scientific notation for normal sizes. */
    static String formatDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return new java.math.BigDecimal(d).round(new java.math.MathContext(10)).stripTrailingZeros().toPlainString();
    }
}
