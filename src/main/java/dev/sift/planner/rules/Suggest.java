package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * "Did you mean customers?" for a word the parser could not map: a word of the dataset — of its knowledge graph's
 * phrases (tables, columns, concepts, metrics) or of its columns' listed values — within a small edit distance (one
 * edit up to 7 letters, two from 8; a swap of two letters is one edit), the closest first and, at the same distance,
 * the one the dataset uses most often; a tie on both suggests nothing. A word WordNet knows ("borrowers") is a real
 * word the dataset does not use, not a misspelling, and gets no suggestion.
 */
public final class Suggest {
    private static final java.util.Set<String> PLANNER_WORDS = Vocabulary.WORDS.allWords();

    private Suggest() { }

    /** A word of the dataset: the ways it is written there ("loan", "loans") with their uses, and its uses in all. */
    private record Known(Map<String, Integer> forms, int uses) {
        /** The form to suggest: a plural one for a plural word when the dataset writes one, else the most used. */
        String written(boolean plural) {
            return forms.entrySet().stream().filter(f -> !plural || f.getKey().endsWith("s")).max(Map.Entry.<String, Integer>
                    comparingByValue().thenComparing(Map.Entry.comparingByKey())).or(() -> forms.entrySet().stream().max(
                    Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))).get().getKey();
        }
    }

    /** The suggestions, in the order of the words, as the words the user may have meant. */
    public static List<String> didYouMean(List<String> unmapped, Lexicon lexicon) {
        Map<String, Map<String, Integer>> forms = new HashMap<>();
        for (KgEntry e : lexicon.graph().entries()) {
            e.phrases().forEach(p -> count(p, forms));
        }
        lexicon.graph().entries(KgEntry.Column.class).forEach(c -> c.values().forEach(v -> count(v, forms)));
        Map<String, Known> known = new HashMap<>();
        forms.forEach((stem, written) -> known.put(stem, new Known(written, written.values().stream()
                .mapToInt(Integer::intValue).sum())));
        List<String> out = new ArrayList<>();
        for (String u : unmapped) {
            closest(u, known).filter(s -> !out.contains(s)).ifPresent(out::add);
        }
        return out;
    }

    private static void count(String phrase, Map<String, Map<String, Integer>> forms) {
        for (String w : phrase.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
            if (w.length() >= 3 && !PLANNER_WORDS.contains(Phrases.stem(w))) { // "the" is no dataset word
                forms.computeIfAbsent(Phrases.stem(w), k -> new HashMap<>()).merge(w, 1, Integer::sum);
            }
        }
    }

    private static Optional<String> closest(String word, Map<String, Known> known) {
        String w = Phrases.stem(word.toLowerCase(Locale.ROOT));
        if (w.length() < 4 || known.containsKey(w) || !w.chars().allMatch(Character::isLetter) || Thesaurus.known(word)) {
            return Optional.empty();
        }
        int max = w.length() >= 8 ? 2 : 1;
        Known best = null;
        int bestD = Integer.MAX_VALUE;
        boolean tie = false;
        for (Map.Entry<String, Known> k : known.entrySet()) {
            if (Math.abs(k.getKey().length() - w.length()) > max) {
                continue;
            }
            int d = distance(w, k.getKey());
            Known c = k.getValue();
            if (d < bestD || d == bestD && c.uses() > best.uses()) {
                bestD = d;
                best = c;
                tie = false;
            } else if (d == bestD && c.uses() == best.uses() && c != best) {
                tie = true;
            }
        }
        return best == null || bestD > max || tie ? Optional.empty() : Optional.of(best.written(!w.equals(word.toLowerCase(Locale.ROOT))));
    }

    /** Edit distance with adjacent transpositions (optimal string alignment). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
