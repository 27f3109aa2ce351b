package dev.sift.planner.rules;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A numeric column named by a word the parser reads itself ("count" in a table of job, sex, year and count): said after an
 * aggregate or an end of an order ("the median count", "the single largest count", "the smallest non-zero count")
 * or before a value ("a count of zero"), the word names the column; elsewhere it stays the parser's ("the count of
 * women", "how many").
 */
final class WordColumns {
    private static final Vocabulary V = Vocabulary.WORDS;
    /**
     * The parser's words read so. Not "number" (a column "number" is most often a label, and "the average number of goals"
     * counts) nor "total" ("the largest total amount" names another column).
     */
    private static final List<String> WORDS = List.of("count");

    private WordColumns() { }

    /** {@code toks} with each such word read as the column it names. */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 1; i < out.size(); i++) {
            Tok t = out.get(i);
            if (!t.plain() || !WORDS.contains(t.word())) {
                continue;
            }
            Optional<Sense.Attr> column = named(t.word(), lexicon);
            if (column.isEmpty()) {
                continue;
            }
            int b = i >= 3 && out.get(i - 1).is("zero") && out.get(i - 2).is("non") ? i - 3 : i - 1; // "the smallest non-zero count"
            Tok before = out.get(b);
            if (before.plain() && V.has(before.word(), "aggregates", "descending", "ascending") && !before.is(t.word())) {
                out.set(i, new Tok(t.text(), t.words(), column.get()));
            } else if (i + 2 < out.size() && out.get(i + 1).is("of") && value(out.get(i + 2)) != null) {
                String sql = column.get().sql() + " = " + value(out.get(i + 2));
                Tok.replaceRun(out, i, i + 3, new Sense.Cond(column.get().table(), sql, sql));
            }
        }
        return out;
    }

    /** The one numeric column, not a key, named exactly {@code word}. */
    private static Optional<Sense.Attr> named(String word, Lexicon lexicon) {
        List<KgEntry.Column> named = lexicon.graph().entries(KgEntry.Column.class).stream()
                .filter(c -> c.name().equalsIgnoreCase(word) && !c.key()).toList();
        return named.size() == 1 ? Optional.of(Lexicon.attr(named.get(0))).filter(a -> a.numeric() && !a.date()) : Optional.empty();
    }

    /** The whole number a token says ("0", "zero"), or null. */
    private static String value(Tok t) {
        return t.is("zero", "none") ? "0" : t.number() && !t.word().contains(".") ? t.word() : null;
    }
}
