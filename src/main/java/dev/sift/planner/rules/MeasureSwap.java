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

    /** Whether the number column {@code a} at token {@code i}, said in the follow-up, replaced the earlier turn's measure. */
    static boolean measure(ParseState w, int i, Tok t, Sense.Attr a) {
        if (w.followUp == null || !a.numeric() || !w.said(i)) {
            return false;
        }
        if (w.measure != null && w.measureTok != null && !a.equals(w.measure) && !saidAny(w, w.measure)) {
            w.readings.add(a.name() + " replaces " + w.measure.name() + " of the earlier turn");
            w.measure = a;
            w.measureTok = t;
            w.attach(a.table());
            return true;
        }
        if (w.ranking != null && w.ranking.order instanceof Ranking.Order.ByColumn c && !c.attr().equals(a)
                && !saidAny(w, c.attr())) { // "which make has the highest average price?" → "what about horsepower?"
            w.readings.add(a.name() + " replaces " + c.attr().name() + " of the earlier turn");
            w.ranking.order = new Ranking.Order.ByColumn(a);
            w.attach(a.table());
            return true;
        }
        return false;
    }

    /** Whether the aggregate {@code fn} said in the follow-up replaced another the earlier turn named ("the maximum instead"). */
    static boolean aggregate(ParseState w, String fn) {
        if (w.followUp == null || !w.said(w.at)) {
            return false;
        }
        if (w.agg == null && w.ranking == null) { // "How many goals in Serie A?" → "and the average per match instead?"
            for (int j = 0; j + 1 < w.at; j++) {
                if (w.toks.get(j).is("how") && w.toks.get(j + 1).is("many") && !w.said(j) && !w.said(j + 1)) {
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
            if (k.plain() && w.agg.equals(V.map("aggregates").get(k.word())) && !w.said(j)) {
                w.readings.add("'" + w.toks.get(w.at).text() + "' replaces '" + k.text() + "' of the earlier turn");
                w.agg = fn;
                w.replaced.add(j);
                return true;
            }
        }
        return false;
    }

    /** Whether a token naming {@code a} is in the follow-up's own words. */
    private static boolean saidAny(ParseState w, Sense.Attr a) {
        for (int j = 0; j < w.toks.size(); j++) {
            Sense s = w.toks.get(j).sense();
            if ((a.equals(s) || s instanceof Sense.Choice c && c.options().contains(a)) && w.said(j)) {
                return true;
            }
        }
        return false;
    }
}
