package dev.sift.knowledge;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the knowledge graph compares words: lower case, accents removed, punctuation dropped, a light
 * plural stem ("loans" = "loan", "cities" = "city"). {@link #key} of "Hl.m. Praha" is "hl m praha", so
 * a question's "in Hl.m. Praha" and a stored value meet. Deterministic and locale-independent.
 */
public final class Phrases {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    /** Words too common to count as a match on their own (they may still be part of a longer phrase): {@link Vocabulary}. */
    public static Set<String> stop() {
        return Vocabulary.WORDS.list("filler.stop");
    }

    private Phrases() { }

    /** The comparable words of a text, in order: lower case, accent-free, stemmed. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        String plain = text.chars().allMatch(c -> c < 0x80) ? text // plain ASCII has no marks to strip
                : MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
        for (String w : NON_WORD.split(plain.toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty()) {
                out.add(stem(w));
            }
        }
        return out;
    }

    /** The comparable form of a phrase: its {@link #words} joined by single spaces. */
    public static String key(String text) {
        return String.join(" ", words(text));
    }

    /**
     * The comparable forms a value of two names joined by a slash is also said in: 'Lawyer / Judge' is "lawyers and
     * judges" or "lawyers or judges". Empty for any other value.
     */
    public static List<String> slashSaid(String value) {
        if (!value.matches("\\w[^/]*\\w\\s*/\\s*\\w[^/]*")) {
            return List.of();
        }
        return List.of(key(value.replaceFirst("\\s*/\\s*", " and ")), key(value.replaceFirst("\\s*/\\s*", " or ")));
    }

    /** A light English plural stem; identifiers with digits and short words are left alone. */
    public static String stem(String w) {
        if (w.length() <= 3 || w.chars().anyMatch(Character::isDigit)) {
            return w;
        }
        if (w.endsWith("ies") && w.length() > 4) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.endsWith("ie") && w.length() > 4) { // "movie" and "movies" meet ("movy"), as "city" and "cities" do
            return w.substring(0, w.length() - 2) + "y";
        }
        if (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    /** True when every word of the phrase is a stop word (such a phrase never matches alone). */
    public static boolean onlyStopWords(List<String> words) {
        return words.stream().allMatch(stop()::contains);
    }
}
