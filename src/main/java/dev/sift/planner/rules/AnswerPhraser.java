package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;
import dev.sift.text.ResultText;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The offline answer a person reads: one sentence with the result (or a sentence and the result rows), then how the
 * question was read ("'customers' → table client; 'Prague' → district.A2 = 'Hl.m. Praha' …") and the joins followed.
 * Columns are named by their knowledge-graph label ("region (district.A3)"), shares and rates are given as
 * percentages with one decimal (the share itself beside it), other decimals are rounded to four significant digits,
 * a top-1 answer states the value it was ranked by, and the codes in a result come with their meanings.
 */
public final class AnswerPhraser {
    private static final Map<String, String> AGG_WORDS = Map.of("sum", "total", "avg", "average", "median", "median",
            "min", "minimum", "max", "maximum");

    private AnswerPhraser() { }

    /** What the query computes, in words, before it runs (also the planner's thought). */
    public static String describe(QuerySpec s) {
        return describe(s, null);
    }

    /** What the query computes, naming columns by their knowledge-graph labels when a lexicon is given. */
    public static String describe(QuerySpec s, Lexicon lexicon) {
        String where = where(s.filters());
        String by = s.group() == null ? "" : ", by " + name(s.group(), lexicon);
        return switch (s.shape()) {
            case COUNT -> "Count the " + s.subject() + " rows" + where + by;
            case AGG -> "The " + AGG_WORDS.get(s.aggFn()) + " of " + name(s.measure(), lexicon) + where + by;
            case METRIC -> "The metric " + s.metric().name() + where + by;
            case SHARE -> "The percentage of " + s.subject() + " rows with " + s.share().describe();
            case TOP_GROUPS -> "The " + (s.descending() ? "top " : "bottom ") + s.limit() + " " + name(s.group(), lexicon)
                    + " by " + measure(s, lexicon) + where;
            case TOP_ROWS -> "The " + s.limit() + " " + s.subject() + " rows with the " + (s.descending() ? "highest " : "lowest ")
                    + name(s.measure(), lexicon) + where;
            case LIST -> "The " + s.subject() + " rows" + where;
        };
    }

    /** A column by its label: "region (district.A3)"; the plain name when the graph gives no label. */
    private static String name(Sense.Attr a, Lexicon lexicon) {
        Optional<String> label = lexicon == null ? Optional.empty() : lexicon.columnLabel(a);
        return label.map(l -> l + " (" + a.name() + ")").orElse(a.name());
    }

    private static String measure(QuerySpec s, Lexicon lexicon) {
        if (s.metric() != null) {
            return "metric " + s.metric().name();
        }
        if (s.aggFn() != null) {
            return AGG_WORDS.get(s.aggFn()) + " " + name(s.measure(), lexicon);
        }
        return "number of " + s.subject() + " rows";
    }

    private static String where(List<QuerySpec.Filter> filters) {
        return filters.isEmpty() ? "" : " where " + String.join(" and ", filters.stream().map(QuerySpec.Filter::describe).toList());
    }

    /** The final answer from the query's evidence. */
    public static String phrase(QuerySpec s, List<String> readings, List<KgEntry.Join> joins, Evidence e, Lexicon lexicon) {
        StringBuilder b = new StringBuilder();
        boolean scalar = e.rowCount() == 1 && e.rows().size() == 1 && e.columns().size() == 1;
        boolean topOne = s.limit() != null && s.limit() == 1 && e.rows().size() == 1 && e.columns().size() >= 2;
        if (scalar) {
            b.append(scalar(s, e.rows().get(0).get(0), lexicon));
        } else if (topOne) {
            List<Object> row = e.rows().get(0);
            String measure = s.shape() == QuerySpec.Shape.TOP_ROWS ? name(s.measure(), lexicon) : measure(s, lexicon);
            b.append(ResultText.cell(row.get(0))).append(" has the ").append(s.descending() ? "highest " : "lowest ")
                    .append(measure).append(where(s.filters())).append(": ").append(number(row.get(row.size() - 1)))
                    .append('.');
        } else {
            b.append(describe(s, lexicon)).append(":\n").append(EvidenceText.render(e));
            codes(s, e, lexicon).ifPresent(c -> b.append('\n').append(c));
        }
        b.append("\nRead as: ").append(readings.isEmpty() ? "(no mapped phrases)" : String.join("; ", readings));
        if (!joins.isEmpty()) {
            b.append("; joined along ").append(String.join(", ", joins.stream().map(j -> j.condition()
                    + (j.meaning() == null ? "" : " (" + j.meaning() + ")")).toList()));
        }
        return b.append('.').toString();
    }

    private static String scalar(QuerySpec s, Object value, Lexicon lexicon) {
        String v = number(value);
        return switch (s.shape()) {
            case COUNT -> "There " + (v.equals("1") ? "is 1 " + s.subject() + " row" : "are " + v + " " + s.subject() + " rows")
                    + where(s.filters()) + ".";
            case SHARE -> percent(value, 1) + " of " + s.subject() + " rows have " + s.share().describe() + ".";
            case METRIC -> describe(s, lexicon) + " is " + (isShare(s.metric()) ? percent(value, 100) + " (" + v + ")" : v)
                    + (s.metric().unit() == null ? "" : " (" + s.metric().unit() + ")") + ".";
            default -> describe(s, lexicon) + " is " + v + ".";
        };
    }

    /** A metric whose value is a share in [0, 1] ("default rate"), said as a percentage. */
    private static boolean isShare(KgEntry.Metric m) {
        return m.unit() != null && m.unit().toLowerCase(Locale.ROOT).startsWith("share");
    }

    /** {@code value × scale} as a percentage with one decimal ("11.1 %"). */
    private static String percent(Object value, int scale) {
        if (!(value instanceof Number n)) {
            return ResultText.cell(value) + " %";
        }
        return BigDecimal.valueOf(n.doubleValue() * scale).setScale(1, RoundingMode.HALF_UP).toPlainString() + " %";
    }

    /** A number as a person reads it: whole numbers as they are, other decimals to four significant digits. */
    static String number(Object value) {
        if (!(value instanceof Number n) || value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof java.math.BigInteger) {
            return ResultText.cell(value);
        }
        BigDecimal d = value instanceof BigDecimal bd ? bd : BigDecimal.valueOf(n.doubleValue());
        if (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0) {
            return d.stripTrailingZeros().toPlainString();
        }
        BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
        MathContext mc = new MathContext(Math.max(4, whole.precision() + (whole.signum() == 0 ? 0 : 2)), RoundingMode.HALF_UP);
        return d.round(mc).stripTrailingZeros().toPlainString();
    }

    /** The meanings of the codes of a coded column in the result ("A = finished contract, no problems"). */
    private static Optional<String> codes(QuerySpec s, Evidence e, Lexicon lexicon) {
        Sense.Attr coded = s.group();
        if (coded == null || lexicon == null || !coded.name().contains(".") || e.columns().isEmpty()) {
            return Optional.empty();
        }
        Optional<KgEntry.Column> col = lexicon.graph().column(coded.table(), coded.name().substring(coded.table().length() + 1));
        if (col.isEmpty() || col.get().codes().isEmpty()) {
            return Optional.empty();
        }
        Set<String> shown = new LinkedHashSet<>();
        e.rows().forEach(r -> shown.add(ResultText.cell(r.get(0))));
        List<String> meanings = new ArrayList<>();
        col.get().codes().forEach((code, meaning) -> {
            if (shown.contains(code)) {
                meanings.add(code + " = " + meaning);
            }
        });
        return meanings.isEmpty() ? Optional.empty() : Optional.of("Codes of " + coded.name() + ": " + String.join("; ", meanings) + ".");
    }
}
