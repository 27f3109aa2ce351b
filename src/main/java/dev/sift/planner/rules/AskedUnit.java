package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.NameWords;

import java.util.List;
import java.util.Set;

/**
 * "The average weight in pounds": a unit said after a number column, read where it is the unit the column states (in its
 * name, "Weight_in_lbs", or its description). Another unit, or one the data does not state ("the average depth in km"
 * of a column named depth), is left unread, so the question is asked back rather than answered in a unit it may not be.
 */
final class AskedUnit {
    /** Units that scale or share rather than measure: "in thousands", "in percent" are other readings. */
    private static final Set<String> NOT_MEASURES = Set.of("percent", "thousands", "millions", "billions");

    private AskedUnit() { }

    /** Reads "in UNIT" ending at word {@code i} after a number column; true when read (the two words are dropped). */
    static boolean read(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon, int i) {
        String unit = NameWords.unitOf(words.get(i));
        if (unit == null || NOT_MEASURES.contains(unit) || i < 2 || !words.get(i - 1).equals("in")) {
            return false;
        }
        for (int n = Math.min(2, i - 1); n >= 1; n--) {
            Sense s = lexicon.sense(words.subList(i - 1 - n, i - 1)).orElse(null);
            if (s instanceof Sense.Attr a && a.numeric() && !a.date()) {
                String column = a.column();
                String stated = lexicon.graph().column(a.table(), column).map(KgEntry.Column::unit).orElse(NameWords.unit(column));
                if (stated == null || !stated.equalsIgnoreCase(unit)) {
                    return false; // no unit in the data, or another: never a number in a unit it is not in
                }
                moved.add("'in " + shown.get(i) + "' read as the unit of " + a.name() + " (" + stated + ")");
                words.subList(i - 1, i + 1).clear();
                shown.subList(i - 1, i + 1).clear();
                return true;
            }
        }
        return false;
    }
}
