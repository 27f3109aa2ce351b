package dev.sift.planner.rules;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgSql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A "fewest" or "lowest" ranking of groups whose cut falls among groups at 0 ("which job had the fewest women in 1850",
 * where 211 jobs had no women; "the lowest default rate", where several districts had none): which of them came first
 * would be the order of their names, not the data, so the question is asked back with how many are at 0, never answered
 * with one of them picked. Other ties keep their stated order (by name).
 */
final class TiesAtCut {
    /** The end of an ascending ranking of groups: "ORDER BY 2 ASC, 1 LIMIT 1". */
    private static final Pattern CUT = Pattern.compile(" ORDER BY (\\d+) ASC(?:, \\d+)? LIMIT (\\d+)$");

    private TiesAtCut() { }

    /** The ranking's SQL, once its cut is checked for groups that all have none. */
    static String checked(String sql, String groups, Workspace ws) throws QueryBuilder.Unsupported {
        Matcher m = CUT.matcher(sql);
        if (!m.find()) {
            return sql;
        }
        int ranked = Integer.parseInt(m.group(1)) - 1;
        int n = Integer.parseInt(m.group(2));
        try {
            QueryResult top = ws.trustedQuery(sql.substring(0, m.start(2)) + (n + 1), n + 1);
            if (top.rows().size() <= n || !(top.rows().get(n).get(ranked) instanceof Number v) || v.doubleValue() != 0
                    || !(top.rows().get(n - 1).get(ranked) instanceof Number last) || last.doubleValue() != 0) {
                return sql;
            }
            String column = KgSql.ident(top.columns().get(ranked).name());
            Object none = ws.trustedQuery("SELECT count(*) FROM (" + sql.substring(0, m.start()) + ") AS ranked WHERE " + column
                    + " = 0", 1).scalar();
            throw new QueryBuilder.Unsupported(none + " " + groups + " are tied at 0, so no " + (n == 1 ? "one" : n) + " of them"
                    + " comes lowest but by name; ask for the lowest above 0, or for all those at 0");
        } catch (QueryException e) {
            return sql; // the check only spares an arbitrary pick; the query itself says what went wrong
        }
    }
}
