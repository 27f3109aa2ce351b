package dev.sift.planner.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * A whole-number column said as a flag ("events with the tsunami flag set", "events flagged for a tsunami"): the rows
 * where it is 1, the set value of a 0/1 flag. Only the words "flag" or "flagged" say so; a column merely named is
 * left to the other readings.
 */
final class FlagWords {
    private FlagWords() { }

    /** Rewrites the flag phrase around word {@code i} as "column exactly 1"; true when it did. */
    static boolean read(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon, int i) {
        String w = words.get(i);
        if (w.equals("flag")) { // "the tsunami flag (set)": the column's words right before
            for (int n = 2; n >= 1; n--) {
                if (i - n >= 0 && flagColumn(lexicon, words.subList(i - n, i))) {
                    rewrite(words, shown, moved, i - n, i + 1 < words.size() && words.get(i + 1).equals("set") ? i + 2 : i + 1, i - n, n);
                    return true;
                }
            }
        }
        if (w.equals("flagged")) { // "flagged for a tsunami": the column's words right after
            int at = i + 1;
            while (at < words.size() && words.get(at).matches("for|as|with|a|an|the")) {
                at++;
            }
            for (int n = 2; n >= 1; n--) {
                if (at + n <= words.size() && flagColumn(lexicon, words.subList(at, at + n))) {
                    rewrite(words, shown, moved, i, at + n, at, n);
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean flagColumn(Lexicon lexicon, List<String> phrase) {
        return lexicon.sense(phrase).filter(s -> s instanceof Sense.Attr a && a.type().matches("(?i).*INT.*")).isPresent();
    }

    /** Words {@code start} to {@code end} become the column's {@code n} words (from {@code column}), then "exactly 1". */
    private static void rewrite(List<String> words, List<String> shown, List<String> moved, int start, int end, int column, int n) {
        List<String> w = new ArrayList<>(words.subList(column, column + n));
        List<String> typed = new ArrayList<>(shown.subList(column, column + n));
        String said = String.join(" ", shown.subList(start, end));
        moved.add("'" + said + "' read as '" + String.join(" ", typed) + " exactly 1' (the flag set)");
        w.addAll(List.of("exactly", "1"));
        typed.addAll(List.of("exactly", "1"));
        for (int k = start; k < end; k++) {
            words.remove(start);
            shown.remove(start);
        }
        words.addAll(start, w);
        shown.addAll(start, typed);
    }
}
