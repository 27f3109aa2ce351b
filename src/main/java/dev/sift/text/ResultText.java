package dev.sift.text;

import dev.sift.data.Clip;
import dev.sift.data.QueryResult;

import java.util.ArrayList;
import java.util.Arrays;
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

    /** As {@link #page(QueryResult, long, int, int, int, boolean)} with cells of at most {@link #CELL_CHARS} characters. */
    public static Page page(QueryResult r, long offset, int maxRows, int maxChars) {
        return page(r, offset, maxRows, maxChars, CELL_CHARS, false);
    }

    /** Narrowest a long text column's cells get so that more rows fit ({@link #page}). */
    static final int MIN_CELL_CHARS = 24;

    /**
     * {@code maxRows} rows from row {@code offset} of {@code r} (whose first row is row {@code offset + 1} of the
     * whole result), the header first and the stated window last. A cell over {@code cellChars} is shortened at a
     * word and its column named. When the rows would pass {@code maxChars} because of long text columns and cells are
     * at their default width, those columns get a per-cell budget (no less than {@link #MIN_CELL_CHARS}) so that the
     * page holds the rows rather than a few rows of long text; the statement says to what width. Rows stop early rather
     * than pass {@code maxChars}, so a summary cap never cuts the window statement off, and the statement then says why
     * fewer rows than asked ({@code asked}: the caller gave a row limit) or than the page holds are shown.
     */
    public static Page page(QueryResult r, long offset, int maxRows, int maxChars, int cellChars, boolean asked) {
        List<String> names = r.columnNames();
        StringBuilder b = new StringBuilder(256);
        for (int j = 0; j < names.size(); j++) {
            b.append(j == 0 ? "" : " | ").append(SafeText.oneLine(names.get(j)));
        }
        b.append('\n');
        List<List<String>> cells = cells(r.rows().subList(0, Math.min(maxRows, r.rows().size())));
        int[] widths = widths(cells, names.size(), cellChars, cellChars == CELL_CHARS ? maxChars - b.length() - WINDOW_CHARS
                - 100 : Integer.MAX_VALUE);
        int shown = cells.size();
        boolean full = false;
        Set<String> shortened = new LinkedHashSet<>();
        Set<String> narrowed = new LinkedHashSet<>();
        int narrowTo = cellChars;
        for (int i = 0; i < shown; i++) {
            StringBuilder line = new StringBuilder();
            List<Integer> lineCut = new ArrayList<>();
            List<String> row = cells.get(i);
            for (int j = 0; j < row.size(); j++) {
                String whole = row.get(j);
                if (whole.length() > widths[j]) {
                    lineCut.add(j);
                }
                line.append(j == 0 ? "" : " | ").append(Clip.words(whole, widths[j]));
            }
            if (b.length() + line.length() + WINDOW_CHARS > maxChars && i > 0) {
                shown = i;
                full = true;
                break;
            }
            for (int j : lineCut) {
                (widths[j] < cellChars ? narrowed : shortened).add(names.get(j));
                narrowTo = widths[j] < cellChars ? widths[j] : narrowTo;
            }
            b.append(line).append('\n');
        }
        long total = r.rowCount() < 0 ? -1 : r.rowCount();
        b.append(window(offset, shown, total < 0 ? offset + r.rows().size() : total, total < 0));
        if (full) {
            b.append(asked ? " (the rest of the " + count(maxRows) + " asked for did not fit in the observation)"
                    : " (the rest did not fit in the observation)");
        }
        if (!shortened.isEmpty()) {
            b.append("; cells over ").append(count(cellChars)).append(" characters shortened at a word (…) in ")
                    .append(String.join(", ", shortened));
        }
        if (!narrowed.isEmpty()) {
            b.append("; long text cut to ").append(count(narrowTo)).append(" characters a cell at a word (…), so more rows fit, in ")
                    .append(String.join(", ", narrowed));
        }
        List<String> cut = new ArrayList<>(shortened);
        narrowed.stream().filter(c -> !cut.contains(c)).forEach(cut::add);
        return new Page(b.toString(), shown, List.copyOf(cut));
    }

    /** The rows' values whole, each on one line. */
    private static List<List<String>> cells(List<List<Object>> rows) {
        List<List<String>> cells = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            String[] line = new String[row.size()];
            for (int j = 0; j < line.length; j++) {
                line[j] = oneLine(row.get(j));
            }
            cells.add(Arrays.asList(line));
        }
        return cells;
    }

    /**
     * Each column's cell width: {@code cellChars}, or for the long text columns (a cell over {@link #MIN_CELL_CHARS})
     * one narrower width, when that lets every row fit in {@code room} characters and the default width does not.
     */
    private static int[] widths(List<List<String>> cells, int columns, int cellChars, int room) {
        int[] widths = new int[columns];
        java.util.Arrays.fill(widths, cellChars);
        boolean[] longText = new boolean[columns];
        long all = 0;
        long fixed = 0;
        int longColumns = 0;
        for (List<String> row : cells) {
            for (int j = 0; j < columns; j++) {
                int len = Math.min(row.get(j).length(), cellChars) + 3;
                all += len;
                longText[j] |= row.get(j).length() > MIN_CELL_CHARS && !NUMBER.matcher(row.get(j)).matches();
            }
        }
        for (int j = 0; j < columns; j++) {
            if (longText[j]) {
                longColumns++;
            } else {
                for (List<String> row : cells) {
                    fixed += Math.min(row.get(j).length(), cellChars) + 3;
                }
            }
        }
        if (room == Integer.MAX_VALUE || all <= room || longColumns == 0 || cells.isEmpty()) {
            return widths;
        }
        long perCell = (room - fixed) / ((long) cells.size() * longColumns) - 3;
        int w = (int) Math.max(MIN_CELL_CHARS, Math.min(cellChars, perCell));
        for (int j = 0; j < columns; j++) {
            if (longText[j]) {
                widths[j] = w;
            }
        }
        return widths;
    }

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("-?[\\d.,eE+-]+");

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

    /** {@code n} with a comma between thousands ({@code 12,345}), as {@code %,d} writes it, without a formatter. */
    static String count(long n) {
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        int len = digits.length() - sign;
        if (len <= 3) {
            return digits;
        }
        StringBuilder b = new StringBuilder(digits.length() + len / 3).append(digits, 0, sign);
        for (int i = 0; i < len; i++) {
            if (i > 0 && (len - i) % 3 == 0) {
                b.append(',');
            }
            b.append(digits.charAt(sign + i));
        }
        return b.toString();
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
        return SafeText.oneLine(collapseSpace(s));
    }

    /** Each run of spaces, tabs and line breaks as one space (most values have none: returned as they are). */
    static String collapseSpace(String s) {
        StringBuilder b = null;
        boolean inRun = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean space = isSpace(c);
            if (b == null && space && (c != ' ' || (i + 1 < s.length() && isSpace(s.charAt(i + 1))))) {
                b = new StringBuilder(s.length()).append(s, 0, i); // the first run that changes
            }
            if (b != null && !(space && inRun)) {
                b.append(space ? ' ' : c);
            }
            inRun = space;
        }
        return b == null ? s : b.toString();
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
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
