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
import java.util.Map;
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
    /** Words a sense of a word with several must share with its context to be the one meant. */
    private static final int MIN_OVERLAP = 2;

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

    /**
     * Whether WordNet knows the word as a common word: a sense of it written in lower case ("model", "town"), not only
     * as a name ("Alaska", "Nevada" are written capitalised in every sense).
     */
    public static synchronized boolean common(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        try {
            for (POS pos : ORDER) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(pos, w);
                if (iw == null) {
                    continue;
                }
                for (Synset s : iw.getSenses()) {
                    for (Word x : s.getWords()) {
                        if (x.getLemma().equalsIgnoreCase(iw.getLemma()) && !Character.isUpperCase(x.getLemma().charAt(0))) {
                            return true;
                        }
                    }
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

    /**
     * The nouns an adjective measures, through WordNet's attribute relation of its {@value #SENSES} most frequent
     * senses, for any inflection: "heaviest" → [weight], "longest" → [length], "oldest" → [age]; empty for a word that
     * is no adjective or names no attribute.
     */
    public static synchronized List<String> attributesOf(String adjective) {
        return adjectiveTargets(adjective, Set.of(net.sf.extjwnl.data.PointerType.ATTRIBUTE), false);
    }

    /**
     * The nouns an adjective is made from, through WordNet's pertainym and derivation relations of its {@value #SENSES}
     * most frequent senses, with the other words of each noun's sense: "seismic" → [earthquake, quake, temblor, seism];
     * empty for a word that is no such adjective.
     */
    public static synchronized List<String> nounsOfAdjective(String adjective) {
        return adjectiveTargets(adjective, Set.of(net.sf.extjwnl.data.PointerType.PERTAINYM, net.sf.extjwnl.data.PointerType.DERIVATION),
                true);
    }

    /**
     * The one-word lemmas of the senses an adjective's usual senses (any inflection) point to by one of {@code kinds}, only
     * nouns when {@code nouns} is set.
     */
    private static List<String> adjectiveTargets(String adjective, Set<net.sf.extjwnl.data.PointerType> kinds, boolean nouns) {
        String w = adjective.toLowerCase(Locale.ROOT);
        Set<String> out = new LinkedHashSet<>();
        try {
            Set<String> bases = new LinkedHashSet<>(Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.ADJECTIVE, w));
            bases.add(w);
            for (String base : bases) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(POS.ADJECTIVE, base);
                for (Synset s : iw == null ? List.<Synset>of() : usual(iw)) {
                    for (net.sf.extjwnl.data.Pointer ptr : s.getPointers()) {
                        boolean wanted = kinds.contains(ptr.getType()) && (!nouns || ptr.getTargetPOS() == POS.NOUN);
                        for (Word x : wanted ? ptr.getTargetSynset().getWords() : List.<Word>of()) {
                            String lemma = x.getLemma().toLowerCase(Locale.ROOT);
                            if (lemma.matches("[a-z]+")) {
                                out.add(lemma);
                            }
                        }
                    }
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + adjective + "' failed: " + e.getMessage(), e);
        }
        return new ArrayList<>(out);
    }

    /**
     * A word's base form as a noun ("transactions" → transaction, "salary" → salary), or null when it is no noun or
     * is an inflected verb that no noun inflects to ("lent" is lend, not the season; "granted" is grant).
     */
    public static synchronized String nounBase(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        try {
            List<String> bases = Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.NOUN, w);
            boolean inflectedNoun = bases.stream().anyMatch(b -> !b.equalsIgnoreCase(w));
            boolean inflectedVerb = Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.VERB, w).stream()
                    .anyMatch(b -> !b.equalsIgnoreCase(w));
            if (bases.isEmpty() || inflectedVerb && !inflectedNoun) {
                return null;
            }
            return bases.stream().filter(b -> !b.equalsIgnoreCase(w)).findFirst().orElse(w).toLowerCase(Locale.ROOT);
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + word + "' failed: " + e.getMessage(), e);
        }
    }

    /**
     * Single-word nouns naming the sense of a noun that its context means, in WordNet's order, for rewording a
     * question without changing what it asks. The sense is the word's only noun sense, else the one whose gloss and
     * words share the most words (of four letters or more, compared by {@link Phrases#stem}) with {@code context} —
     * the dataset's own names and descriptions — and none when no sense shares any: "salary" → [wage, pay,
     * remuneration]; "district" beside "region" → [territory]; "account" in a bank's words is its bank-account sense,
     * which has no one-word synonym. The sense must be one of the word's {@value #SENSES} most frequent, and a
     * synonym counts only when the sense is its own most frequent one: "type" is never "eccentric".
     */
    public static synchronized List<String> nounSynonymsIn(String word, Set<String> context) {
        List<String> out = new ArrayList<>();
        try {
            IndexWord iw = Holder.DICTIONARY.lookupIndexWord(POS.NOUN, word.toLowerCase(Locale.ROOT));
            Synset sense = iw == null ? null : senseIn(iw, context);
            if (sense == null || !usual(iw).contains(sense)) {
                return out;
            }
            for (Word x : sense.getWords()) {
                String lemma = x.getLemma().toLowerCase(Locale.ROOT);
                IndexWord other = Holder.DICTIONARY.lookupIndexWord(POS.NOUN, lemma);
                if (lemma.matches("[a-z]+") && !lemma.equals(iw.getLemma()) && other != null
                        && other.getSenses().get(0).equals(sense) && !out.contains(lemma)) {
                    out.add(lemma);
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + word + "' failed: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * The one-word kinds of a noun (WordNet's direct hyponyms) in its {@value #SENSES} most frequent senses, any
     * inflection, each with the gloss of the sense it is a kind of: "leagues" → {division: "an association of sports
     * teams …", …}. Whether that sense is the one meant is for the caller to judge from the data's own words
     * ({@link #echoes}).
     */
    public static synchronized Map<String, String> kinds(String noun) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        try {
            for (String base : Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.NOUN, noun.toLowerCase(Locale.ROOT))) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(POS.NOUN, base);
                for (Synset s : iw == null ? List.<Synset>of() : usual(iw)) {
                    for (net.sf.extjwnl.data.Pointer p : s.getPointers(net.sf.extjwnl.data.PointerType.HYPONYM)) {
                        for (Word x : p.getTargetSynset().getWords()) {
                            String lemma = x.getLemma().toLowerCase(Locale.ROOT);
                            if (lemma.matches("[a-z]+")) {
                                out.putIfAbsent(lemma, s.getGloss());
                            }
                        }
                    }
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + noun + "' failed: " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * The nouns WordNet derives from a verb's {@value #SENSES} most frequent senses, any inflection, then from the verbs
     * they cause: "generate" → [generation, generator], "died" → [death, …], "killed" → [killing, …, death]. Empty for a
     * word that is no verb.
     */
    public static synchronized List<String> nounsOfVerb(String verb) {
        Set<String> out = new LinkedHashSet<>();
        try {
            for (String base : Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.VERB, verb.toLowerCase(Locale.ROOT))) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(POS.VERB, base);
                List<Synset> senses = iw == null ? List.of() : usual(iw);
                List<Synset> caused = new ArrayList<>(); // "kill" causes "die": its nouns (death) come after the verb's own
                for (Synset s : senses) {
                    for (net.sf.extjwnl.data.Pointer p : s.getPointers(net.sf.extjwnl.data.PointerType.CAUSE)) {
                        caused.add(p.getTargetSynset());
                    }
                }
                for (Synset s : concat(senses, caused)) {
                    for (net.sf.extjwnl.data.Pointer p : s.getPointers(net.sf.extjwnl.data.PointerType.DERIVATION)) {
                        if (p.getTargetPOS() == POS.NOUN && p.getTarget() instanceof Word x
                                && x.getLemma().toLowerCase(Locale.ROOT).matches("[a-z]+")) {
                            out.add(x.getLemma().toLowerCase(Locale.ROOT));
                        }
                    }
                }
            }
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + verb + "' failed: " + e.getMessage(), e);
        }
        return new ArrayList<>(out);
    }

    private static List<Synset> concat(List<Synset> a, List<Synset> b) {
        List<Synset> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Whether a gloss has a word of four letters or more, other than {@code word}, among {@code context} (by stem). */
    public static boolean echoes(String gloss, String word, Set<String> context) {
        Set<String> ctx = new java.util.HashSet<>();
        context.forEach(c -> ctx.add(Phrases.stem(c.toLowerCase(Locale.ROOT))));
        for (String w : gloss.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
            if (w.length() >= 4 && !Phrases.stem(w).equals(Phrases.stem(word)) && ctx.contains(Phrases.stem(w))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether one of the {@value #SENSES} most frequent senses of a noun (any inflection) falls under a sense one of whose
     * words is in {@code kinds}, within {@code depth} steps up WordNet's hypernyms, without passing a sense one of whose
     * words is in {@code stops} first: "matches" is under contest, "victims" under person; "wins" passes victory.
     */
    public static synchronized boolean under(String noun, Set<String> kinds, Set<String> stops, int depth) {
        try {
            Set<String> bases = new LinkedHashSet<>(Holder.DICTIONARY.getMorphologicalProcessor().lookupAllBaseForms(POS.NOUN,
                    noun.toLowerCase(Locale.ROOT)));
            for (String base : bases) {
                IndexWord iw = Holder.DICTIONARY.lookupIndexWord(POS.NOUN, base);
                if (iw != null) {
                    for (Synset s : usual(iw)) {
                        if (reaches(s, kinds, stops, depth)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        } catch (JWNLException e) {
            throw new IllegalStateException("WordNet lookup of '" + noun + "' failed: " + e.getMessage(), e);
        }
    }

    private static boolean reaches(Synset s, Set<String> kinds, Set<String> stops, int depth) throws JWNLException {
        for (net.sf.extjwnl.data.Pointer p : s.getPointers(net.sf.extjwnl.data.PointerType.HYPERNYM)) {
            Synset up = p.getTargetSynset();
            List<String> words = up.getWords().stream().map(w -> w.getLemma().toLowerCase(Locale.ROOT)).toList();
            if (words.stream().anyMatch(stops::contains)) {
                continue;
            }
            if (words.stream().anyMatch(kinds::contains) || depth > 1 && reaches(up, kinds, stops, depth - 1)) {
                return true;
            }
        }
        return false;
    }

    /** The noun's sense its context means (see {@link #nounSynonymsIn}), or null. */
    private static Synset senseIn(IndexWord iw, Set<String> context) {
        List<Synset> senses = iw.getSenses();
        if (senses.size() == 1) {
            return senses.get(0);
        }
        Set<String> ctx = new java.util.HashSet<>();
        context.forEach(c -> ctx.add(Phrases.stem(c.toLowerCase(Locale.ROOT))));
        ctx.remove(Phrases.stem(iw.getLemma()));
        Synset best = null;
        int bestOverlap = MIN_OVERLAP - 1;
        boolean tied = false;
        for (Synset s : senses) {
            Set<String> words = new java.util.HashSet<>();
            for (String w : (s.getGloss() + " " + String.join(" ", s.getWords().stream().map(Word::getLemma).toList()))
                    .toLowerCase(Locale.ROOT).split("[^a-z]+")) {
                if (w.length() >= 4) {
                    words.add(Phrases.stem(w));
                }
            }
            words.retainAll(ctx);
            if (words.size() > bestOverlap) {
                best = s;
                bestOverlap = words.size();
                tied = false;
            } else if (words.size() == bestOverlap) {
                tied = true;
            }
        }
        return tied ? null : best;
    }

    private static List<Synset> usual(IndexWord iw) {
        List<Synset> senses = iw.getSenses();
        return senses.subList(0, Math.min(SENSES, senses.size()));
    }
}
