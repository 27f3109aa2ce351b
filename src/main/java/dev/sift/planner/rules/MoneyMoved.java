package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;

/**
 * "Which candidates lent money to their own campaigns?", "How many candidates spent money?": a verb of money said of
 * the rows, with no amount, ranking or comparison asked, picks the rows that moved any (the column above 0), never
 * every row with its amount.
 */
final class MoneyMoved {
    private static final Vocabulary V = Vocabulary.WORDS;

    private MoneyMoved() { }

    /** {@code toks} with such a verb's column read as the condition "above 0". */
    static List<Tok> merge(List<Tok> toks) {
        boolean asksRows = !toks.isEmpty() && (toks.get(0).is("which", "who") || toks.size() > 1 && toks.get(0).is("how")
                && toks.get(1).is("many"));
        boolean amount = toks.stream().anyMatch(t -> t.sense() instanceof Sense.Compare || Ranking.extreme(t)
                || t.plain() && (V.map("aggregates").containsKey(t.word()) || t.is("much", "nothing", "zero", "than"))); // "more than they took in"
        if (!asksRows || amount) {
            return toks;
        }
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 1; i < out.size(); i++) {
            Tok t = out.get(i);
            if (out.get(i - 1).sense() instanceof Sense.Entity e && t.sense() instanceof Sense.Attr a && a.table().equals(e.table())
                    && MeasureWords.moneyVerb(t)) {
                String sql = a.sql() + " > 0";
                out.set(i, new Tok(t.text(), t.words(), new Sense.Cond(a.table(), sql, sql + " ('" + t.text() + "' any)")));
            }
        }
        return out;
    }
}
