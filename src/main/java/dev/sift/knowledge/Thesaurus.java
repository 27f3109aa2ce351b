package dev.sift.knowledge;

import net.sf.extjwnl.JWNLException;
import net.sf.extjwnl.data.IndexWord;
import net.sf.extjwnl.data.POS;
import net.sf.extjwnl.data.Synset;
import net.sf.extjwnl.data.Word;
import net.sf.extjwnl.dictionary.Dictionary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A general English lexicon for the offline planner: the base forms of a word ("IDs" → id, "borrowers" → borrower,
 * "lived" → live) and its synonyms ("customers" → client), from Princeton WordNet 3.1 through extJWNL. The
 * dictionary is read from the classpath on first use only (a question with a word the dataset does not name), so a
 * process that never needs it never pays for it; {@link #loadMillis} says what the load took.
 */
public final class Thesaurus {
    /** Senses of a word, per part of speech, whose synonyms count: WordNet lists senses by frequency of use. */
    private static final int SENSES = 2;
    private static final POS[] ORDER = {POS.NOUN, POS.VERB, POS.ADJECTIVE, POS.ADVERB};
    private static volatile long loadMillis = -1;

    private Thesaurus() { }

    private static final class Holder {
        static final Dictionary DICTIONARY = load();

        private static Dictionary load() {
            long start = System.nanoTime();
            try {
                Dictionary d = Dictionary.getDefaultResourceInstance();
                loadMillis = (System.nanoTime() - start) / 1_000_000;
                return d;
            } catch (JWNLException e) {
                throw new IllegalStateException("cannot read the WordNet dictionary from the classpath: " + e.getMessage(), e);
            }
        }
    }

    /** How long reading the dictionary took, in milliseconds, or -1 when it has not been read in this process. */
    public static long loadMillis() {
        return loadMillis;
    }

    /** Whether WordNet knows the word in some part of speech (in any inflection): a real word, not a misspelling. */
    public static synchronized boolean known(String word) {
        try {
            for (POS pos : ORDER) {
                if (Holder.DICTIONARY.lookupIndexWord(pos, word.toLowerCase(Locale.ROOT)) != null) {
                    return true;
                }
            }
            return false;
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + word + "' failed: " + e.getMessage(), e);
        }
    }

    /** The base forms WordNet knows for a word, nouns first, without the word itself: "ids" → [id]. */
    public static synchronized List<String> lemmas(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        Set<String> out = new LinkedHashSet<>();
        try {
            for (POS pos : ORDER) {
                for (String base : Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(pos, w)) {
                    out.add(base.toLowerCase(Locale.ROOT));
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + word + "' failed: " + e.getMessage(), e);
        }
        out.remove(w);
        return new ArrayList<>(out);
    }

    /**
     * The words that share a sense with {@code word} where that sense is one of the {@value #SENSES} most frequent of
     * both words (in one part of speech), without the word itself, in WordNet's order: "customers" → [client], "wage" →
     * [pay, earnings, remuneration, salary]; "invoice" is not "account", whose usual senses are others.
     */
    public static synchronized List<String> synonyms(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        Set<String> out = new LinkedHashSet<>();
        try {
            for (POS pos : ORDER) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(pos, w);
                if (iw != null) {
                    for (Synset s : usual(iw)) {
                        for (Word x : s.getWords()) {
                            IndexWord other = Holder.DICTIONARY.lookupIndexWord(pos, x.getLemma());
                            if (other != null && usual(other).contains(s) && !other.getLemma().equals(iw.getLemma())) {
                                out.add(x.getLemma().toLowerCase(Locale.ROOT));
                            }
                        }
                    }
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + word + "' failed: " + e.getMessage(), e);
        }
        out.remove(w);
        return new ArrayList<>(out);
    }

    private static List<Synset> usual(IndexWord iw) {
        List<Synset> senses = iw.getSenses();
        return senses.subList(0, Math.min(SENSES, senses.size()));
    }
}
