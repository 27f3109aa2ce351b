package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;

import java.util.List;

/**
 * A typed query, the parser's output and the {@link QueryBuilder}'s input.
 *
 * @param shape    what is computed
 * @param subject  the table whose rows are counted, aggregated or listed (the grain)
 * @param aggFn    sum, avg, min, max or median for {@link Shape#AGG} (and {@link Shape#TOP_GROUPS} over a column)
 * @param measure  the aggregated column ({@link Shape#AGG}, {@link Shape#TOP_GROUPS}) or the ordering column ({@link Shape#TOP_ROWS})
 * @param metric   the knowledge graph metric for {@link Shape#METRIC} (and {@link Shape#TOP_GROUPS} by a metric)
 * @param group    what rows are grouped by, or null; for {@link Shape#COLUMNS}, the listed column each row is one of ("the
 *                 share of each species in county 06037"), checked on the data to have one row each
 * @param filters  conditions, all ANDed
 * @param links    the joins the query needs, as table pairs (a forced join when the question named one)
 * @param limit    top/bottom N, or null
 * @param descending order of top N
 * @param share    the conditions whose share of the subject's rows {@link Shape#SHARE} computes (the filters say which rows
 *                 the share is of)
 * @param columns  the columns {@link Shape#COLUMNS} lists, in the question's order
 * @param distinct whether {@link Shape#COLUMNS} lists the columns' distinct values (the question names no rows: "list
 *                 all regions") rather than one line per row
 */
public record QuerySpec(Shape shape, String subject, String aggFn, Sense.Attr measure, KgEntry.Metric metric,
                        Sense.Attr group, List<Filter> filters, List<Link> links, Integer limit, boolean descending,
                        List<Filter> share, List<Sense.Attr> columns, boolean distinct) {

    /**
     * {@link #CHANGE} and {@link #PERCENT_CHANGE}: the aggregate of the measure in the second period less that in the
     * first (the first less the second for a fall), the two periods' conditions in {@code share}. {@link #PERIOD_TOTALS}:
     * the average (or median) over the periods of {@code group} of each one's total of the measure (rows counted without
     * one): "the average yearly generation".
     */
    public enum Shape { COUNT, AGG, METRIC, SHARE, TOP_GROUPS, TOP_ROWS, LIST, COLUMNS, CHANGE, PERCENT_CHANGE, PERIOD_TOTALS }

    /** The share's conditions in words ("client.gender = 'F' and …"). */
    public String shareSaid() {
        return String.join(" and ", share.stream().map(Filter::describe).toList());
    }

    /** One condition on {@code table} ({@code sql} uses qualified column names) and how the answer describes it. */
    public record Filter(String table, String sql, String describe) { }

    /** Tables {@code from} and {@code to} must be joined, along {@code via} when the question named the join. */
    public record Link(String from, String to, KgEntry.Join via) { }
}
