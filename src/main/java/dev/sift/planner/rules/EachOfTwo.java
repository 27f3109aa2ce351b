package dev.sift.planner.rules;

import dev.sift.knowledge.RowNouns;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two years said with "and" in a question of one count of people ("how many people worked as blacksmiths in 1850 and in
 * 2000", "compare the number of female teachers in 1900 and 2000"), or both sexes ("lawyers in 1980: how many men vs
 * women?"): no row holds both, the people of two years added up would count them twice, and sexes meant together are
 * said so ("men and women together"), so each one's figure is given, side by side. Not where the question compares them
 * in words of its own ("more … than", "the difference", "how much did … grow") or adds them up ("combined"); two values
 * of another column ("owners and disponents") stay asked about, together or each.
 */
final class EachOfTwo {
    private static final Pattern EQUALS = QueryBuilder.EQUALS; // "table.column = value"

    private EachOfTwo() { }

    static QuerySpec apply(QuerySpec s, List<Tok> toks, Lexicon lexicon, List<String> readings) {
        if (!(s.shape() == QuerySpec.Shape.COUNT || s.shape() == QuerySpec.Shape.AGG) || s.group() != null || s.limit() != null
                || !said(toks)) {
            return s;
        }
        List<QuerySpec.Filter> pair = new ArrayList<>();
        for (QuerySpec.Filter f : s.filters()) {
            Matcher m = EQUALS.matcher(f.sql());
            if (m.matches() && s.filters().stream().filter(g -> g != f && g.sql().startsWith(m.group(1) + " = ")).count() == 1) {
                pair.add(f);
            }
        }
        Optional<Sense.Attr> column = pair.size() == 2 ? columnOf(pair.get(0), lexicon) : Optional.empty();
        boolean years = column.isPresent() && lexicon.isYearColumn(column.get()) && s.measure() != null
                && RowNouns.peopleCount(lexicon.graph().columns(s.measure().table())).map(Lexicon::attr).filter(s.measure()::equals).isPresent();
        if (column.isEmpty() || pair.get(0).sql().equals(pair.get(1).sql()) || !years && !sexes(column.get(), lexicon)) {
            return s;
        }
        Matcher a = EQUALS.matcher(pair.get(0).sql());
        Matcher b = EQUALS.matcher(pair.get(1).sql());
        a.matches();
        b.matches();
        List<QuerySpec.Filter> filters = new ArrayList<>(s.filters());
        filters.removeAll(pair);
        String both = a.group(2) + ", " + b.group(2);
        filters.add(new QuerySpec.Filter(column.get().table(), a.group(1) + " IN (" + both + ")", column.get().name() + " in (" + both + ")"));
        readings.add("two values of " + column.get().name() + " (" + a.group(2) + " and " + b.group(2) + "), which no row has at once"
                + " → each one's figure");
        return new QuerySpec(s.shape(), s.subject(), s.aggFn(), s.measure(), s.metric(), column.get(), List.copyOf(filters), s.links(),
                null, s.descending(), s.share(), s.columns(), s.distinct());
    }

    /**
     * Whether the question says values with "and" and neither compares them in words of its own nor adds them up
     * ("combined", "together"): each one's figure is meant. "Compare" asks for each, even of a total ("the total workforce").
     */
    static boolean said(List<Tok> toks) {
        if (toks.stream().noneMatch(t -> t.is("and"))) {
            return false;
        }
        // "compare the total workforce in 1850 with 2000": each, even of a total
        return toks.stream().anyMatch(t -> t.is("compare", "compared", "comparing", "versus", "vs"))
                ? toks.stream().noneMatch(t -> t.is("combined", "together", "altogether"))
                : toks.stream().noneMatch(t -> comparing(t) || t.is("combined", "together", "altogether", "total", "both", "sum", "overall"));
    }

    /** Whether a column records each row's sex: "men and women" not said together are each sex's figure. */
    static boolean sexes(Sense.Attr column, Lexicon lexicon) {
        return RowNouns.sexColumn(lexicon.graph().columns(column.table())).map(Lexicon::attr).filter(column::equals).isPresent();
    }

    /** A word that compares two figures in one ("more", "than", "difference", "grow"). */
    private static boolean comparing(Tok t) {
        return t.plain() && (Vocabulary.WORDS.has(t.word(), "comparatives") || t.is("than", "difference", "differ", "change", "changed",
                "grow", "grew", "growth", "rise", "rose", "fall", "fell", "increase", "decrease", "ratio", "between", "from"));
    }

    /** The column a filter "table.column = value" is on. */
    private static Optional<Sense.Attr> columnOf(QuerySpec.Filter f, Lexicon lexicon) {
        Matcher m = EQUALS.matcher(f.sql());
        return m.matches() ? lexicon.columnOf(f.table(), m.group(1)).map(Lexicon::attr) : Optional.empty();
    }
}
