package dev.sift.planner.rules;

import dev.sift.data.Numbers;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.ResultLabels;
import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;
import dev.sift.text.ResultText;

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
 * percentages, counts name what they count ("691 loans"), other numbers are written by {@link Numbers},
 * a top-1 answer states the value it was ranked by, and the codes in a result come with their meanings.
 */
public final class AnswerPhraser {
    private static final Map<String, String> AGG_WORDS = Map.of("sum", "total", "avg", "average", "median", "median",
            "min", "minimum", "max", "maximum", "distinct", "number of different values", "stddev_samp", "standard deviation (sample)", "range", "minimum and maximum");

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
            case SHARE -> "distinct".equals(s.aggFn()) ? "The percentage of the different " + name(s.measure(), lexicon) + " values"
                    + where + " with rows where " + s.shareSaid()
                    : s.measure() != null ? "The percentage of the total " + name(s.measure(), lexicon) + where
                    + " from rows with " + s.shareSaid() : "The percentage of " + s.subject() + " rows" + where + " with " + s.shareSaid();
            case TOP_GROUPS -> (s.limit() == null ? "Every " + name(s.group(), lexicon) + " ranked by " + measure(s, lexicon) + ", "
                    + (s.descending() ? "highest" : "lowest") + " first" : "The " + (s.descending() ? "top " : "bottom ") + s.limit() + " "
                    + name(s.group(), lexicon) + " by " + measure(s, lexicon)) + where;
            case TOP_ROWS -> "The " + s.limit() + " " + noun(s, lexicon, s.limit() != 1) + " with the "
                    + (s.measure().date() ? (s.descending() ? "latest " : "earliest ") : s.descending() ? "highest " : "lowest ")
                    + name(s.measure(), lexicon) + where;
            case LIST -> "The " + noun(s, lexicon, true) + where; // "The customers", never "The customers rows"
            case CHANGE, PERCENT_CHANGE -> "The " + (s.group() == null ? "" : "top " + s.limit() + " " + name(s.group(), lexicon) + " by ")
                    + (s.shape() == QuerySpec.Shape.PERCENT_CHANGE ? "percentage " : "")
                    + (s.descending() ? "change" : "fall") + " in the " + AGG_WORDS.get(s.aggFn()) + " of " + name(s.measure(), lexicon)
                    + where + " " + s.share().get(0).describe().replace("in ", "from ") + " " + s.share().get(1).describe().replace("in ", "to ");
            case PERIOD_TOTALS -> "The " + AGG_WORDS.get(s.aggFn()).replace("maximum", "largest").replace("minimum", "smallest")
                    + " of the " + Periods.each(s.group())
                    + " " + (s.measure() == null ? "numbers of " + noun(s, lexicon, true) : "totals of " + name(s.measure(), lexicon)) + where;
            case COLUMNS -> "The " + (s.distinct() ? "values of " : "") + String.join(" and ", s.columns().stream()
                    .map(c -> name(c, lexicon)).toList()) + (s.distinct() ? "" : " of the " + noun(s, lexicon, true)) + where;
        };
    }

    /** A column by its label: "region (district.A3)"; the plain name when the graph gives no label. */
    private static String name(Sense.Attr a, Lexicon lexicon) {
        Optional<String> label = lexicon == null ? Optional.empty() : lexicon.columnLabel(a);
        return label.map(l -> l + " (" + a.name() + ")").orElse(a.name());
    }

    private static String measure(QuerySpec s, Lexicon lexicon) {
        if (s.metric() != null) {
            return words(s.metric().name());
        }
        if (s.aggFn() != null) {
            return AGG_WORDS.get(s.aggFn()) + " " + name(s.measure(), lexicon);
        }
        return "number of " + noun(s, lexicon, true);
    }

    private static String where(List<QuerySpec.Filter> filters) {
        return filters.isEmpty() ? "" : " where " + String.join(" and ", filters.stream().map(QuerySpec.Filter::describe).toList());
    }

    /** The final answer from the query's evidence. */
    public static String phrase(QuerySpec s, List<String> readings, List<KgEntry.Join> joins, Evidence e, Lexicon lexicon) {
        return phrase(s, readings, joins, e, lexicon, List.of());
    }

    /** The final answer, with the notes on its groups ({@link GroupNotes}) after the result. */
    public static String phrase(QuerySpec s, List<String> readings, List<KgEntry.Join> joins, Evidence e, Lexicon lexicon,
                                List<String> notes) {
        StringBuilder b = new StringBuilder();
        boolean scalar = e.rowCount() == 1 && e.rows().size() == 1 && e.columns().size() == 1;
        boolean topOne = s.limit() != null && s.limit() == 1 && e.rows().size() == 1 && e.columns().size() >= 2;
        if (scalar) {
            b.append(scalar(s, e, lexicon));
        } else if ((s.shape() == QuerySpec.Shape.CHANGE || s.shape() == QuerySpec.Shape.PERCENT_CHANGE) && s.group() != null) {
            List<Object> row = e.rows().get(0); // "Source Wind had the largest rise …: 19,000, from 1,000 in 2001 to 20,000 in 2017."
            b.append(capitalize(label(s.group(), lexicon))).append(' ').append(ResultText.cell(row.get(0))).append(" had the largest ")
                    .append(s.shape() == QuerySpec.Shape.PERCENT_CHANGE ? "percentage " : "").append(s.descending() ? "rise" : "fall")
                    .append(" in the ").append(AGG_WORDS.get(s.aggFn())).append(" of ").append(name(s.measure(), lexicon)).append(": ")
                    .append(s.shape() == QuerySpec.Shape.CHANGE ? number(e, 1, row.get(1)) : percent(row.get(1), 100)).append(", from ")
                    .append(number(e, 2, row.get(2))).append(' ').append(s.share().get(0).describe()).append(" to ")
                    .append(number(e, 3, row.get(3))).append(' ').append(s.share().get(1).describe()).append('.');
            if (e.rows().size() > 1) {
                b.append('\n').append(describe(s, lexicon)).append(":\n").append(EvidenceText.render(e));
            }
        } else if (s.shape() == QuerySpec.Shape.CHANGE || s.shape() == QuerySpec.Shape.PERCENT_CHANGE) {
            List<Object> row = e.rows().get(0);
            b.append(describe(s, lexicon)).append(" is ").append(s.shape() == QuerySpec.Shape.CHANGE ? number(e, 0, row.get(0))
                    : percent(row.get(0), 100)).append(": from ").append(number(e, 1, row.get(1))).append(" ")
                    .append(s.share().get(0).describe()).append(" to ").append(number(e, 2, row.get(2))).append(" ")
                    .append(s.share().get(1).describe()).append('.');
        } else if (s.shape() == QuerySpec.Shape.PERIOD_TOTALS && e.rows().size() == 1) { // "… is 4,321.5 (over 17 years, 2001 to 2017)."
            List<Object> row = e.rows().get(0);
            b.append(describe(s, lexicon)).append(" is ").append(number(e, 0, row.get(0)));
            b.append(row.size() == 2 ? ", in " + e.columns().get(1) + " " + ResultText.cell(row.get(1)) + "." : " (over "
                    + ResultText.cell(row.get(1)) + " " + e.columns().get(1) + ", " + ResultText.cell(row.get(2)) + " to "
                    + ResultText.cell(row.get(3)) + ").");
        } else if (topOne) {
            b.append(topOne(s, e, lexicon));
        } else {
            b.append(describe(s, lexicon)).append(":\n").append(EvidenceText.render(e));
            codes(s, e, lexicon).ifPresent(c -> b.append('\n').append(c));
        }
        notes.forEach(n -> b.append('\n').append(n));
        return b.append(readAs(readings, joins)).toString();
    }

    /**
     * A comparison of two alternatives: which wins, by how much against the other, and what each number is ("Toys has
     * more orders: 120, against 80 for Books.").
     */
    public static String compare(Comparison.Plan p, List<String> readings, List<KgEntry.Join> joins, Evidence e, Lexicon lexicon) {
        List<Object> row = e.rows().get(0);
        String winner = ResultText.cell(row.get(0));
        String va = number(e, 1, row.get(1));
        String vb = number(e, 2, row.get(2));
        Comparison.Sides s = p.sides();
        boolean a = winner.equals(s.labelA());
        boolean decided = a || winner.equals(s.labelB());
        String what = p.a().shape() == QuerySpec.Shape.COUNT ? s.word() + " " + noun(p.a(), lexicon, true) : "the " + s.word() + " value";
        String shownA = said(s.labelA(), s.shownA());
        String shownB = said(s.labelB(), s.shownB());
        StringBuilder b = new StringBuilder(decided ? capitalize(a ? shownA : shownB) + " has " + what + ": " + (a ? va : vb)
                + ", against " + (a ? vb : va) + " for " + (a ? shownB : shownA) + "." : capitalize(winner) + " (" + shownA + ": "
                + va + ", " + shownB + ": " + vb + ").");
        b.append("\nCompared: ").append(shownA).append(": ").append(lower(describe(p.a(), lexicon))).append(" = ").append(va)
                .append("; ").append(shownB).append(": ").append(lower(describe(p.b(), lexicon))).append(" = ").append(vb).append('.');
        return b.append(readAs(readings, joins)).toString();
    }

    /** An alternative as the result names it, with the person's words when they differ ("Hl.m. Praha ('Prague')"). */
    private static String said(String label, String shown) {
        return label.equalsIgnoreCase(shown) || shown.matches("(?i)(in |during )?" + java.util.regex.Pattern.quote(label)) ? label
                : label + " ('" + shown + "')";
    }

    private static String lower(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /** The "Read as" line: how the question's phrases were read, and the joins followed. */
    private static String readAs(List<String> readings, List<KgEntry.Join> joins) {
        StringBuilder b = new StringBuilder("\nRead as: ").append(readings.isEmpty() ? "(no mapped phrases)" : String.join("; ", readings));
        if (!joins.isEmpty()) {
            b.append("; joined along ").append(String.join(", ", joins.stream().map(j -> j.condition()
                    + (j.meaning() == null ? "" : " (" + j.meaning() + ")")).toList()));
        }
        return b.append('.').toString();
    }

    /**
     * The winner of a top-1 ranking as a person says it: what it is and its name, then what it was ranked by, in
     * words, with the value ("District Hl.m. Praha has the most clients: 596.", "Loan 5060 has the highest loan
     * amount: 600,000."). Columns go by their label here; the "read as" line that follows names them.
     */
    private static String topOne(QuerySpec s, Evidence e, Lexicon lexicon) {
        List<Object> row = e.rows().get(0);
        String ranked;
        if (s.shape() == QuerySpec.Shape.TOP_ROWS) {
            ranked = label(s.measure(), lexicon);
        } else if (s.metric() != null) {
            ranked = words(s.metric().name());
        } else if (s.aggFn() != null) {
            String label = label(s.measure(), lexicon);
            String agg = AGG_WORDS.get(s.aggFn());
            boolean extreme = s.aggFn().equals(s.descending() ? "max" : "min"); // "the highest loan amount", not "highest maximum"
            ranked = extreme || label.startsWith(agg + " ") ? label : agg + " " + label; // never "average average salary"
        } else {
            ranked = noun(s, lexicon, true);
        }
        boolean count = s.shape() == QuerySpec.Shape.TOP_GROUPS && s.metric() == null && s.aggFn() == null;
        boolean dated = s.measure() != null && s.measure().date() && s.aggFn() == null; // "the latest Coverage End Date"
        String order = count ? (s.descending() ? "the most " : "the fewest ") : dated ? (s.descending() ? "the latest " : "the earliest ")
                : (s.descending() ? "the highest " : "the lowest ");
        String named = capitalize(entity(s, lexicon)) + " " + ResultText.cell(row.get(0));
        if (s.shape() == QuerySpec.Shape.TOP_ROWS && !s.columns().isEmpty()) { // "The country Rwanda and year 1992"
            named = "The " + String.join(" and ", java.util.stream.IntStream.range(0, s.columns().size())
                    .mapToObj(k -> label(s.columns().get(k), lexicon) + " " + ResultText.cell(row.get(k))).toList());
        }
        return named + " has " + order + ranked
                + where(s.filters()) + ": " + number(e, row.size() - 1, row.get(row.size() - 1)) + ".";
    }

    /**
     * What the ranked rows are: the subject's rows ("loan"), the table a group names by its label or key ("district"
     * for district.A2), else the grouping column's label ("region", "status").
     */
    static String entity(QuerySpec s, Lexicon lexicon) {
        Sense.Attr g = s.group();
        if (s.shape() == QuerySpec.Shape.TOP_ROWS || g == null) {
            return noun(s, lexicon, false);
        }
        if (lexicon != null && !g.date() && (lexicon.label(g.table()).filter(g::equals).isPresent()
                || lexicon.nameColumn(g.table()).filter(g::equals).isPresent()
                || lexicon.key(g.table()).filter(k -> k.qualified().equals(g.name())).isPresent())) {
            return lexicon.graph().table(g.table()).map(KgEntry.Table::singular).orElse(g.table());
        }
        return label(g, lexicon);
    }

    /** A column as a person names it: its knowledge-graph label ("average salary"), else its name in words. */
    private static String label(Sense.Attr a, Lexicon lexicon) {
        if (lexicon == null || !a.name().startsWith(a.table() + ".")) {
            return words(a.name());
        }
        return ResultLabels.columnOrName(lexicon.graph(), a.table(), a.name().substring(a.table().length() + 1));
    }

    /** An entry's name in words: "default_rate" → "default rate". */
    private static String words(String name) {
        return name.replace('_', ' ');
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String scalar(QuerySpec s, Evidence e, Lexicon lexicon) {
        Object value = e.rows().get(0).get(0);
        String v = number(e, 0, value);
        return switch (s.shape()) {
            case COUNT -> "There " + (value instanceof Number n && n.longValue() == 1 && v.equals("1") ? "is 1 " + noun(s, lexicon, false)
                    : "are " + v + " " + noun(s, lexicon, true)) + where(s.filters()) + ".";
            case SHARE -> "distinct".equals(s.aggFn()) ? percent(value, 100) + " of the different " + name(s.measure(), lexicon)
                    + " values" + where(s.filters()) + " have rows where " + s.shareSaid() + "."
                    : s.measure() != null ? percent(value, 100) + " of the total " + name(s.measure(), lexicon)
                    + where(s.filters()) + " comes from rows with " + s.shareSaid() + "."
                    : percent(value, 100) + " of " + noun(s, lexicon, true) + where(s.filters()) + " have " + s.shareSaid() + ".";
            case METRIC -> describe(s, lexicon) + " is " + (isShare(s.metric()) ? percent(value, 1)
                    : v + (s.metric().unit() == null ? "" : " (" + s.metric().unit() + ")")) + ".";
            case COLUMNS -> capitalize(label(s.columns().get(0), lexicon)) + " of " + rowsNamed(s, lexicon) + ": " + v
                    + meaning(s.columns().get(0), value, lexicon) + ".";
            default -> describe(s, lexicon) + " is " + v + ".";
        };
    }

    /** The rows a lookup is of: "client 3541" when its id names one, else "the clients where …". */
    private static String rowsNamed(QuerySpec s, Lexicon lexicon) {
        Optional<String> key = lexicon == null ? Optional.empty() : lexicon.key(s.subject())
                .map(k -> dev.sift.knowledge.KgSql.column(s.subject(), k.name()) + " = ");
        for (QuerySpec.Filter f : s.filters()) {
            if (key.isPresent() && f.sql().startsWith(key.get()) && s.filters().size() == 1) {
                return noun(s, lexicon, false) + " " + f.sql().substring(key.get().length()).replace("'", "");
            }
        }
        return "the " + noun(s, lexicon, true) + where(s.filters());
    }

    /** " (male)" after a code of a coded column, else nothing. */
    private static String meaning(Sense.Attr a, Object value, Lexicon lexicon) {
        if (lexicon == null || value == null || !a.name().startsWith(a.table() + ".")) {
            return "";
        }
        return lexicon.graph().column(a.table(), a.name().substring(a.table().length() + 1)).map(c -> c.codes().get(value.toString()))
                .map(m -> " (" + m + ")").orElse("");
    }

    /** What the subject's rows are called: "loans", "transactions" (the graph's table synonyms). */
    static String noun(QuerySpec s, Lexicon lexicon, boolean plural) {
        String rows = s.subject() + (plural ? " rows" : " row"); // 12,360 species rows are not 12,360 species (TableNouns)
        return lexicon == null || TableNouns.things(lexicon, s.subject()).isPresent() ? rows : lexicon.graph().table(s.subject())
                .map(t -> plural ? t.plural() : t.singular()).orElse(rows);
    }

    /** A metric whose value is a share in [0, 1] ("default rate"), said as a percentage. */
    private static boolean isShare(KgEntry.Metric m) {
        return m.unit() != null && m.unit().toLowerCase(Locale.ROOT).startsWith("share");
    }

    /** A share as a percentage ("11.1%", "2.24%"); {@code per} is 1 for a share in [0, 1], 100 for one in percent. */
    private static String percent(Object value, int per) {
        return value instanceof Number n ? Numbers.percent(n.doubleValue() / per) : ResultText.cell(value) + "%";
    }

    /** A value of column {@code col} of the result, written as for people ({@link Numbers}). */
    static String number(Evidence e, int col, Object value) {
        List<Object> values = e.rows().stream().map(r -> r.get(col)).toList();
        return Numbers.format(value, Numbers.kindOf(e.columns().get(col), values));
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
