package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * "Did you mean customers?" for a word the parser could not map: the one word of the dataset's knowledge (its
 * phrases' words) or of the planner's vocabulary within a small edit distance (one edit up to 7 letters, two from
 * 8; a swap of two letters is one edit). Only a single closest word is suggested; a tie ("ther": the? there?)
 * suggests nothing.
 */
public final class Suggest {
    private Suggest() { }

    /** The suggestions, in the order of the words, as the words the user may have meant. */
    public static List<String> didYouMean(List<String> unmapped, Lexicon lexicon) {
        Map<String, String> known = new LinkedHashMap<>();
        for (KgEntry e : lexicon.graph().entries()) {
            for (String p : e.phrases()) {
                for (String w : p.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")) {
                    if (w.length() >= 3) {
                        known.putIfAbsent(Phrases.stem(w), w);
                    }
                }
            }
        }
        Vocabulary.WORDS.allWords().stream().filter(w -> w.length() >= 3 && w.chars().allMatch(Character::isLetter))
                .forEach(w -> known.putIfAbsent(Phrases.stem(w), w));
        List<String> out = new ArrayList<>();
        for (String u : unmapped) {
            closest(u, known).filter(s -> !out.contains(s)).ifPresent(out::add);
        }
        return out;
    }

    private static Optional<String> closest(String word, Map<String, String> known) {
        String w = Phrases.stem(word.toLowerCase(Locale.ROOT));
        if (w.length() < 4 || known.containsKey(w)) {
            return Optional.empty();
        }
        int max = w.length() >= 8 ? 2 : 1;
        String best = null;
        int bestD = Integer.MAX_VALUE;
        boolean tie = false;
        for (Map.Entry<String, String> k : known.entrySet()) {
            if (Math.abs(k.getKey().length() - w.length()) > max) {
                continue;
            }
            int d = distance(w, k.getKey());
            if (d < bestD) {
                bestD = d;
                best = k.getValue();
                tie = false;
            } else if (d == bestD && !k.getValue().equals(best)) {
                tie = true;
            }
        }
        if (best == null || bestD > max || tie) {
            return Optional.empty();
        }
        boolean plural = word.toLowerCase(Locale.ROOT).endsWith("s") && !best.endsWith("s");
        return Optional.of(plural ? best + "s" : best);
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
