package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;

import java.util.List;
import java.util.Locale;

/**
 * "best" and "worst" rank by a number whose good end depends on what it counts: the worst year for wildfire deaths has
 * the most deaths, the best years for renewable generation the most generation, the best unemployment rate the lowest.
 * A question naming a measure of either kind ({@code bad_measures} and {@code good_measures} in {@code names.yaml})
 * has "best"/"worst" read in place as "most" or "fewest" (which add up a count and rank a level by its highest or
 * lowest value); with neither, or both, the word is left, and asked about.
 */
final class Polarity {
    private Polarity() { }

    /** Rewrites "best"/"worst" in place ({@code words} comparable, {@code shown} as typed); says each in {@code moved}. */
    static void read(List<String> words, List<String> shown, List<String> moved) {
        boolean bad = words.stream().anyMatch(w -> NameWords.badMeasure(w));
        boolean good = words.stream().anyMatch(w -> NameWords.goodMeasure(w));
        if (bad == good) {
            return;
        }
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.equals("best") && !w.equals("worst")) {
                continue;
            }
            boolean high = w.equals("best") == good; // the best of a good measure, the worst of a bad one: its highest
            String said = shown.get(i);
            words.set(i, high ? "most" : "fewest"); // "most" adds up a count ("the worst year for flood deaths"), ranks a level
            moved.add("'" + said + "' read as the " + (high ? "most (highest)" : "fewest (lowest)") + " (" + (good ? "more is better for '"
                    : "more is worse for '") + words.stream().filter(x -> good ? NameWords.goodMeasure(x) : NameWords.badMeasure(x))
                    .findFirst().orElse("") + "')");
            shown.set(i, said.toLowerCase(Locale.ROOT));
        }
    }
}
