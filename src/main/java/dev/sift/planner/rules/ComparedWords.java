package dev.sift.planner.rules;

import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Comparisons said with an adjective rather than a number word, rewritten in place before the words are matched:
 * "deeper than 50 km" is "depth above 50" when WordNet's attribute of "deep" names one number column ("shallower" is
 * below it), and "a negative magnitude" or "ending cash is negative" compares with 0. A word the dataset itself names
 * is left as it is.
 */
final class ComparedWords {
    private static final Vocabulary V = Vocabulary.WORDS;

    private ComparedWords() { }

    /** Rewrites the comparisons of {@code words} (comparable) and {@code shown} (as typed); says each in {@code moved}. */
    static void read(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon) {
        for (int i = words.size() - 1; i >= 0; i--) {
            String w = words.get(i);
            if ((w.equals("negative") || w.equals("positive")) && lexicon.sense(List.of(w)).isEmpty()) {
                String said = shown.get(i);
                List<String> reading = List.of(w.equals("negative") ? "below" : "above", "0");
                replace(words, shown, i, 1, reading, said);
                moved.add("'" + said + "' read as '" + String.join(" ", reading) + "'");
            } else if (w.equals("nothing") && i > 0 && !dev.sift.knowledge.NameWords.moneyNouns(List.of(words.get(i - 1))).isEmpty()) {
                int n = i + 2 < words.size() && words.get(i + 1).equals("at") && words.get(i + 2).equals("all") ? 3 : 1;
                String said = String.join(" ", shown.subList(i, i + n)); // "raised nothing at all": receipts equal to 0
                replace(words, shown, i, n, List.of("exactly", "0"), said);
                moved.add("'" + said + "' read as 'exactly 0'");
            } else if (w.equals("nonzero") || w.equals("zero") && i > 0 && words.get(i - 1).equals("non")) {
                amountOf(words, shown, moved, lexicon, i, w.equals("zero") ? i - 1 : i, List.of("other", "than", "0")); // "non-zero"
            } else if (w.equals("zero") || w.equals("no") && i > 0 && V.list("have_words").contains(words.get(i - 1))) {
                amountOf(words, shown, moved, lexicon, i, i, List.of("exactly", "0")); // "no habitat", "zero goals": equal to 0
            } else if (w.equals("any") && i > 0 && (V.list("have_words").contains(words.get(i - 1)) || words.get(i - 1).equals("got"))) {
                amountOf(words, shown, moved, lexicon, i, i, List.of("above", "0")); // "got any individual contributions": above 0
            } else if (w.equals("some") && i > 1 && words.get(i - 1).equals("least") && words.get(i - 2).equals("at")) {
                amountOf(words, shown, moved, lexicon, i, i - 2, List.of("above", "0")); // "at least some habitat": above 0
            } else if (AskedUnit.read(words, shown, moved, lexicon, i)) {
                i--; // "the average depth in km": its two words dropped
                continue;
            } else if (FlagWords.read(words, shown, moved, lexicon, i)) {
                continue; // "the tsunami flag set", "flagged for a tsunami": the flag column equal to 1
            } else if (columnBetween(words, shown, moved, lexicon, i)) {
                continue; // "at least magnitude 2" is "magnitude at least 2"
            } else if (i + 1 < words.size() && words.get(i + 1).equals("than") && w.endsWith("er") && w.length() >= 5
                    && !V.allWords().contains(w) && lexicon.sense(List.of(w)).isEmpty() && !lexicon.hinted(w)) {
                comparative(words, shown, moved, lexicon, i);
            }
        }
    }

    /**
     * "at least magnitude 2", "under age 20", "between magnitude 2 and 3": a comparison said before its column's name and
     * then the number, moved so the column comes first; true when moved. Without this the number would be read as the
     * column's value.
     */
    private static boolean columnBetween(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon, int i) {
        String w = words.get(i);
        int start = (w.equals("least") || w.equals("most")) && i > 0 && words.get(i - 1).equals("at") ? i - 1
                : w.equals("than") && i > 0 && V.map("comparators").containsKey(words.get(i - 1) + " than") ? i - 1
                : V.map("comparators").containsKey(w) && !w.equals("exactly") || w.equals("between") ? i : -1;
        for (int n = 2; start >= 0 && n >= 1; n--) {
            int end = i + 1 + n;
            if (end < words.size() && words.get(end).matches("-?\\d+(\\.\\d+)?") && lexicon.sense(words.subList(i + 1, end))
                    .filter(s -> s instanceof Sense.Attr a && a.numeric() && !a.date()).isPresent()) {
                String said = String.join(" ", shown.subList(start, end));
                for (int k = 0; k < n; k++) { // the column's words, moved before the comparison
                    words.add(start, words.remove(end - 1));
                    shown.add(start, shown.remove(end - 1));
                }
                moved.add("'" + said + "' read as '" + String.join(" ", shown.subList(start, end)) + "'");
                if (start > 0 && lexicon.sense(List.of(words.get(start - 1))).filter(s -> s instanceof Sense.Entity).isPresent()) {
                    words.add(start, "with"); // "quakes at least magnitude 2": the quakes with it, not the quakes' magnitude
                    shown.add(start, "with");
                }
                return true;
            }
        }
        return false;
    }

    /** "deeper than": the one number column WordNet's attribute of the adjective names, above (or below) what follows. */
    private static void comparative(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon, int i) {
        List<String> bases = Thesaurus.lemmas(words.get(i));
        if (i > 0 && lexicon.sense(List.of(words.get(i - 1))).filter(s -> s instanceof Sense.Attr a && a.numeric() && !a.date()).isPresent()) {
            String said = shown.get(i) + " " + shown.get(i + 1); // "validity longer than 24 months": the column is named
            String way = bases.stream().anyMatch(V.list("low_adjectives")::contains) ? "below" : "above";
            replace(words, shown, i, 2, List.of(way), said);
            moved.add("'" + said + "' read as '" + way + "'");
            return;
        }
        Sense.Attr found = null;
        String named = null;
        for (String base : bases) {
            for (String noun : Thesaurus.attributesOf(base)) {
                Optional<Sense> s = lexicon.sense(Phrases.words(noun));
                if (s.isPresent() && s.get() instanceof Sense.Attr a && a.numeric() && !a.date() && (found == null || found.equals(a))) {
                    found = a;
                    named = named == null ? noun : named;
                } else if (s.isPresent()) {
                    return; // the attribute names something else of the data: not this comparison
                }
            }
        }
        if (found == null) {
            return;
        }
        boolean low = bases.stream().anyMatch(V.list("low_adjectives")::contains);
        String said = shown.get(i) + " " + shown.get(i + 1);
        List<String> reading = new ArrayList<>(Phrases.words(named));
        reading.add(low ? "below" : "above");
        replace(words, shown, i, 2, reading, said);
        moved.add("'" + said + "' read as '" + named + (low ? " below" : " above") + "' (its attribute in WordNet 3.1)");
    }

    /**
     * "no habitat", "at least some habitat": the number column named right after the word, compared with 0 as
     * {@code reading} says. The word is left where no number column follows ("accounts with no loan" relates rows).
     */
    private static void amountOf(List<String> words, List<String> shown, List<String> moved, Lexicon lexicon, int i, int from,
                                 List<String> reading) {
        for (int at = i + 1; at <= Math.min(i + 4, words.size() - 1); at++) { // "some American Bullfrog habitat": past a value
            List<String> between = words.subList(i + 1, at);
            if (at > i + 1 && lexicon.sense(between).filter(s -> !(s instanceof Sense.Attr)).isEmpty()
                    && lexicon.values().resolve(String.join(" ", between)).isEmpty()) {
                continue;
            }
            for (int n = Math.min(4, words.size() - at); n >= 1; n--) {
                Optional<Sense> s = lexicon.sense(words.subList(at, at + n));
                if (s.isPresent()) {
                    if (s.get() instanceof Sense.Attr a && a.numeric() && !a.date()) {
                        compareWithZero(words, shown, moved, i, from, at + n, reading);
                    }
                    if (!(s.get() instanceof Sense.Cond)) {
                        return;
                    }
                    break;
                }
            }
        }
    }

    /** Moves the amount words ({@code from} to {@code i}) after the column ending before {@code end}, as {@code reading}. */
    private static void compareWithZero(List<String> words, List<String> shown, List<String> moved, int i, int from, int end,
                                        List<String> reading) {
        String said = String.join(" ", shown.subList(from, i + 1));
        List<String> phrase = new ArrayList<>(words.subList(i + 1, end));
        List<String> typed = new ArrayList<>(shown.subList(i + 1, end));
        for (int k = from; k < end; k++) {
            words.remove(from);
            shown.remove(from);
        }
        words.addAll(from, phrase);
        shown.addAll(from, typed);
        words.addAll(from + phrase.size(), reading);
        shown.addAll(from + phrase.size(), reading.stream().map(r -> r.equals("0") ? "0" : said).toList());
        moved.add("'" + said + " " + String.join(" ", typed) + "' read as '" + String.join(" ", typed) + " "
                + String.join(" ", reading) + "'");
    }

    private static void replace(List<String> words, List<String> shown, int at, int n, List<String> reading, String said) {
        for (int k = 0; k < n; k++) {
            words.remove(at);
            shown.remove(at);
        }
        words.addAll(at, reading);
        for (int k = 0; k < reading.size(); k++) {
            shown.add(at + k, reading.get(k).equals("0") ? "0" : said);
        }
    }
}
