package dev.sift.planner.rules;

import dev.sift.knowledge.KgSql;

/** The SQL of the two shapes over periods: a total per period summarised, and the change between two years. */
final class PeriodQueries {
    private PeriodQueries() { }

    /**
     * The average (or median) of each period's total, with how many periods there were and the first and last, so the
     * answer says what was averaged (periods with no row are not in it); the largest (smallest) total with its period.
     */
    static String periodTotals(QuerySpec s, QueryBuilder.From f) throws QueryBuilder.Unsupported {
        if (f.fans()) {
            throw new QueryBuilder.Unsupported("a total per period across a join may count rows more than once");
        }
        String total = s.measure() == null ? f.count() : "sum(" + s.measure().sql() + ")";
        String per = Periods.word(s.group());
        String name = s.aggFn() + "_" + Periods.each(s.group()).replace("-", "_") + "_" + (s.measure() == null ? "count" : QueryBuilder.alias(s.measure()));
        String totals = " FROM (SELECT " + s.group().sql() + " AS period, " + total + " AS total FROM " + f.sql()
                + (f.where().isEmpty() ? " WHERE " : f.where() + " AND ") + s.group().sql() + " IS NOT NULL GROUP BY 1) AS totals";
        if (s.aggFn().equals("max") || s.aggFn().equals("min")) { // the figure asked first, then its period
            return "SELECT total AS " + KgSql.ident(name) + ", period AS " + per + totals + " WHERE total IS NOT NULL ORDER BY total "
                    + (s.aggFn().equals("max") ? "DESC" : "ASC") + ", period LIMIT 1";
        }
        return "SELECT " + s.aggFn() + "(total) AS " + KgSql.ident(name) + ", count(*) AS " + per + "s, min(period) AS first_" + per
                + ", max(period) AS last_" + per + totals;
    }

    /** The measure in the second year against the first: the change (a fall for "drop"), or its percentage. */
    static String change(QuerySpec s, QueryBuilder.From f) throws QueryBuilder.Unsupported {
        if (f.fans()) {
            throw new QueryBuilder.Unsupported("a change across a join may count rows more than once");
        }
        String first = s.aggFn() + "(" + s.measure().sql() + ") FILTER (WHERE " + s.share().get(0).sql() + ")";
        String last = s.aggFn() + "(" + s.measure().sql() + ") FILTER (WHERE " + s.share().get(1).sql() + ")";
        String from = s.descending() ? first : last;
        String to = s.descending() ? last : first;
        String asked = s.shape() == QuerySpec.Shape.PERCENT_CHANGE ? "100.0 * (" + to + " - " + from + ") / " + first
                + " AS percent_" + (s.descending() ? "change" : "fall") : to + " - " + from + " AS " + (s.descending() ? "change" : "fall");
        String figures = asked + ", " + first + " AS " + dev.sift.data.Sql.quoteIdent(s.share().get(0).describe()) + ", " + last + " AS "
                + dev.sift.data.Sql.quoteIdent(s.share().get(1).describe()) + " FROM " + f.sql() + f.where();
        if (s.group() == null) {
            return "SELECT " + figures;
        }
        String g = s.group().sql(); // "which source grew the most": each group's change, the largest first
        return "SELECT " + g + " AS " + KgSql.ident(s.group().column()) + ", " + figures
                + " GROUP BY 1 HAVING " + g + " IS NOT NULL AND " + first + " IS NOT NULL AND " + last + " IS NOT NULL ORDER BY 2 DESC, 1"
                + " LIMIT " + s.limit();
    }
}
