package dev.sift.planner.rules;

import dev.sift.knowledge.RowNouns;

import java.util.ArrayList;
import java.util.List;

/**
 * "Jobs with zero women", "jobs that had no women at all" in a table of counts of people (a count column beside the values
 * that say whose count it is):
 * the rows of that value whose count is 0, one condition on the count read beside the value's own ("with any women": above 0).
 */
final class ZeroCounted {
    private ZeroCounted() { }

    /**
     * {@code toks} with each "zero" or "no" before a value of a table of counts of people read as that count equal to 0, and each
     * "any" as that count above 0.
     */
    static List<Tok> merge(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = nonZero(toks, lexicon);
        for (int i = 0; i + 1 < out.size(); i++) {
            boolean any = out.get(i).is("any"); // "the first year with any women lawyers": a count above 0
            if (!out.get(i).is("zero", "no") && !any || !(out.get(i + 1).sense() instanceof Sense.Cond c)) {
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

    /**
     * "The smallest non-zero count", "the fewest non-zero number of women": the number said, or the count of people the
     * value after it is counted by, above 0; read as a condition right after what it is said of, so the ranking still
     * meets its number.
     */
    private static List<Tok> nonZero(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 2 < out.size(); i++) {
            if (!out.get(i).is("non") || !out.get(i + 1).is("zero")) {
                continue;
            }
            for (int j = i + 2; j < Math.min(out.size(), i + 5); j++) {
                Sense s = out.get(j).sense();
                var count = s instanceof Sense.Attr a && a.numeric() && !a.date() ? java.util.Optional.of(a)
                        : s instanceof Sense.Cond c ? RowNouns.peopleCount(lexicon.graph().columns(c.table())).map(Lexicon::attr)
                                .filter(p -> !c.sql().startsWith(p.sql())) : java.util.Optional.<Sense.Attr>empty();
                if (s != null) {
                    if (count.isPresent()) {
                        String sql = count.get().sql() + " > 0";
                        out.add(j + 1, new Tok(out.get(i).text() + "-" + out.get(i + 1).text(), List.of("non", "zero"),
                                new Sense.Cond(count.get().table(), sql, sql + " (non-zero)")));
                        out.subList(i, i + 2).clear();
                    }
                    break;
                }
            }
        }
        return out;
    }
}
