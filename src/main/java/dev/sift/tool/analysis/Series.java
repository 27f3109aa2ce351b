package dev.sift.tool.analysis;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A measure aggregated per calendar period (day … year) in SQL, with empty periods filled (0 for count and
 * sum, missing for the others) and the first/last period flagged when the data covers it only in part
 * (unless every date is a period start, as in data recorded once per period).
 */
record Series(String sql, String measureLabel, Grain grain, List<String> periods, double[] values,
              boolean firstPartial, boolean lastPartial) {
    static final int MAX_PERIODS = 5000;
    static final Set<String> AGGS = Set.of("sum", "avg", "count", "min", "max", "median");

    enum Grain {
        DAY(7), WEEK(52), MONTH(12), QUARTER(4), YEAR(0);

        /** The usual season length at this grain (0: none). */
        final int season;

        Grain(int season) {
            this.season = season;
        }

        String sql() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Grain parse(String s) {
            if (s == null) {
                return MONTH;
            }
            String g = s.trim().toLowerCase(Locale.ROOT);
            for (Grain v : values()) {
                if (g.equals(v.sql()) || g.equals(v.sql() + "s") || g.equals(v.adjective())) {
                    return v;
                }
            }
            throw new IllegalArgumentException("grain must be one of day, week, month, quarter, year; got '" + s + "'.");
        }

        String adjective() {
            return this == DAY ? "daily" : sql() + "ly";
        }
    }

    /** Checks the measure/aggregate pair; returns an error text for the planner, or null when valid. */
    static String check(TableInfo t, ColumnInfo date, ColumnInfo measure, String agg) {
        if (!Columns.temporal(date)) {
            return "Column " + t.name() + "." + date.name() + " is " + date.type() + ", not a DATE or TIMESTAMP. Date columns of "
                    + t.name() + ": " + dateColumns(t) + (Columns.text(date) ? ". To use text dates, make a date column"
                    + " first with transform_column, e.g. expression \"strptime(" + date.name() + ", '%d.%m.%Y')::DATE\"." : ".");
        }
        if (!AGGS.contains(agg)) {
            return "agg must be one of sum, avg, count, min, max, median; got '" + agg + "'.";
        }
        if (measure == null && !agg.equals("count")) {
            return "agg '" + agg + "' needs a measure column; omit agg (or use agg 'count') to count rows.";
        }
        if (measure != null && !agg.equals("count") && !Columns.numeric(measure)) {
            return "Column " + t.name() + "." + measure.name() + " is " + measure.type() + ", not numeric, so it cannot be "
                    + agg + "-aggregated. Numeric columns of " + t.name() + ": " + numericColumns(t)
                    + ". Use agg 'count' to count its non-null values.";
        }
        return null;
    }

    static String dateColumns(TableInfo t) {
        List<String> d = t.columns().stream().filter(Columns::temporal).map(ColumnInfo::name).toList();
        return d.isEmpty() ? "none" : String.join(", ", d);
    }

    static String numericColumns(TableInfo t) {
        List<String> d = t.columns().stream().filter(Columns::numeric).map(ColumnInfo::name).toList();
        return d.isEmpty() ? "none" : String.join(", ", d);
    }

    /** The measure in the knowledge graph's words, for charts: "total loan amount (CZK)", "number of loans". */
    static String measured(dev.sift.tool.ToolContext ctx, TableInfo t, ColumnInfo measure, String agg) {
        return dev.sift.knowledge.ResultLabels.measure(ctx.knowledge().graph(), t.name(),
                measure == null ? null : measure.name(), agg == null ? "sum" : agg);
    }

    static String label(ColumnInfo measure, String agg) {
        return measure == null ? "count of rows" : agg + "(" + measure.name() + ")";
    }

    static Series load(Workspace ws, TableInfo t, ColumnInfo date, ColumnInfo measure, String agg, Grain grain)
            throws QueryException {
        String d = "CAST(" + Columns.q(date.name()) + " AS DATE)";
        String value = measure == null ? "count(*)" : agg + "(" + Columns.q(measure.name()) + ")";
        String fill = agg.equals("count") || agg.equals("sum") ? "coalesce(s.value, 0)" : "s.value";
        String g = grain.sql();
        String sql = "WITH s AS (SELECT CAST(date_trunc('" + g + "', " + d + ") AS DATE) AS period, CAST(" + value
                + " AS DOUBLE) AS value FROM " + t.sqlName() + " WHERE " + Columns.q(date.name()) + " IS NOT NULL GROUP BY 1),"
                + " b AS (SELECT min(period) AS lo, max(period) AS hi FROM s)"
                + " SELECT CAST(p.period AS DATE) AS period, " + fill + " AS value FROM"
                + " (SELECT unnest(generate_series(lo, hi, INTERVAL 1 " + g + ")) AS period FROM b) p"
                + " LEFT JOIN s ON s.period = CAST(p.period AS DATE) ORDER BY 1";
        QueryResult span = ws.trustedQuery("SELECT count(DISTINCT date_trunc('" + g + "', " + d + ")), min(" + d + ") > min(date_trunc('"
                + g + "', " + d + ")), max(" + d + ") < max(CAST(date_trunc('" + g + "', " + d + ") + INTERVAL 1 " + g
                + " - INTERVAL 1 day AS DATE)), bool_and(" + d + " = CAST(date_trunc('" + g + "', " + d + ") AS DATE)) FROM "
                + t.sqlName(), 1);
        long distinct = ((Number) span.rows().get(0).get(0)).longValue();
        if (distinct == 0) {
            throw new QueryException(QueryException.Kind.INVALID, "Column " + t.name() + "." + date.name()
                    + " has no non-null dates, so there is no series to analyse.");
        }
        QueryResult r = ws.trustedQuery(sql, MAX_PERIODS + 1);
        if (r.rows().size() > MAX_PERIODS) {
            throw new QueryException(QueryException.Kind.INVALID, "The " + grain.adjective() + " series of " + t.name() + "."
                    + date.name() + " has more than " + MAX_PERIODS + " periods; use a coarser grain (week, month, quarter or year).");
        }
        List<String> periods = new ArrayList<>();
        double[] values = new double[r.rows().size()];
        for (int i = 0; i < r.rows().size(); i++) {
            periods.add(String.valueOf(r.rows().get(i).get(0)));
            values[i] = Columns.toDouble(r.rows().get(i).get(1));
        }
        // data stamped at period starts (one date per month, say) is whole periods, not partial ones
        boolean partial = grain != Grain.DAY && !Boolean.TRUE.equals(span.rows().get(0).get(3));
        return new Series(sql, label(measure, agg), grain, periods, values,
                partial && Boolean.TRUE.equals(span.rows().get(0).get(1)),
                partial && Boolean.TRUE.equals(span.rows().get(0).get(2)));
    }

    /** Indexes of complete periods with a value (partial edge periods and empty averages left out). */
    int[] usable() {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            boolean edge = (i == 0 && firstPartial) || (i == values.length - 1 && lastPartial);
            if (!edge && !Double.isNaN(values[i])) {
                idx.add(i);
            }
        }
        return idx.stream().mapToInt(Integer::intValue).toArray();
    }
}
