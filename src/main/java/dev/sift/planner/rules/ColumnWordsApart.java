package dev.sift.planner.rules;

import dev.sift.knowledge.NameWords;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Thesaurus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A column named by one of its words and, a word or two later, another of its words in another form: "coverage periods
 * ended" is Coverage_End_Date ("coverage" names it; "ended" is its "End"). The later word, and a word for a span of
 * time between them, join the column's phrase, so neither is left unread.
 */
final class ColumnWordsApart {
    /** Words that may stand between the two ("coverage periods ended"). */
    private static final Set<String> BETWEEN = Set.of("period", "periods", "the");

    private ColumnWordsApart() { }

    /** Widens each column phrase of {@code at}/{@code span} over a later word of the column's name. */
    static void absorb(List<String> words, List<String> shown, Tok[] at, int[] span) {
        for (int i = 0; i < words.size(); i++) {
            if (at[i] == null || !(at[i].sense() instanceof Sense.Attr a)) {
                continue;
            }
            int end = i + span[i];
            List<String> rest = new ArrayList<>(NameWords.split(a.column()).stream()
                    .map(x -> Phrases.stem(x.toLowerCase(Locale.ROOT))).filter(x -> x.length() >= 3).toList());
            rest.removeAll(words.subList(i, end).stream().map(Phrases::stem).toList());
            int j = end;
            while (j < words.size() && j < end + 2 && span[j] == 0 && BETWEEN.contains(words.get(j))) {
                j++;
            }
            if (rest.isEmpty() || j >= words.size() || span[j] != 0 || !named(shown.get(j), rest)) {
                continue;
            }
            at[i] = new Tok(String.join(" ", shown.subList(i, j + 1)), List.copyOf(words.subList(i, j + 1)), a);
            for (int k = i; k <= j; k++) {
                span[k] = j + 1 - i;
            }
            i = j;
        }
    }

    /** Whether a word, or one of its base forms ("ended": end), is one of {@code rest}. */
    private static boolean named(String word, List<String> rest) {
        List<String> forms = new ArrayList<>(Thesaurus.lemmas(word));
        forms.add(word.toLowerCase(Locale.ROOT));
        return forms.stream().map(f -> Phrases.stem(f.toLowerCase(Locale.ROOT))).anyMatch(rest::contains);
    }
}
