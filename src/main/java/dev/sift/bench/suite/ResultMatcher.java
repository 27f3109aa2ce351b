package dev.sift.bench.suite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Compares an answer's result with a gold result.
 * <ul>
 * <li>{@link #rowSet}: the rows as a multiset (order ignored), columns matched by content, not by name or
 * position. Every gold column must map to a distinct answer column; the answer may carry extra columns
 * (an id next to a name). Numbers match within a relative tolerance, so 4.5, 4.50 and the text "4.50" agree; a month
 * number and the month's English name agree (4 and "April": a grouping by month said in words).</li>
 * <li>{@link #singleValue}: a gold result of one cell matches an answer whose result is one row starting with
 * that value: the value alone, or a name with the value it was ranked by ("5" after an id is no answer).</li>
 * </ul>
 */
public final class ResultMatcher {
    private ResultMatcher() { }

    /** True when {@code answer} has the gold rows as a multiset, under some injective mapping of gold columns. */
    public static boolean rowSet(List<List<Object>> gold, int goldColumns, List<List<Object>> answer, int answerColumns,
                                 double tolerance) {
        if (gold.size() != answer.size() || answerColumns < goldColumns) {
            return false;
        }
        if (goldColumns == 0) {
            return true;
        }
        int[] mapping = new int[goldColumns];
        boolean[] used = new boolean[answerColumns];
        return assign(0, mapping, used, gold, goldColumns, answer, answerColumns, tolerance);
    }

    private static boolean assign(int g, int[] mapping, boolean[] used, List<List<Object>> gold, int goldColumns,
                                  List<List<Object>> answer, int answerColumns, double tol) {
        if (g == goldColumns) {
            return multisetEqual(gold, answer, mapping, tol);
        }
        for (int a = 0; a < answerColumns; a++) {
            if (!used[a] && columnMatches(gold, g, answer, a, tol)) {
                used[a] = true;
                mapping[g] = a;
                if (assign(g + 1, mapping, used, gold, goldColumns, answer, answerColumns, tol)) {
                    return true;
                }
                used[a] = false;
            }
        }
        return false;
    }

    /** A quick necessary condition: the gold column's values are the answer column's values as a multiset. */
    private static boolean columnMatches(List<List<Object>> gold, int g, List<List<Object>> answer, int a, double tol) {
        List<List<Object>> gc = new ArrayList<>();
        List<List<Object>> ac = new ArrayList<>();
        for (List<Object> r : gold) {
            gc.add(List.of(Objects.requireNonNullElse(r.get(g), NULL)));
        }
        for (List<Object> r : answer) {
            ac.add(List.of(Objects.requireNonNullElse(r.get(a), NULL)));
        }
        return multisetEqual(gc, ac, new int[] {0}, tol);
    }

    private static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "NULL";
        }
    };

    /** Greedy matching of gold rows to answer rows (projected by {@code mapping}) after sorting both. */
    private static boolean multisetEqual(List<List<Object>> gold, List<List<Object>> answer, int[] mapping, double tol) {
        List<List<Object>> g = new ArrayList<>();
        for (List<Object> r : gold) {
            List<Object> p = new ArrayList<>();
            for (int i = 0; i < mapping.length; i++) {
                p.add(r.get(i));
            }
            g.add(p);
        }
        List<List<Object>> a = new ArrayList<>();
        for (List<Object> r : answer) {
            List<Object> p = new ArrayList<>();
            for (int m : mapping) {
                p.add(r.get(m));
            }
            a.add(p);
        }
        boolean[] taken = new boolean[a.size()];
        outer:
        for (List<Object> gr : g) {
            for (int j = 0; j < a.size(); j++) {
                if (!taken[j] && rowEquals(gr, a.get(j), tol)) {
                    taken[j] = true;
                    continue outer;
                }
            }
            return false;
        }
        return true;
    }

    private static boolean rowEquals(List<Object> x, List<Object> y, double tol) {
        for (int i = 0; i < x.size(); i++) {
            if (!valueEquals(x.get(i), y.get(i), tol)) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when a one-cell gold result is the only cell of the answer's result, or the first cell of its only row (a
     * name stated with the value it was ranked by: "Hl.m. Praha | 12541" for "which district has the highest salary").
     */
    public static boolean singleValue(Object gold, List<List<Object>> answer, int answerColumns, double tolerance) {
        return answer.size() == 1 && answerColumns >= 1 && valueEquals(gold, answer.get(0).get(0), tolerance);
    }

    /**
     * Two cells are equal when both are null, both read as numbers within the relative tolerance (text that
     * is a plain number counts as that number), or their texts are equal.
     */
    public static boolean valueEquals(Object x, Object y, double tolerance) {
        if (x == NULL) {
            x = null;
        }
        if (y == NULL) {
            y = null;
        }
        if (x == null || y == null) {
            return x == y;
        }
        BigDecimal a = number(x);
        BigDecimal b = number(y);
        if (a != null && b != null) {
            if (a.compareTo(b) == 0) {
                return true;
            }
            double da = a.doubleValue();
            double db = b.doubleValue();
            double scale = Math.max(Math.abs(da), Math.abs(db));
            return Math.abs(da - db) <= tolerance * scale;
        }
        if ((x instanceof Boolean || y instanceof Boolean) && (a != null || b != null)) {
            return false;
        }
        if (a != null || b != null) { // a month said by its name where the gold has its number: 4 and 'April' agree
            return a != null ? monthNamed(a, y) : monthNamed(b, x);
        }
        return String.valueOf(x).equals(String.valueOf(y));
    }

    private static boolean monthNamed(BigDecimal number, Object name) {
        try {
            return number.stripTrailingZeros().scale() <= 0 && number.intValue() >= 1 && number.intValue() <= 12
                    && java.time.Month.valueOf(String.valueOf(name).trim().toUpperCase(java.util.Locale.ROOT)).getValue() == number.intValue();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public static BigDecimal number(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? null : BigDecimal.valueOf(d);
        }
        if (v instanceof Float f) {
            return f.isNaN() || f.isInfinite() ? null : BigDecimal.valueOf(f.doubleValue());
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString());
        }
        if (v instanceof String s && s.length() < 40 && s.matches("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?")) {
            return new BigDecimal(s);
        }
        return null;
    }
}
