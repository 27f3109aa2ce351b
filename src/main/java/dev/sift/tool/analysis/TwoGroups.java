package dev.sift.tool.analysis;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolCallException;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL side of {@code stat_test}'s two-group tests: which two values of the group column are compared, and the
 * counts, moments and rank sums each test needs, read in one pass over the (filtered) source.
 */
final class TwoGroups {
    private TwoGroups() { }

    /** The two values compared: those named (each must occur), else the column's only two values. */
    static List<String> values(Workspace ws, String src, ColumnInfo g, List<String> named)
            throws QueryException, ToolCallException {
        String qg = "CAST(" + Columns.q(g.name()) + " AS VARCHAR)";
        QueryResult r = ws.trustedQuery("SELECT " + qg + ", count(*) FROM " + src + " WHERE " + qg
                + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 21", 21);
        List<String> present = new ArrayList<>();
        r.rows().forEach(row -> present.add((String) row.get(0)));
        String shown = String.join(", ", present.subList(0, Math.min(20, present.size())))
                + (present.size() > 20 ? ", …" : "");
        if (named != null) {
            for (String v : named) {
                if (!present.contains(v) && ws.trustedQuery("SELECT 1 FROM " + src + " WHERE " + qg + " = "
                        + dev.sift.data.Sql.quoteString(v) + " LIMIT 1", 1).rows().isEmpty()) {
                    throw new ToolCallException("groups: '" + v + "' is not a value of " + g.name() + " (after the filter);"
                            + " values: " + shown + ".");
                }
            }
            return named;
        }
        if (present.size() != 2) {
            throw new ToolCallException(g.name() + " has " + (present.size() > 20 ? "more than 20" : present.size())
                    + " values (" + shown + "); name the two to compare in 'groups', e.g. [\""
                    + (present.isEmpty() ? "a" : present.get(0)) + "\", \"" + (present.size() < 2 ? "b" : present.get(1))
                    + "\"].");
        }
        return present;
    }

    static StatTests.Outcome welch(Workspace ws, String src, String v, String first, String second, List<String> names)
            throws QueryException, ToolCallException {
        List<Object> row = ws.trustedQuery("SELECT count(" + v + ") FILTER (WHERE " + first + "), avg(" + v
                + ") FILTER (WHERE " + first + "), var_samp(" + v + ") FILTER (WHERE " + first + "), count(" + v
                + ") FILTER (WHERE " + second + "), avg(" + v + ") FILTER (WHERE " + second + "), var_samp(" + v
                + ") FILTER (WHERE " + second + ") FROM " + src, 1).rows().get(0);
        long n1 = ((Number) row.get(0)).longValue();
        long n2 = ((Number) row.get(3)).longValue();
        atLeastTwo(n1, n2, names);
        return StatTests.welch(new StatTests.Moments(n1, Columns.toDouble(row.get(1)), Columns.toDouble(row.get(2))),
                new StatTests.Moments(n2, Columns.toDouble(row.get(4)), Columns.toDouble(row.get(5))));
    }

    static StatTests.Outcome mannWhitney(Workspace ws, String src, String v, String first, String second,
                                         List<String> names) throws QueryException, ToolCallException {
        String pooled = "SELECT CAST(" + v + " AS DOUBLE) AS v, " + first + " AS is_a FROM " + src + " WHERE " + v
                + " IS NOT NULL AND (" + first + " OR " + second + ")";
        List<Object> row = ws.trustedQuery("WITH d AS (" + pooled + "), r AS (SELECT is_a, " + StatTest.averageRank("v")
                + " AS r FROM d), t AS (SELECT CAST(count(*) AS DOUBLE) AS c FROM d GROUP BY v)"
                + " SELECT (SELECT count(*) FILTER (WHERE is_a) FROM d), (SELECT count(*) FILTER (WHERE NOT is_a) FROM d),"
                + " (SELECT sum(r) FILTER (WHERE is_a) FROM r), (SELECT coalesce(sum(c * c * c - c), 0) FROM t)", 1)
                .rows().get(0);
        long n1 = ((Number) row.get(0)).longValue();
        long n2 = ((Number) row.get(1)).longValue();
        atLeastTwo(n1, n2, names);
        return StatTests.mannWhitney(n1, n2, Columns.toDouble(row.get(2)), Columns.toDouble(row.get(3)));
    }

    static StatTests.Outcome proportions(Workspace ws, TableInfo t, String src, String first, String second,
                                         String success) throws QueryException, ToolCallException {
        if (success == null) {
            throw new ToolCallException("two_proportion needs 'success': the SQL condition a row counts as a success"
                    + " in, e.g. \"status = 'B'\". Columns of " + t.name() + ": " + String.join(", ", t.columnNames()) + ".");
        }
        String problem = ExpressionCheck.problem(success);
        String sql = "SELECT count(*) FILTER (WHERE " + first + "), count(*) FILTER (WHERE " + first + " AND (" + success
                + ")), count(*) FILTER (WHERE " + second + "), count(*) FILTER (WHERE " + second + " AND (" + success
                + ")) FROM " + src;
        try {
            if (problem == null) {
                ws.check("SELECT count(*) FILTER (WHERE (" + success + ")) FROM " + t.sqlName());
            }
        } catch (QueryException e) {
            problem = "does not work: " + e.getMessage();
        }
        if (problem != null) {
            throw new ToolCallException("The success condition " + problem + ". Give one SQL condition on the columns of "
                    + t.name() + " (" + String.join(", ", t.columnNames()) + "), e.g. \"status = 'B'\".");
        }
        List<Object> row = ws.trustedQuery(sql, 1).rows().get(0);
        long n1 = ((Number) row.get(0)).longValue();
        long n2 = ((Number) row.get(2)).longValue();
        if (n1 == 0 || n2 == 0) {
            throw new ToolCallException("two_proportion needs rows in both groups; found " + n1 + " and " + n2 + ".");
        }
        return StatTests.twoProportions(n1, ((Number) row.get(1)).longValue(), n2, ((Number) row.get(3)).longValue());
    }

    private static void atLeastTwo(long n1, long n2, List<String> names) throws ToolCallException {
        if (n1 < 2 || n2 < 2) {
            throw new ToolCallException("each group needs at least two values; " + names.get(0) + " has " + n1 + " and "
                    + names.get(1) + " has " + n2 + " (non-NULL, after the filter).");
        }
    }
}
