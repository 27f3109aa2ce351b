package dev.sift.bench.datagen;

import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.Thesaurus;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code wordnet} wording: the plain question with the nouns that name the data (tables, columns) replaced by
 * a WordNet synonym of the sense the dataset's own words give them ({@link Thesaurus#nounSynonymsIn}): "What is the
 * average salary of districts?" → "What is the average wage of territories?". A word is left as it is when it is part
 * of a stored value, when its synonym already names something in the dataset or is a word of aggregation (sum,
 * total, mean, …), so the question asks what the plain one asks. Null when no word of a question has such a synonym.
 */
final class LexicalWording {
    /** Words a rewording must not bring in: they change what is aggregated or counted. */
    static final Set<String> AGGREGATE_WORDS = Set.of("sum", "total", "number", "count", "mean", "average", "median",
            "maximum", "minimum", "max", "min", "highest", "lowest", "share", "percentage", "rate");
    private static final Pattern WORD = Pattern.compile("\\p{L}+");

    /** Lower-case word of the data's names → its replacement (already inflected like the word). */
    private final Map<String, String> replacements = new HashMap<>();

    /** The replacements, sorted: what the wording changes in this dataset's questions. */
    Map<String, String> replacements() {
        return new java.util.TreeMap<>(replacements);
    }

    /** @param context the dataset's own words (names and descriptions), which tell a noun's sense */
    LexicalWording(Inventory inv, Set<String> context) {
        Set<String> named = new HashSet<>();
        Set<String> valueWords = new HashSet<>();
        for (Inventory.Table t : inv.tables()) {
            named.addAll(words(t.plural() + " " + t.singular() + " " + t.name() + " " + (t.synonym() == null ? "" : t.synonym())));
            t.categories().forEach(c -> {
                named.addAll(words(c.phrase()));
                c.values().forEach(v -> valueWords.addAll(words(v)));
            });
            t.measures().forEach(m -> named.addAll(words(m.phrase())));
            t.dates().forEach(d -> named.addAll(words(d.phrase())));
        }
        for (String w : named) {
            if (w.length() < 4 || valueWords.contains(w)) {
                continue;
            }
            String base = Thesaurus.nounBase(w);
            if (base == null) {
                continue;
            }
            for (String s : Thesaurus.nounSynonymsIn(base, context)) {
                if (!named.contains(s) && !valueWords.contains(s) && !AGGREGATE_WORDS.contains(s)) {
                    replacements.put(w, w.equals(base) ? s : plural(s));
                    break;
                }
            }
        }
    }

    /** The wording for a dataset, its nouns' senses told by the knowledge graph's names, synonyms and descriptions. */
    static LexicalWording of(Inventory inv, KnowledgeGraph kg) {
        return new LexicalWording(inv, kg.ownWords(null));
    }

    /** The question with every replaceable word replaced, or null when none is. */
    String reword(String plain) {
        Matcher m = WORD.matcher(plain);
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        while (m.find()) {
            String word = m.group();
            String r = replacements.get(word.toLowerCase(Locale.ROOT));
            if (r != null) {
                changed = true;
                m.appendReplacement(out, Matcher.quoteReplacement(Character.isUpperCase(word.charAt(0)) ? Wordings.capital(r) : r));
            }
        }
        m.appendTail(out);
        return changed ? out.toString() : null;
    }

    private static List<String> words(String phrase) {
        return WORD.matcher(phrase.toLowerCase(Locale.ROOT)).results().map(MatchResult::group).toList();
    }

    /** A regular English plural: territory → territories, class → classes, wage → wages. */
    static String plural(String noun) {
        if (noun.matches(".*[^aeiou]y")) {
            return noun.substring(0, noun.length() - 1) + "ies";
        }
        return noun.matches(".*(s|x|z|ch|sh)") ? noun + "es" : noun + "s";
    }
}
