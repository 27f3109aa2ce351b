package dev.sift.planner.rules;

import dev.sift.knowledge.RowNouns;

import java.util.ArrayList;
import java.util.List;

/**
 * "Jobs with zero women" in a table of counts of people (a count column beside the values that say whose count it is):
 * the rows of that value whose count is 0, one condition on the count read beside the value's own ("with any women": above 0).
 */
final class ZeroCounted {
    private ZeroCounted() { }

    /**
     * {@code toks} with each "zero" before a value of a table of counts of people read as that count equal to 0, and each
     * "any" as that count above 0.
     */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 1 < out.size(); i++) {
            boolean any = out.get(i).is("any"); // "the first year with any women lawyers": a count above 0
            if (!out.get(i).is("zero") && !any || !(out.get(i + 1).sense() instanceof Sense.Cond c)) {
                continue;
            }
            var count = RowNouns.peopleCount(lexicon.graph().columns(c.table())).map(Lexicon::attr);
            if (count.isEmpty() || c.sql().startsWith(count.get().sql())) {
                continue;
            }
            String sql = count.get().sql() + (any ? " > 0" : " = 0");
            out.set(i, new Tok(out.get(i).text() + " " + out.get(i + 1).text(), out.get(i).words(),
                    new Sense.Cond(c.table(), sql, sql + (any ? " (some counted)" : " (none counted)"))));
        }
        return out;
    }
}
