package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

/** Words of a question that carry no content of their own there, read by {@link SpecParser} once nothing else read them. */
final class Fillers {
    private static final Vocabulary V = Vocabulary.WORDS;

    private Fillers() { }

    /** "Which state had the most farmers": a word of asking for rows ("state", "name") right after "which" is the thing asked. */
    static boolean nounAfterWhich(ParseState w, int i, Tok t) {
        return i > 0 && w.toks.get(i - 1).is("which") && V.has(t.word(), "listing_verbs");
    }

    /** Whether a word is filler wherever it stands: function and stop words, words of order, share and asking. */
    static boolean filler(String word) {
        return V.has(word, "filler.function", "filler.stop", "descending", "ascending", "share", "distribution", "relation_words",
                "price_words", "listing_verbs") || word.equals("year") || dev.sift.knowledge.NameWords.rowWords().contains(word);
    }
}
