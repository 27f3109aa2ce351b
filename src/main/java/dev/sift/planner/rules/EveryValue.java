package dev.sift.planner.rules;

import dev.sift.data.Sql;

import java.util.ArrayList;
import java.util.List;

/**
 * "Men and women together", "both sexes": the values of one column said together, as the whole the question counts
 * rather than a breakdown by them or two values at once. Read as one condition keeping those values (every value, for
 * "both" of a column of two), so the rows picked otherwise ("how many teachers …") are counted across them.
 */
final class EveryValue {
    private static final dev.sift.knowledge.Vocabulary V = dev.sift.knowledge.Vocabulary.WORDS;
    /** The words that say two values are taken together. */
    private static final List<String> TOGETHER = List.of("together", "combined", "alike", "both");

    private EveryValue() { }

    /**
     * {@code toks} with "A and B together" (or "both A and B") and "both &lt;column of two values&gt;" read as one condition,
     * and "across &lt;column&gt;" in a question of one figure read as no condition on it.
     */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i < out.size(); i++) {
            Tok t = out.get(i);
            boolean bothBefore = i > 0 && out.get(i - 1).is("both");
            if (bothBefore && t.sense() instanceof Sense.Attr a && !a.numeric()) {
                List<String> values = lexicon.columnOf(a.table(), a.sql()).map(c -> c.values()).orElse(List.of());
                if (values.size() == 2) { // "both sexes"
                    String sql = a.sql() + " IN (" + Sql.quoteString(values.get(0)) + ", " + Sql.quoteString(values.get(1)) + ")";
                    Tok.replaceRun(out, i - 1, i + 1, new Sense.Cond(a.table(), sql, a.name() + " = '" + values.get(0) + "' or '" + values.get(1) + "' (" + t.text() + ")"));
                    i--;
                }
                continue;
            }
            int across = i - 1;
            while (across > 0 && out.get(across).is("all", "the")) {
                across--;
            }
            if (i > 0 && out.get(across).is("across") && t.sense() instanceof Sense.Attr a && !a.numeric() && !a.date() && overAll(out)) {
                out.set(across, new Tok(String.join(" ", out.subList(across, i + 1).stream().map(Tok::text).toList()), out.get(across).words(), null));
                out.subList(across + 1, i + 1).clear(); // "the median count across (all) occupations": one figure over them all, none picked
                i = across;
                continue;
            }
            if (i + 2 >= out.size() || !(t.sense() instanceof Sense.Cond a) || !out.get(i + 1).is("and")
                    || !(out.get(i + 2).sense() instanceof Sense.Cond b) || !a.sql().matches(".+ = '.*'")
                    || !b.sql().matches(".+ = '.*'") || !a.column().equals(b.column()) || a.sql().equals(b.sql())) {
                continue;
            }
            boolean after = i + 3 < out.size() && out.get(i + 3).plain() && TOGETHER.contains(out.get(i + 3).word());
            if (!after && !bothBefore) {
                continue;
            }
            String sql = a.column() + " IN (" + a.sql().substring(a.column().length() + 3) + ", " + b.sql().substring(b.column().length() + 3) + ")";
            int from = bothBefore ? i - 1 : i;
            Tok.replaceRun(out, from, after ? i + 4 : i + 3, new Sense.Cond(a.table(), sql, a.describe() + " or " + b.describe() + ", together"));
            i = from;
        }
        return out;
    }

    /** Whether a question asks one figure ("median", "average", "highest") and no breakdown or comparison. */
    private static boolean overAll(List<Tok> toks) {
        return toks.stream().anyMatch(k -> k.plain() && V.has(k.word(), "aggregates"))
                && toks.stream().noneMatch(k -> k.is("by", "per", "each", "vary", "varies", "compare", "compared", "differ", "differs", "between"));
    }
}
