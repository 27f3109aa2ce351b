package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.List;
import java.util.Optional;

/**
 * "When was nonfarm employment highest?", "When did CO2 peak?", "Where was the lowest fertility rate recorded?": a
 * question that opens with "when" or "where" and asks for the highest or lowest of a number column is the date (or
 * whole-number year), or the place, of its table ranked by that number, not the number itself; "where and when" states
 * both of the row ranked. "When did CO2 first go over 400" is the earliest date of the rows picked. Only where the
 * table has exactly one such column, and for one of them alone only where it is the table's key or the question picks
 * rows by a value (one series: "in Japan"), since with several rows a place or date a total may be meant; otherwise the
 * question is left as it was, and asked back.
 */
final class WhenExtreme {

    private WhenExtreme() { }

    /** Turns the parse into a ranking of the measure's date or place when the question reads so; false when it does not. */
    static boolean read(ParseState w, Lexicon lexicon) {
        boolean extreme = "min".equals(w.agg) || "max".equals(w.agg);
        boolean when = opens(w, "when");
        boolean where = opens(w, "where");
        if (!extreme || !when && !where || w.measure == null || !w.measure.numeric() || w.measure.date() || !w.columns.isEmpty()
                || w.group != null || w.ranking != null || w.metric != null || w.change != null) {
            return false;
        }
        String table = w.measure.table();
        Optional<Sense.Attr> at = when ? lexicon.dateColumn(table).or(() -> lexicon.yearColumn(table)) : Optional.empty();
        if (at.isPresent() && !where && w.toks.stream().anyMatch(t -> t.plain() && Vocabulary.WORDS.has(t.word(), "time_order"))) {
            w.readings.add("'when' … '" + (w.agg.equals("min") ? "first" : "last") + "' → the " + (w.agg.equals("min") ? "earliest "
                    : "latest ") + at.get().name()); // "when did CO2 first go over 400": the earliest date of the rows picked
            w.measure = at.get();
            return false;
        }
        Optional<Sense.Attr> place = where ? dev.sift.knowledge.RowNouns.place(lexicon.graph().columns(table)).map(Lexicon::attr)
                : Optional.empty();
        if (when && at.isEmpty() || where && place.isEmpty()) {
            return false;
        }
        boolean highest = "max".equals(w.agg);
        String which = (highest ? "highest " : "lowest ") + w.measure.name();
        if (when && where) { // the row ranked, stated by its place and its time
            w.ranking = Ranking.one(highest);
            w.ranking.target = new Ranking.Target.Rows(table, null);
            w.ranking.shown.add(place.get());
            w.ranking.shown.add(at.get());
            w.ranking.order = new Ranking.Order.ByColumn(w.measure);
            w.agg = null; // the ranking's direction says highest or lowest: one row, not a group's extreme
            w.readings.add("'where and when' → the " + place.get().name() + " and " + at.get().name() + " of the row with the " + which);
            return true;
        }
        Sense.Attr by = when ? at.get() : place.get();
        boolean oneRow = w.toks.stream().anyMatch(t -> t.sense() instanceof Sense.Entity e && e.table().equals(table)
                && PhraseRules.singular(t)); // "where was the deepest quake": one row of the table, named
        boolean ownRow = !MeasureWords.addsUp(lexicon, w.measure) && !lexicon.isYearColumn(by) && lexicon.graph().column(table,
                by.column()).map(c -> c.values().isEmpty()).orElse(false); // "the largest magnitude, and where was it": a place of its own
        if (w.filters.isEmpty() && !oneRow && !ownRow && lexicon.key(table).filter(k -> k.qualified().equals(by.name())).isEmpty()) {
            return false; // several rows a date and none picked ("when were deaths highest"): a total may be meant
        }
        w.ranking = Ranking.one(highest);
        w.ranking.target = new Ranking.Target.Values(by);
        w.ranking.order = new Ranking.Order.ByColumn(w.measure);
        w.readings.add("'" + (when ? "when" : "where") + "' → the " + by.name() + " with the " + which);
        return true;
    }

    /** Whether the question opens with the word, or asks it after "and" ("the largest magnitude, and where was it"). */
    private static boolean opens(ParseState w, String word) {
        return w.toks.stream().limit(3).anyMatch(t -> t.is(word))
                || java.util.stream.IntStream.range(1, w.toks.size()).anyMatch(i -> w.toks.get(i).is(word) && w.toks.get(i - 1).is("and"));
    }
}
