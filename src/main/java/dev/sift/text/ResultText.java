package dev.sift.text;

import dev.sift.data.Clip;
import dev.sift.data.QueryResult;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Renders a query result as compact text for the planner: header, the first rows, and the full count. */
public final class ResultText {
    public static final int CELL_CHARS = 60;
    /** Room kept for the window statement at the end of a rendering. */
    static final int WINDOW_CHARS = 110;

    private ResultText() { }

    /** The first {@code maxRows} rows, then the window they are: {@link #window}. */
    public static String render(QueryResult r, int maxRows) {
        return page(r, 0, maxRows, Integer.MAX_VALUE).text();
    }

    /** A rendering, how many rows of the result it shows, and the columns whose cells it shortened. */
    public record Page(String text, int shown, List<String> shortened) { }

    /** As {@link #page(QueryResult, long, int, int, int)} with cells of at most {@link #CELL_CHARS} characters. */
    public static Page page(QueryResult r, long offset, int maxRows, int maxChars) {
        return page(r, offset, maxRows, maxChars, CELL_CHARS);
    }

    /**
     * {@code maxRows} rows from row {@code offset} of {@code r} (whose first row is row {@code offset + 1} of the
     * whole result), the header first and the stated window last. A cell over {@code cellChars} is shortened at a
     * word and its column named. Rows stop early rather than pass {@code maxChars}, so a summary cap never cuts the
     * window statement off, and the statement then says why fewer rows than asked are shown.
     */
    public static Page page(QueryResult r, long offset, int maxRows, int maxChars, int cellChars) {
        List<String> names = r.columnNames();
        StringBuilder b = new StringBuilder(String.join(" | ", names.stream().map(SafeText::oneLine).toList())).append('\n');
        List<List<Object>> rows = r.rows();
        int shown = Math.min(maxRows, rows.size());
        boolean full = false;
        Set<String> shortened = new LinkedHashSet<>();
        for (int i = 0; i < shown; i++) {
            StringBuilder line = new StringBuilder();
            List<String> lineCut = new ArrayList<>();
            List<Object> row = rows.get(i);
            for (int j = 0; j < row.size(); j++) {
                String whole = oneLine(row.get(j));
                if (whole.length() > cellChars) {
                    lineCut.add(names.get(j));
                }
                line.append(j == 0 ? "" : " | ").append(Clip.words(whole, cellChars));
            }
            if (b.length() + line.length() + WINDOW_CHARS > maxChars && i > 0) {
                shown = i;
                full = true;
                break;
            }
            shortened.addAll(lineCut);
            b.append(line).append('\n');
        }
        long total = r.rowCount() < 0 ? -1 : r.rowCount();
        b.append(window(offset, shown, total < 0 ? offset + rows.size() : total, total < 0));
        if (full) {
            b.append(" (the rest of the ").append(count(maxRows)).append(" asked for did not fit in the observation)");
        }
        if (!shortened.isEmpty()) {
            b.append("; cells over ").append(count(cellChars)).append(" characters shortened at a word (…) in ")
                    .append(String.join(", ", shortened));
        }
        return new Page(b.toString(), shown, List.copyOf(shortened));
    }

    /**
     * What an observation shows, said plainly: {@code 12 rows}, or {@code 4,000 rows; showing rows 1–15} (and
     * {@code more than N rows} when the count is unknown).
     */
    public static String window(long offset, int shown, long total, boolean atLeast) {
        StringBuilder b = new StringBuilder(atLeast ? "more than " : "").append(count(total))
                .append(total == 1 && !atLeast ? " row" : " rows");
        if (atLeast || offset > 0 || shown < total) {
            b.append(shown == 0 ? "; no rows shown from row " + count(offset + 1)
                    : "; showing rows " + count(offset + 1) + "–" + count(offset + shown));
        }
        return b.toString();
    }

    /** Whether the window of {@code shown} rows from {@code offset} leaves rows of a {@code total} out. */
    public static boolean partial(long offset, int shown, long total) {
        return total < 0 || offset > 0 || shown < total;
    }

    static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    /** A value on one line, shortened at a word past {@link #CELL_CHARS} characters. */
    public static String cell(Object v) {
        return Clip.words(oneLine(v), CELL_CHARS);
    }

    /** A value whole, on one line: a cell never starts a line or sends escapes. */
    private static String oneLine(Object v) {
        if (v == null) {
            return "NULL";
        }
        String s = v instanceof Double d ? formatDouble(d) : v.toString();
        return SafeText.oneLine(s.replaceAll("[ \\t\\r\\n]+", " "));
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
