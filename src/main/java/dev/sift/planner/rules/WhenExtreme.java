package dev.sift.planner.rules;

import java.util.Optional;

/**
 * "When was nonfarm employment highest?", "When did CO2 peak?": a question that opens with "when" and asks for the
 * highest or lowest of a number column is the date (or whole-number year) of its table ranked by that number, not the
 * number itself ("when did CO2 first go over 400" is the earliest date of the rows picked). Only where the table has exactly one date column, or else one year column, and that column is the
 * table's key or the question picks rows by a value (one series: "in Japan"); otherwise the question is left as it
 * was, and asked back.
 */
final class WhenExtreme {
    private WhenExtreme() { }

    /** Turns the parse into a ranking of the measure's date when the question reads so; false when it does not. */
    static boolean read(ParseState w, Lexicon lexicon) {
        boolean extreme = "min".equals(w.agg) || "max".equals(w.agg);
        if (!extreme || w.measure == null || !w.measure.numeric() || w.measure.date() || !w.columns.isEmpty() || w.group != null
                || w.ranking != null || w.metric != null || w.change != null || w.toks.isEmpty() || !w.toks.get(0).is("when")) {
            return false;
        }
        Optional<Sense.Attr> at = lexicon.dateColumn(w.measure.table()).or(() -> lexicon.yearColumn(w.measure.table()));
        if (at.isPresent() && w.toks.stream().anyMatch(t -> t.plain() && dev.sift.knowledge.Vocabulary.WORDS.has(t.word(), "time_order"))) {
            w.readings.add("'when' … '" + (w.agg.equals("min") ? "first" : "last") + "' → the " + (w.agg.equals("min") ? "earliest " : "latest ")
                    + at.get().name()); // "when did CO2 first go over 400": the earliest date of the rows picked, not the lowest CO2
            w.measure = at.get();
            return false;
        }
        if (at.isEmpty() || w.filters.isEmpty() && lexicon.key(w.measure.table()).filter(k -> k.qualified().equals(at.get().name()))
                .isEmpty()) { // several rows a date and none picked ("when were deaths highest"): a total may be meant
            return false;
        }
        boolean highest = "max".equals(w.agg);
        w.ranking = Ranking.one(highest);
        w.ranking.target = new Ranking.Target.Values(at.get());
        w.ranking.order = new Ranking.Order.ByColumn(w.measure);
        w.readings.add("'when' → the " + at.get().name() + " with the " + (highest ? "highest " : "lowest ") + w.measure.name());
        return true;
    }
}
