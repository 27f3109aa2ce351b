package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;
import dev.sift.text.ResultText;

import java.util.List;
import java.util.Map;

/**
 * The offline answer: one sentence with the result (or a sentence and the result rows), then how the question
 * was read ("'customers' → table client; 'Prague' → district.A2 = 'Hl.m. Praha' …") and the joins followed.
 */
public final class AnswerPhraser {
    private static final Map<String, String> AGG_WORDS = Map.of("sum", "total", "avg", "average", "median", "median",
            "min", "minimum", "max", "maximum");

    private AnswerPhraser() { }

    /** What the query computes, in words, before it runs (also the planner's thought). */
    public static String describe(QuerySpec s) {
        String where = where(s.filters());
        return switch (s.shape()) {
            case COUNT -> "Count the " + s.subject() + " rows" + where
                    + (s.group() == null ? "" : ", by " + s.group().name());
            case AGG -> "The " + AGG_WORDS.get(s.aggFn()) + " of " + s.measure().name() + where
                    + (s.group() == null ? "" : ", by " + s.group().name());
            case METRIC -> "The metric " + s.metric().name() + where + (s.group() == null ? "" : ", by " + s.group().name());
            case SHARE -> "The percentage of " + s.subject() + " rows with " + s.share().describe();
            case TOP_GROUPS -> "The " + (s.descending() ? "top " : "bottom ") + s.limit() + " " + s.group().name() + " by "
                    + measure(s) + where;
            case TOP_ROWS -> "The " + s.limit() + " " + s.subject() + " rows with the " + (s.descending() ? "highest " : "lowest ")
                    + s.measure().name() + where;
            case LIST -> "The " + s.subject() + " rows" + where;
        };
    }

    private static String measure(QuerySpec s) {
        if (s.metric() != null) {
            return "metric " + s.metric().name();
        }
        if (s.aggFn() != null) {
            return AGG_WORDS.get(s.aggFn()) + " " + s.measure().name();
        }
        return "number of " + s.subject() + " rows";
    }

    private static String where(List<QuerySpec.Filter> filters) {
        return filters.isEmpty() ? "" : " where " + String.join(" and ", filters.stream().map(QuerySpec.Filter::describe).toList());
    }

    /** The final answer from the query's evidence. */
    public static String phrase(QuerySpec s, List<String> readings, List<KgEntry.Join> joins, Evidence e) {
        StringBuilder b = new StringBuilder();
        boolean scalar = e.rowCount() == 1 && e.rows().size() == 1 && e.columns().size() == 1;
        if (scalar) {
            String v = ResultText.cell(e.rows().get(0).get(0));
            b.append(switch (s.shape()) {
                case COUNT -> "There " + (v.equals("1") ? "is 1 " + s.subject() + " row" : "are " + v + " " + s.subject() + " rows")
                        + where(s.filters()) + ".";
                case SHARE -> v + " % of " + s.subject() + " rows have " + s.share().describe() + ".";
                case METRIC -> describe(s) + " is " + v + (s.metric().unit() == null ? "" : " (" + s.metric().unit() + ")") + ".";
                default -> describe(s) + " is " + v + ".";
            });
        } else {
            b.append(describe(s)).append(":\n").append(EvidenceText.render(e));
        }
        b.append("\nRead as: ").append(readings.isEmpty() ? "(no mapped phrases)" : String.join("; ", readings));
        if (!joins.isEmpty()) {
            b.append("; joined along ").append(String.join(", ", joins.stream().map(j -> j.condition()
                    + (j.meaning() == null ? "" : " (" + j.meaning() + ")")).toList()));
        }
        return b.append('.').toString();
    }
}
