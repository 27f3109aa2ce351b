package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;

import java.util.List;

/**
 * {@link QuerySpec.Shape#PERIOD_TOTALS}: one average (or median) of the totals of each year or month, as "the average
 * yearly nuclear generation" or "on average, how many people died per year" ask — not an average of rows, which differs
 * when a year has several — or the largest (smallest) of them with its period ("the most generated in a single year").
 * Only for a number that adds up (a count, an amount), or rows counted; a level ("the average monthly CO2") has no
 * yearly total.
 */
final class PeriodTotals {
    private PeriodTotals() { }

    static QuerySpec spec(ParseState w, Lexicon lexicon) throws Unreadable {
        String per = Periods.word(w.totalsPer);
        if (w.group != null || w.ranking != null || w.change != null || !w.columns.isEmpty() || w.metric != null) {
            throw new Unreadable("I take one average of " + per + "ly totals over all the rows the question picks, not per"
                    + " group, in a ranking or in a change; ask for the total by " + per);
        }
        String fn = w.agg == null ? "avg" : w.agg;
        if (!java.util.List.of("avg", "median", "max", "min").contains(fn)) {
            throw new Unreadable("I take an average, a median, the largest or the smallest of " + per + "ly totals, not a " + fn);
        }
        Sense.Attr m = w.measure;
        if (m != null && (!m.numeric() || m.date() || lexicon.isYearColumn(m) || !addsUp(m))) {
            throw new Unreadable("'" + m.name() + "' is a level or a label, not an amount that adds up to a " + per
                    + "ly total; ask for its " + (fn.equals("max") ? "highest" : fn.equals("min") ? "lowest" : "average") + " by " + per);
        }
        String subject = m != null ? m.table() : w.subject;
        if (subject == null) {
            throw new Unreadable("I could not tell what to total each " + per);
        }
        if (m == null && (lexicon.tally(subject).isPresent() || lexicon.headcount(subject).isPresent())) {
            throw new Unreadable("each " + subject + " row stands for several; name the number to total each " + per);
        }
        if (!w.totalsPer.table().equals(subject)) {
            w.link(subject, w.totalsPer.table(), null);
        }
        return new QuerySpec(QuerySpec.Shape.PERIOD_TOTALS, subject, fn, m, null, w.totalsPer, List.copyOf(w.filters),
                List.copyOf(w.links), null, true, List.of(), List.of(), false);
    }

    /**
     * Whether a number column adds up: no word of its name says a rate or a level, nor of its table's name when the table
     * is named for it ("CO2" of co2_concentration is a concentration).
     */
    private static boolean addsUp(Sense.Attr m) {
        String column = m.column();
        String table = m.table().toLowerCase(java.util.Locale.ROOT);
        return NameWords.totals(column) && (!table.contains(column.toLowerCase(java.util.Locale.ROOT)) || NameWords.totals(m.table()));
    }
}
