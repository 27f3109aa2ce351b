package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.RowNouns;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a question implies before {@link ShapeRules} picks its shape: the rows that row words or a measure name, one value
 * per column, and the grouping of "compare A and B".
 */
final class ImpliedReadings {
    private ImpliedReadings() { }

    /** Fills in the implied subject and grouping; says why when the question names no rows or an unread grouping. */
    static void before(ParseState w, Lexicon lexicon) throws Unreadable {
        impliedSubject(w, lexicon);
        if (w.subject == null && w.columns.isEmpty()) {
            throw new Unreadable("I could not tell what the question is about");
        }
        if (w.groupCue) {
            throw new Unreadable("I could not tell what to group by");
        }
        countedEach(w, lexicon);
        oneValuePerColumn(w, lexicon);
        if (w.group == null && (w.toks.stream().limit(4).anyMatch(k -> k.is("compare")) || w.comparedValues)) { // "could you compare"
            compared(w, lexicon);
        }
    }

    /** The rows a question names only by row words or by a measure of their own table. */
    private static void impliedSubject(ParseState w, Lexicon lexicon) {
        if (w.subject == null && w.columns.isEmpty() && lexicon.graph().tables().size() == 1
                && w.toks.stream().anyMatch(t -> t.plain() && NameWords.rowWords().contains(t.word()))) {
            w.subject = lexicon.graph().tables().get(0).name(); // "how many records are there": the dataset's one table
            w.readings.add("the rows → table " + w.subject + " (the dataset's only table)");
        }
        if (w.subject == null && w.columns.isEmpty() && w.measure != null && w.filters.stream().allMatch(f -> f.table()
                .equals(w.measure.table()))) {
            w.subject = w.measure.table(); // "how many people were 90 or older": the rows of the measure's own table
        }
    }

    /**
     * "How many explosions and how many quarry blasts are there?": two values of one column, each counted, are one count
     * for each of them (grouped by the column, kept to the two values).
     */
    private static void countedEach(ParseState w, Lexicon lexicon) {
        long asked = java.util.stream.IntStream.range(1, w.toks.size())
                .filter(i -> w.toks.get(i - 1).is("how") && w.toks.get(i).is("many")).count();
        if (asked != 2 || w.group != null || w.filters.size() != 2) {
            return;
        }
        QuerySpec.Filter a = w.filters.get(0);
        QuerySpec.Filter b = w.filters.get(1);
        int eq = a.sql().indexOf(" = '");
        String column = eq < 0 ? null : a.sql().substring(0, eq);
        Optional<Sense.Attr> by = column == null || !b.sql().startsWith(column + " = '") ? Optional.empty()
                : lexicon.columnOf(a.table(), column).map(Lexicon::attr);
        if (by.isEmpty()) {
            return;
        }
        w.filters.clear();
        w.filterAt.subList(1, w.filterAt.size()).clear();
        w.filters.add(new QuerySpec.Filter(a.table(), column + " IN (" + a.sql().substring(eq + 3) + ", " + b.sql().substring(eq + 3)
                + ")", a.describe() + " or " + b.describe()));
        w.group = by.get();
        w.readings.add("'how many … and how many …' → one count for each of " + a.describe() + " and " + b.describe());
    }

    /** "owners and disponents": two values of one column at once is not one filter. */
    private static void oneValuePerColumn(ParseState w, Lexicon lexicon) throws Unreadable {
        Set<String> equalities = new HashSet<>();
        for (QuerySpec.Filter f : w.filters) {
            int eq = f.sql().indexOf(" = '");
            if (eq > 0 && !equalities.add(f.sql().substring(0, eq)) && !(EachOfTwo.said(w.toks) && lexicon.columnOf(f.table(),
                    f.sql().substring(0, eq)).map(Lexicon::attr).filter(c -> EachOfTwo.sexes(c, lexicon)).isPresent())) { // "men vs women"
                throw new Unreadable("the question asks for two values of " + f.sql().substring(0, eq) + " at once; ask for"
                        + " one, or for a breakdown by it");
            }
        }
    }

    /** "Compare deaths from floods and earthquakes": one figure for each of the values compared, grouped by their column. */
    private static void compared(ParseState w, Lexicon lexicon) {
        for (QuerySpec.Filter f : w.filters) {
            int in = f.sql().indexOf(" IN (");
            String column = in < 0 ? null : f.sql().substring(0, in);
            Optional<Sense.Attr> by = column == null ? Optional.empty() : lexicon.columnOf(f.table(), column).map(Lexicon::attr);
            if (by.isPresent() && w.agg == null && w.measure != null && !NameWords.totals(w.measure.column())) { // "compare the life expectancy of Nigeria and Kenya in 2005": a level is listed, not added
                w.columns.add(by.get());
                w.columns.add(w.measure);
                w.measure = null;
                w.readings.add("'Compare' → the rows of each of " + f.describe() + ", side by side");
                return;
            }
            if (by.isPresent()) {
                w.group = by.get();
                w.readings.add("'" + (w.comparedValues ? "more … or …" : "Compare") + "' → one figure for each of " + f.describe());
                Optional<Sense.Attr> heads = RowNouns.peopleCount(lexicon.graph().columns(f.table())).map(Lexicon::attr);
                if (w.measure == null && w.agg == null && w.metric == null && heads.isPresent()) { // "compare male vs female secretaries"
                    w.measure = heads.get();
                    w.agg = "sum";
                    w.readings.add("the people " + w.measure.name() + " counts, added up in each");
                }
                return;
            }
        }
    }
}
