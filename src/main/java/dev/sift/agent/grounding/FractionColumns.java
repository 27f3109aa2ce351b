package dev.sift.agent.grounding;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which result columns hold fractions that a query computed (a ratio, or the average of a condition): their values
 * are shares of one ("0.11" is 11 %), so an answer that writes such a value with a percent sign ("0.11 %") states a
 * hundred times less than the result. A column counts only when the query shows how it was computed: its select
 * expression divides or averages a condition, has no factor 100, and its name does not say percent. A column read as
 * stored (an unemployment rate kept in percent, 0.29 for one district) is never one, so "0.29 %" of it stays supported.
 */
final class FractionColumns {
    private static final Pattern PERCENT_NAME = Pattern.compile("pct|percent|perc\\b|%", Pattern.CASE_INSENSITIVE);
    private static final Pattern HUNDRED = Pattern.compile("(?<![\\w.])100(?:\\.0*)?(?![\\w.])");
    private static final Pattern CONDITION_AVERAGE = Pattern.compile(
            "^\\s*(?:avg|mean)\\s*\\(.*(?:\\bcase\\b|[<>=]|\\bin\\s*\\(|\\blike\\b|\\bis\\s+(?:not\\s+)?null\\b)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private FractionColumns() { }

    /**
     * True when {@code column} of the result of {@code sql} is a computed fraction: every value is between -1 and 1,
     * one is not whole, and its expression in the query ("count_if(bad) / count(*) AS default_rate") is a ratio or
     * a condition's average without a factor 100.
     */
    static boolean computedFraction(String sql, String column, List<List<Object>> rows, int index) {
        if (sql == null || PERCENT_NAME.matcher(column).find() || !fractionValues(rows, index)) {
            return false;
        }
        String expr = expression(sql, column);
        return expr != null && !HUNDRED.matcher(expr).find()
                && (expr.indexOf('/') >= 0 || CONDITION_AVERAGE.matcher(expr).find());
    }

    private static boolean fractionValues(List<List<Object>> rows, int index) {
        boolean fractional = false;
        for (List<Object> row : rows) {
            if (index >= row.size() || !(row.get(index) instanceof Number n)) {
                continue;
            }
            double v = n.doubleValue();
            if (Double.isNaN(v) || Math.abs(v) > 1) {
                return false;
            }
            fractional |= v != Math.rint(v);
        }
        return fractional;
    }

    /**
     * The select expression that names {@code column} ("… AS column"), read back from the alias to the comma or
     * SELECT that starts it at the same depth of parentheses; the column's own name when the engine named the column
     * after its expression ("(a / b)"); null when the query does not show it.
     */
    static String expression(String sql, String column) {
        Matcher m = Pattern.compile("(?i)\\bAS\\s+(?:\"" + Pattern.quote(column) + "\"|" + Pattern.quote(column)
                + ")(?![\\w\"])").matcher(sql);
        if (!m.find()) {
            return column.indexOf('(') >= 0 ? column : null;
        }
        int depth = 0;
        int i = m.start() - 1;
        for (; i >= 0; i--) {
            char c = sql.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (depth == 0 && (c == ',' || startsSelect(sql, i))) {
                break;
            }
        }
        return sql.substring(i + 1, m.start()).trim();
    }

    /** True when the keyword SELECT ends at {@code i}. */
    private static boolean startsSelect(String sql, int i) {
        return i >= 5 && sql.regionMatches(true, i - 5, "select", 0, 6)
                && (i == 5 || !Character.isLetterOrDigit(sql.charAt(i - 6)) && sql.charAt(i - 6) != '_');
    }
}
