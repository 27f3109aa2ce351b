package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.NameWords;

import java.util.List;
import java.util.Optional;

/**
 * A whole-number year column named for the noun a year qualifies: "the 1995 budget" is budgetYear = 1995 and "2008
 * models" model_year = 2008, where the table has other year columns (forecastYear) and "in 1995" alone would not say
 * which. Only the noun right after the year counts; the column must be the dataset's one named "noun year".
 */
final class YearNouns {
    private YearNouns() { }

    /** The year column named for the token after token {@code i}, or empty. */
    static Optional<Sense.Attr> after(ParseState w, int i, Lexicon lexicon) {
        if (i + 1 >= w.toks.size() || w.toks.get(i + 1).words().size() != 1) {
            return Optional.empty();
        }
        String noun = w.toks.get(i + 1).word();
        List<Sense.Attr> named = lexicon.graph().entries(KgEntry.Column.class).stream().filter(c -> {
            List<String> words = NameWords.split(c.name());
            return words.size() == 2 && words.get(1).equals("year") && dev.sift.knowledge.Phrases.key(words.get(0)).equals(noun);
        }).map(Lexicon::attr).filter(a -> a.type().matches("(?i).*INT.*")).toList();
        return named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
    }
}
