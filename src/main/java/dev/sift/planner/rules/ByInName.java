package dev.sift.planner.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * A column named with "by" at its end (Debts_Owed_By) said right before another column: "average debts owed by party"
 * says "by" once for both, so the column's name keeps it and the grouping gets it too. Only when the question says
 * "by" nowhere else and the column after it is not a number (a grouping, not a second measure).
 */
final class ByInName {
    private ByInName() { }

    static List<Tok> merge(List<Tok> toks) {
        for (int i = 0; i + 1 < toks.size(); i++) {
            List<String> w = toks.get(i).words();
            if (toks.get(i).sense() instanceof Sense.Attr && w.size() > 1 && w.get(w.size() - 1).equals("by")
                    && toks.get(i + 1).sense() instanceof Sense.Attr next && !next.numeric()
                    && toks.stream().noneMatch(t -> t.is("by", "per"))) {
                List<Tok> out = new ArrayList<>(toks);
                out.add(i + 1, new Tok("by", List.of("by"), null));
                return out;
            }
        }
        return toks;
    }
}
