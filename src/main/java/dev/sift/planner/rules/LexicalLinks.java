package dev.sift.planner.rules;

import dev.sift.knowledge.Phrases;
import dev.sift.knowledge.Thesaurus;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Relates a question's words that the dataset does not name to words it does, through WordNet 3.1
 * ({@link Thesaurus}): first the base form ("IDs" → id, so "account IDs" is the phrase "account id"; "lived" → live),
 * kept only when it completes a phrase of the dataset or is a word the parser reads as filler; then, for a word
 * still unnamed, its synonyms ("customers" → client), kept only when exactly one reading of the dataset comes out of
 * them all. Each link is said in "Read as"; a word with no link, or with synonyms that name different things, stays
 * unmapped and the question is asked back.
 */
final class LexicalLinks {
    private static final Vocabulary V = Vocabulary.WORDS;
    private static final Set<String> KNOWN = V.allWords();

    /** The phrase matcher, rerun after base forms replace words. */
    interface Matcher {
        void match(List<String> words, List<String> shown, Tok[] at, int[] span);
    }

    private final Lexicon lexicon;
    private final List<String> readings = new ArrayList<>();

    LexicalLinks(Lexicon lexicon) {
        this.lexicon = lexicon;
    }

    List<String> readings() {
        return List.copyOf(readings);
    }

    /** A word WordNet may relate: letters only, three or more, in no word list of the planner. */
    static boolean open(String word) {
        return word.length() >= 3 && word.chars().allMatch(Character::isLetter) && !KNOWN.contains(word);
    }

    /** Relates the open words in place: {@code words}, {@code at} and {@code span} as {@link Reader#match} fills them. */
    void relate(List<String> words, List<String> shown, Tok[] at, int[] span, Matcher matcher) {
        baseForms(words, shown, at, span, matcher);
        Reader.open(words, span).forEach(i -> synonym(words, shown, at, span, i));
    }

    private void baseForms(List<String> words, List<String> shown, Tok[] at, int[] span, Matcher matcher) {
        Map<Integer, String> base = new TreeMap<>();
        Reader.open(words, span).forEach(i -> Thesaurus.lemmas(shown.get(i)).stream().map(Phrases::key)
                .filter(k -> !k.isEmpty() && !k.contains(" ") && !k.equals(words.get(i))).findFirst()
                .ifPresent(k -> base.put(i, k)));
        if (base.isEmpty()) {
            return;
        }
        List<String> original = List.copyOf(words);
        base.forEach(words::set);
        matcher.match(words, shown, at, span);
        boolean reverted = false;
        for (Map.Entry<Integer, String> b : base.entrySet()) {
            int i = b.getKey();
            if (span[i] != 0 || V.has(b.getValue(), "filler.function", "filler.stop", "relation_words", "transaction_verbs", "key_words")) {
                readings.add("'" + shown.get(i) + "' read as '" + b.getValue() + "' (its base form in WordNet 3.1)");
            } else {
                words.set(i, original.get(i));
                reverted = true;
            }
        }
        if (reverted) {
            matcher.match(words, shown, at, span);
        }
    }

    /**
     * The one reading of the dataset the word's synonyms name, or else the one table or column its kinds name where the
     * sense they are kinds of is echoed by the words of that table ("league" → division, a kind of league, in a table of
     * teams; never a value: "books" is no capital city), or else the number column its noun names when it is a verb;
     * nothing when none or several readings come out. A word of the names of several columns ("transfers" of
     * Transfers_from_… and Transfers_to_…) is the data's own word said short, and is left for the question back.
     */
    private void synonym(List<String> words, List<String> shown, Tok[] at, int[] span, int i) {
        String stem = Phrases.stem(words.get(i));
        if (lexicon.graph().entries(dev.sift.knowledge.KgEntry.Column.class).stream().filter(c -> dev.sift.knowledge.NameWords
                .split(c.name()).stream().anyMatch(w -> Phrases.stem(w).equals(stem))).limit(2).count() > 1) {
            return;
        }
        if (link(words, shown, at, span, i, Thesaurus.synonyms(shown.get(i)), (syn, s) -> true, "a synonym")) {
            return;
        }
        Map<String, String> kinds = Thesaurus.kinds(shown.get(i));
        if (link(words, shown, at, span, i, List.copyOf(kinds.keySet()), (kind, s) -> (s instanceof Sense.Attr || s instanceof Sense.Entity)
                && Thesaurus.echoes(kinds.get(kind), words.get(i), lexicon.graph().ownWords(table(s))), "a kind of " + words.get(i))) {
            return;
        }
        // "generate" → the number column generation, "died" → deaths: what a verb does, counted in a column or in the rows
        // of a table of such events ("killed" → the rows of a table of deaths)
        if (link(words, shown, at, span, i, Thesaurus.nounsOfVerb(shown.get(i)), (noun, s) -> s instanceof Sense.Attr a && a.numeric()
                || s instanceof Sense.Entity e && dev.sift.knowledge.RowNouns.occurrences(lexicon.graph().columns(e.table()))
                .contains(Phrases.key(noun)), "the noun of " + words.get(i))) {
            return;
        }
        // "seismic" is made from "earthquake": in a table of earthquakes it names those rows, and nothing more
        link(words, shown, at, span, i, Thesaurus.nounsOfAdjective(shown.get(i)), (noun, s) -> s instanceof Sense.Entity,
                "the noun of " + words.get(i));
    }

    /**
     * Reads each verb of money no phrase matched ("owes", and "spent", which a table of orders reads as its own verb
     * where no noun below names a column) as the number column the first of its nouns the data names
     * ({@link dev.sift.knowledge.NameWords#moneyNouns}: "spent" → disbursements, "owes" → debts).
     */
    void amounts(List<String> words, List<String> shown, Tok[] at, int[] span) {
        for (int i = 0; i < words.size(); i++) {
            if (span[i] == 0) {
                money(words, shown, at, span, i);
            }
        }
    }

    /** One verb of money; true when one of its nouns is named in the data, linked or not. */
    private boolean money(List<String> words, List<String> shown, Tok[] at, int[] span, int i) {
        List<String> forms = new ArrayList<>(List.of(words.get(i)));
        forms.addAll(Thesaurus.lemmas(shown.get(i)).stream().map(Phrases::key).toList());
        for (String noun : dev.sift.knowledge.NameWords.moneyNouns(forms)) {
            Optional<Sense> s = own(words, at, noun).or(() -> lexicon.sense(Phrases.words(noun)));
            if (s.isEmpty()) {
                continue;
            }
            if (s.get() instanceof Sense.Attr a && a.numeric() && !a.date()) {
                at[i] = new Tok(shown.get(i), List.of(words.get(i)), a);
                span[i] = 1;
                if (i > 0 && span[i - 1] == 0 && at[i - 1] == null && V.has(words.get(i - 1), "amount_nouns")) {
                    at[i - 1] = new Tok(shown.get(i - 1) + " " + shown.get(i), List.of(words.get(i - 1), words.get(i)), a);
                    span[i - 1] = 2; // "the total amount spent": the amount is what the verb moves
                }
                readings.add("'" + shown.get(i) + "' read as '" + noun + "' (the amount it moves)");
            }
            return true;
        }
        return false;
    }

    /**
     * "Candidates lent money to their own campaigns": where "own" is said, the one column whose name holds both the verb's
     * noun ("loans") and the word the question calls the rows by ("candidates"): Loans_from_Candidate, not Other_Loans.
     * "own" is then read; empty when no one column is so named.
     */
    private Optional<Sense> own(List<String> words, Tok[] at, String noun) {
        int own = words.indexOf("own");
        java.util.Map<String, java.util.Set<String>> rows = new java.util.HashMap<>(); // table → the words naming its rows
        for (Tok t : own < 0 ? new Tok[0] : at) {
            if (t != null && t.sense() instanceof Sense.Entity e) {
                t.words().forEach(w -> rows.computeIfAbsent(e.table(), k -> new java.util.HashSet<>()).add(Phrases.stem(w)));
            }
        }
        List<Sense.Attr> theirs = lexicon.graph().entries(dev.sift.knowledge.KgEntry.Column.class).stream()
                .filter(c -> rows.containsKey(c.table())).filter(c -> {
                    List<String> name = dev.sift.knowledge.NameWords.split(c.name()).stream()
                            .map(x -> Phrases.stem(x.toLowerCase(java.util.Locale.ROOT))).filter(x -> !V.has(x, "filler.base", "filler.stop")).toList();
                    return name.contains(Phrases.stem(noun)) && name.stream().anyMatch(rows.get(c.table())::contains) // nothing more:
                            && name.stream().allMatch(x -> x.equals(Phrases.stem(noun)) || rows.get(c.table()).contains(x)); // not …_Repayments
                }).map(Lexicon::attr).toList();
        if (theirs.size() != 1) {
            return Optional.empty();
        }
        words.set(own, "their"); // "their own": the rows' own column, said
        return Optional.of(theirs.get(0));
    }

    /** The table a settled reading is of. */
    private static String table(Sense s) {
        return s instanceof Sense.Entity e ? e.table() : s instanceof Sense.Attr a ? a.table() : s instanceof Sense.Cond c ? c.table()
                : null; // a metric: the words of every table
    }

    /**
     * Links word {@code i} to the one settled reading its {@code related} words name (those {@code fits} accepts); false
     * when none is linked.
     */
    private boolean link(List<String> words, List<String> shown, Tok[] at, int[] span, int i, List<String> related,
                         java.util.function.BiPredicate<String, Sense> fits, String how) {
        Set<Sense> found = new LinkedHashSet<>();
        String via = null;
        for (String syn : related) {
            List<String> ws = Phrases.words(syn);
            if (ws.isEmpty() || Phrases.onlyStopWords(ws) || ws.stream().anyMatch(KNOWN::contains)) {
                continue;
            }
            Optional<Sense> s = lexicon.sense(ws);
            if (s.isPresent() && settled(s.get()) && fits.test(syn, s.get())) {
                found.add(s.get());
                via = via == null ? syn : via;
            } else if (s.isPresent() && !settled(s.get())) {
                return true; // a related word with an unsettled reading: not a link to rely on, nor a reason to look further
            }
        }
        if (found.size() == 1) {
            at[i] = new Tok(shown.get(i), List.of(words.get(i)), found.iterator().next());
            span[i] = 1;
            readings.add("'" + shown.get(i) + "' read as '" + via + "' (" + how + " in WordNet 3.1)");
        }
        return !found.isEmpty();
    }

    private static boolean settled(Sense s) {
        return s instanceof Sense.Entity || s instanceof Sense.Attr || s instanceof Sense.Cond || s instanceof Sense.Measure;
    }
}
