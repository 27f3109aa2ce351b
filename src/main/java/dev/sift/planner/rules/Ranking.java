package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;

/**
 * A ranking the question asks for: "top 5", "the 3 largest", "which 2 regions … most", "which district has the
 * highest …" (an implicit top 1). What is ranked ({@link Target}) and by what ({@link Order}) are found while the
 * question is read.
 */
final class Ranking {
    private static final Vocabulary V = Vocabulary.WORDS;

    /** What the ranking lists: rows of a table (named by its label) or the values of a column. */
    sealed interface Target {
        record Rows(String table, Tok tok) implements Target { }

        record Values(Sense.Attr attr) implements Target { }
    }

    /** What the ranking orders by: the number of a table's rows, a metric, or a column. */
    sealed interface Order {
        record ByCount(String table) implements Order { }

        record ByMetric(KgEntry.Metric metric) implements Order { }

        record ByColumn(Sense.Attr attr) implements Order { }
    }

    final int n;
    final boolean implicitOne;
    /** The first token that may name the target. */
    final int start;
    final boolean descending;
    Target target;
    Order order;
    /** The columns stated with each ranked row when the question asks for two of them ("which country and year …"). */
    final List<Sense.Attr> shown = new java.util.ArrayList<>();
    /** Whether {@link #shown} only says which row is which ({@link #describe}), not columns the question asked for. */
    boolean described;

    private Ranking(int n, boolean implicitOne, int start, boolean descending) {
        this.n = n;
        this.implicitOne = implicitOne;
        this.start = start;
        this.descending = descending;
    }

    /** The one top (or bottom) value of a ranking the question asks without a number. */
    static Ranking one(boolean descending) {
        return new Ranking(1, true, 1, descending);
    }

    /** "the 1995 budget": a year before one thing (a singular noun), not the top 1995 of them. */
    private static boolean yearOfOne(List<Tok> t, int i) {
        return t.get(i).word().matches("[12]\\d{3}") && i > 0 && t.get(i - 1).is("the") && i + 1 < t.size()
                && !t.get(i + 1).text().toLowerCase(java.util.Locale.ROOT).endsWith("s");
    }

    /** The ranking of the question, or null when it asks for none. */
    static Ranking detect(List<Tok> t) {
        Integer n = null;
        int start = -1;
        boolean bottom = false;
        for (int i = 0; i < t.size() && n == null; i++) {
            Tok k = t.get(i);
            boolean before = i > 0 && t.get(i - 1).is("top", "bottom", "which", "the", "first");
            boolean after = i + 1 < t.size() && extreme(t.get(i + 1));
            if (k.number() && (before || after) && !yearOfOne(t, i)) {
                n = Integer.parseInt(k.word());
                start = i + 1;
                bottom = i > 0 && t.get(i - 1).is("bottom");
            }
        }
        boolean implicit = false;
        boolean priced = t.stream().anyMatch(k -> k.plain() && V.has(k.word(), "price_words"));
        if (n == null && !t.isEmpty() && (t.get(0).is("which") || priced && t.get(0).is("what") || whatTable(t))
                && t.stream().anyMatch(Ranking::extreme)) {
            n = 1;
            implicit = true;
            start = 1;
        }
        if (n == null) {
            return null;
        }
        boolean desc = !bottom;
        for (int i = start; i < t.size(); i++) {
            if (t.get(i).plain() && V.has(t.get(i).word(), "price_words", "time_extremes")) {
                String list = V.has(t.get(i).word(), "price_words") ? "price_words" : "time_extremes";
                desc = bottom != "desc".equals(V.map(list).get(t.get(i).word()));
                break;
            }
            if (t.get(i).plain() && V.has(t.get(i).word(), "ascending")) {
                desc = false;
                break;
            }
            if (t.get(i).plain() && V.has(t.get(i).word(), "descending")) {
                break;
            }
        }
        return new Ranking(n, implicit, start, desc);
    }

    /**
     * "what district has …", "what is the district with …": a table right after "what" (and "is the") that the rest of
     * the question describes — not "what is the loans' median amount", whose table qualifies a value.
     */
    static boolean whatTable(List<Tok> t) {
        int j = 1;
        while (j < t.size() && t.get(j).is("is", "was", "are", "were", "the")) {
            j++;
        }
        return t.get(0).is("what") && j + 1 < t.size() && t.get(j).sense() instanceof Sense.Entity
                && t.get(j + 1).is("with", "that", "which", "who", "whose", "has", "had", "have", "having", "where");
    }

    /** A word that ranks by a date ("latest", "earliest"). */
    static boolean inTime(Tok k) {
        return k.plain() && V.has(k.word(), "time_extremes");
    }

    static boolean extreme(Tok k) {
        return k.plain() && V.has(k.word(), "descending", "ascending", "price_words", "time_extremes");
    }

    /**
     * "Who has the most debt?", "Who spent the least?", "Whose ending cash is the highest?": in a dataset of one table
     * with a name column, "who" or "whose" with an extreme ranks that table's rows, named by it, as "which candidate …" does.
     */
    static void who(ParseState w, Lexicon lexicon) {
        if (w.ranking != null || w.toks.size() < 2 || !w.toks.get(0).is("who", "whose") || lexicon.graph().tables().size() != 1
                || w.head.size() > 0 || w.toks.stream().anyMatch(k -> k.sense() instanceof Sense.Entity)) { // "who is the candidate …"
            return;
        }
        String table = lexicon.graph().tables().get(0).name();
        List<Tok> asWhich = new java.util.ArrayList<>(w.toks);
        asWhich.set(0, new Tok("which", List.of("which"), null));
        Ranking r = lexicon.nameColumn(table).isPresent() ? detect(asWhich) : null;
        if (r != null) {
            r.target = new Target.Rows(table, null);
            w.ranking = r;
            w.subjectOrAttach(table);
        }
    }

    /**
     * Whether column {@code a} at token {@code i} is only shown with the rows ranked: the column ranked by, said again, or
     * one listed after "with their" ("the 5 biggest quakes with their place and magnitude"), which is added to those shown.
     */
    static boolean shownWith(ParseState w, int i, Sense.Attr a) {
        int k = i - 1;
        while (k >= 0 && (w.toks.get(k).sense() instanceof Sense.Attr || w.toks.get(k).is("and", "the"))) {
            k--;
        }
        boolean listed = k >= 1 && w.toks.get(k).is("their", "its") && w.toks.get(k - 1).is("with");
        if (listed && !w.ranking.shown.contains(a) && !(w.ranking.order instanceof Order.ByColumn c && c.attr().equals(a))) {
            w.ranking.shown.add(a);
        }
        return listed || w.ranking.order instanceof Order.ByColumn c && c.attr().equals(a);
    }

    /** Whether "by" names the column already ranked by ("the most significant event by sig score"): read, no grouping. */
    static boolean byRankedColumn(ParseState w, Sense.Attr a) {
        boolean ranked = a.equals(w.measure) || w.ranking != null && w.ranking.order instanceof Order.ByColumn c && c.attr().equals(a);
        if (!w.groupCue || !ranked) {
            return false;
        }
        w.groupCue = false;
        return true;
    }

    /** Refuses an order by a text column ("the 5 biggest quakes" read as by place): a ranking is by a number, a date or a count. */
    static void textOrder(ParseState w) throws Unreadable {
        if (w.ranking.order instanceof Order.ByColumn c && !c.attr().numeric() && !c.attr().date() && !"distinct".equals(w.agg)) {
            throw new Unreadable("'" + c.attr().name() + "' is text, and I rank by a number, a date or a count; say which");
        }
    }

    /**
     * {@code order}, unless it counts the very rows ranked ("which candidate got the most contributions" where both words
     * name the one table): each row is one of itself, so such a count ranks nothing and the question is asked back.
     */
    static Order notSelfCounted(Ranking r, Order order, Tok t) throws Unreadable {
        if (order instanceof Order.ByCount c && r.target instanceof Target.Rows rows && rows.table().equals(c.table())) {
            throw new Unreadable("each " + c.table() + " row is one of the rows ranked, so counting '" + t.text()
                    + "' ranks nothing; say which number of each row to rank by");
        }
        return order;
    }

    /** True while token {@code i} may still name what is ranked. */
    boolean awaitsTarget(int i) {
        return target == null && i >= start;
    }

    /** True when the target is known and the order is not yet. */
    boolean awaitsOrder() {
        return target != null && order == null;
    }

    /**
     * Names each row ranked of a table of people by its first and last name together, when it has one column of each
     * ({@code first_names}, {@code last_names} of {@code names.yaml}) and the question chose no columns to show; false
     * (nothing shown) otherwise.
     */
    static boolean fullName(ParseState w, Lexicon lexicon, String table) {
        List<Sense.Attr> first = named(lexicon, table, "first_names");
        List<Sense.Attr> last = named(lexicon, table, "last_names");
        if (!w.ranking.shown.isEmpty() || first.size() != 1 || last.size() != 1) {
            return false;
        }
        w.ranking.shown.addAll(List.of(first.get(0), last.get(0)));
        w.ranking.described = true;
        w.readings.add("each " + table + " row named by " + first.get(0).name() + " and " + last.get(0).name());
        return true;
    }

    private static List<Sense.Attr> named(Lexicon lexicon, String table, String list) {
        return lexicon.graph().columns(table).stream().filter(c -> dev.sift.knowledge.RowNouns.personName(c.name(), list))
                .map(Lexicon::attr).toList();
    }

    /**
     * Shows the row ranked by the columns that say which it is, in a table with no name or key column: the whole row
     * when it has at most six columns (a match with its score), else its text and date columns when there are one to
     * five of them. False (nothing shown) otherwise.
     */
    static boolean describe(ParseState w, Lexicon lexicon, String table) {
        List<Sense.Attr> all = lexicon.graph().columns(table).stream().map(Lexicon::attr).toList();
        List<Sense.Attr> cols = all.size() <= 6 ? all : all.stream().filter(a -> a.date() || a.type().startsWith("VARCHAR")).toList();
        if (cols.isEmpty() || cols.size() > 5 && cols != all) {
            return false;
        }
        w.ranking.shown.addAll(cols);
        w.ranking.described = true;
        w.readings.add("each " + table + " row shown by " + String.join(", ", cols.stream().map(Sense.Attr::name).toList())
                + " (it has no name or key column)");
        return true;
    }

    /**
     * "Which country and year had the lowest life expectancy?", "which job, sex and year had the largest count": columns
     * of one table asked together name no group but the row the ranking picks, stated by each; the columns after the
     * first are read here. False when the words after the column are not "and" (or a comma) and other columns of its table.
     */
    static boolean rowOf(ParseState w, int i, Sense.Attr a, Lexicon lexicon) {
        List<Sense.Attr> cols = new ArrayList<>(List.of(a));
        List<Integer> read = new ArrayList<>();
        boolean and = false;
        int last = i;
        for (int j = i + 1; j < w.toks.size(); j++) {
            Tok t = w.toks.get(j); // "which industry and month": the date of the row, where its table has one
            Sense.Attr b = t.sense() instanceof Sense.Attr s ? s : t.plain() && t.is("month", "day", "date", "week", "time")
                    ? lexicon.dateColumn(a.table()).orElse(null) : null;
            if (t.is("and") && j == last + 1) {
                and = true;
            } else if (b != null && b.table().equals(a.table()) && !cols.contains(b) && (j == last + 1 || j == last + 2 && and)) {
                cols.add(b);
                read.add(j);
                last = j;
            } else {
                break;
            }
        }
        if (!and || last == i || !w.toks.get(last - 1).is("and")) {
            return false;
        }
        w.readWith.addAll(read);
        w.ranking.target = new Target.Rows(a.table(), null);
        w.ranking.shown.addAll(cols);
        w.readings.add("'" + String.join(" ", w.toks.subList(i, last + 1).stream().map(Tok::text).toList()) + "' → the "
                + String.join(", ", cols.stream().map(Sense.Attr::name).toList()) + " of the row ranked");
        return true;
    }
}
