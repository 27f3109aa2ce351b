package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

/**
 * A follow-up that swaps the measure or the aggregate of the turn before ("the average mileage instead", "what about
 * horsepower?", "and the maximum?" after "What is the average price by make?"). The follow-up is merged into that
 * question; a column or aggregate word the person says in the follow-up replaces the earlier turn's, which the
 * follow-up does not say. Which one is new is decided by the person's own words, as for values ({@link ParseState#filter}).
 */
final class MeasureSwap {
    private static final Vocabulary V = Vocabulary.WORDS;

    private MeasureSwap() { }

    /** Whether the number column {@code a} at token {@code i}, said in a follow-up, replaced an earlier turn's measure. */
    static boolean measure(ParseState w, int i, Tok t, Sense.Attr a) {
        int level = w.level(i);
        if (level == 0 || !a.numeric()) {
            return false;
        }
        if (w.measure != null && w.measureTok != null && !a.equals(w.measure) && saidLast(w, w.measure) < level) {
            w.readings.add(a.name() + " replaces " + w.measure.name() + " of the earlier turn");
            w.measure = a;
            w.measureTok = t;
            w.attach(a.table());
            return true;
        }
        if (w.ranking != null && w.ranking.order instanceof Ranking.Order.ByColumn c && !c.attr().equals(a)
                && saidLast(w, c.attr()) < level) { // "which make has the highest average price?" → "what about horsepower?"
            w.readings.add(a.name() + " replaces " + c.attr().name() + " of the earlier turn");
            w.ranking.order = new Ranking.Order.ByColumn(a);
            w.attach(a.table());
            return true;
        }
        return false;
    }

    /** Whether the aggregate {@code fn} said in the follow-up replaced another the earlier turn named ("the maximum instead"). */
    static boolean aggregate(ParseState w, String fn) {
        int level = w.level(w.at);
        if (level == 0) {
            return false;
        }
        if (w.agg == null && w.ranking == null) { // "How many goals in Serie A?" → "and the average per match instead?"
            for (int j = 0; j + 1 < w.at; j++) {
                if (w.toks.get(j).is("how") && w.toks.get(j + 1).is("many") && w.level(j) < level && w.level(j + 1) < level) {
                    w.readings.add("'" + w.toks.get(w.at).text() + "' replaces 'how many' of the earlier turn");
                    w.agg = fn;
                    w.replaced.add(j);
                    w.replaced.add(j + 1);
                    return true;
                }
            }
        }
        if (w.agg == null || fn.equals(w.agg)) {
            return false;
        }
        for (int j = 0; j < w.at; j++) {
            Tok k = w.toks.get(j);
            if (k.plain() && w.agg.equals(V.map("aggregates").get(k.word())) && w.level(j) < level) {
                w.readings.add("'" + w.toks.get(w.at).text() + "' replaces '" + k.text() + "' of the earlier turn");
                w.agg = fn;
                w.replaced.add(j);
                return true;
            }
        }
        return false;
    }

    /** The latest follow-up whose own words name {@code a} ({@link ParseState#level}); 0 when none does. */
    private static int saidLast(ParseState w, Sense.Attr a) {
        int last = 0;
        for (int j = 0; j < w.toks.size(); j++) {
            Sense s = w.toks.get(j).sense();
            if (a.equals(s) || s instanceof Sense.Choice c && c.options().contains(a)) {
                last = Math.max(last, w.level(j));
            }
        }
        return last;
    }
}
