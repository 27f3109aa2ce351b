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
        String each = Periods.each(w.totalsPer);
        if (w.group != null || w.ranking != null || w.change != null || !w.columns.isEmpty() || w.metric != null) {
            throw new Unreadable("I take one average of " + each + " totals over all the rows the question picks, not per"
                    + " group, in a ranking or in a change; ask for the total by " + per);
        }
        String fn = w.agg == null ? "avg" : w.agg;
        if (!java.util.List.of("avg", "median", "max", "min").contains(fn)) {
            throw new Unreadable("I take an average, a median, the largest or the smallest of " + each + " totals, not a " + fn);
        }
        Sense.Attr m = w.measure;
        if (m != null && (!m.numeric() || m.date() || lexicon.isYearColumn(m) || !addsUp(m))) {
            throw new Unreadable("'" + m.name() + "' is a level or a label, not an amount that adds up to a " + each
                    + " total; ask for its " + (fn.equals("max") ? "highest" : fn.equals("min") ? "lowest" : "average") + " by " + per);
        }
        String subject = m != null ? m.table() : w.subject;
        if (subject == null) {
            throw new Unreadable("I could not tell what to total each " + per);
        }
        java.util.Optional<Sense.Attr> heads = dev.sift.knowledge.RowNouns.peopleCount(lexicon.graph().columns(subject)).map(Lexicon::attr);
        if (m == null && heads.isPresent() && TableNouns.bySex(w, lexicon, subject)) {
            m = heads.get(); // "on average, how many male nurses were there per census year": the people counted
            w.readings.add("'how many' → the total of " + m.name() + " (each " + subject + " row counts that many people)");
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
     * "The average number of male carpenters" in a table of counts of people by year, no year picked: the average of the
     * yearly totals (each year a census), read as the periods the figure is over; false when the question reads otherwise.
     */
    static boolean overYears(ParseState w, Lexicon lexicon) {
        if (!w.measureCounted || !"avg".equals(w.agg) && !"median".equals(w.agg) || w.group != null || w.ranking != null
                || w.change != null) {
            return false;
        }
        java.util.Optional<Sense.Attr> year = lexicon.yearColumn(w.measure.table())
                .filter(y -> w.filters.stream().noneMatch(f -> f.sql().contains(y.sql())));
        year.ifPresent(y -> PeriodRules.totalsPer(w, y, "the average number of"));
        return year.isPresent();
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
