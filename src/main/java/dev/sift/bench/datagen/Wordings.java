package dev.sift.bench.datagen;

import java.util.List;
import java.util.Locale;

/**
 * How generated questions are worded. Every draft has three wordings, reported apart by {@code bench run}:
 * {@code plain} (the template's direct form), {@code reordered} (another sentence frame: the clause first, "what is
 * the number of" for "how many") and {@code synonyms} (the nouns replaced by the knowledge graph's synonyms of the
 * table, aggregate words by their English synonyms: mean for average, maximum for highest); and, where WordNet has a
 * synonym of the most frequent sense of a noun naming the data, {@code wordnet} ({@link LexicalWording}).
 */
final class Wordings {
    /** The wordings every draft has. */
    static final List<String> LABELS = List.of("plain", "reordered", "synonyms");
    /** The plain wording with the data's nouns replaced by WordNet synonyms, when it has any. */
    static final String WORDNET = "wordnet";

    /** An aggregate: its SQL function, its plain word and its synonym. */
    record Aggregate(String sql, String word, String synonym, boolean numericScoring) { }

    static final List<Aggregate> AGGREGATES = List.of(
            new Aggregate("avg", "average", "mean", true),
            new Aggregate("sum", "total", "sum of the", false),
            new Aggregate("max", "highest", "maximum", false),
            new Aggregate("min", "lowest", "minimum", false));

    private Wordings() { }

    /** The table's rows under their synonym, else under their usual name. */
    static String other(Inventory.Table t) {
        return t.synonym() != null ? t.synonym() : t.plural();
    }

    static String capital(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** A number as a person writes it in a question: no trailing zeros, no exponent. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** A round threshold near {@code v}: two significant digits ("about the median" without its decimals). */
    static double round(double v) {
        if (v == 0) {
            return 0;
        }
        double scale = Math.pow(10, Math.floor(Math.log10(Math.abs(v))) - 1);
        return Math.round(v / scale) * scale;
    }
}
