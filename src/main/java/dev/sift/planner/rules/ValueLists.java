package dev.sift.planner.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Values said as a list: "in Compton or Watts", "compare floods and earthquakes", "were there more male or female
 * secretaries", "the ci and nc networks" — one condition keeping each of them, in the column they share.
 */
final class ValueLists {
    private ValueLists() { }

    /**
     * "the ci and nc networks": the option in the column named right after a second value that follows "and" or "or",
     * when that value can be in that column too; null otherwise.
     */
    static Sense.Cond sharedColumn(ParseState w, int i, Sense.Values v) {
        if (i + 3 >= w.toks.size() || !w.toks.get(i + 1).is("and", "or") || !(w.toks.get(i + 3).sense() instanceof Sense.Attr a)) {
            return null;
        }
        Sense second = w.toks.get(i + 2).sense();
        boolean fits = second instanceof Sense.Cond c && c.column().equals(a.sql())
                || second instanceof Sense.Values o && o.options().stream().anyMatch(c -> c.column().equals(a.sql()));
        List<Sense.Cond> in = v.options().stream().filter(c -> c.column().equals(a.sql())).toList();
        return fits && in.size() == 1 ? in.get(0) : null;
    }

    /**
     * "compare earthquakes, explosions and quarry blasts": a value right after another of its column, in a question that
     * compares and lists them with "and" later, is one more of the list (the comma between them is not a word).
     */
    static boolean listedBefore(ParseState w, Sense.Cond c) {
        if (!compares(w) || w.at == 0 || !(w.toks.get(w.at - 1).sense() instanceof Sense.Cond before)
                || !before.sql().matches("(?s).+ = '.*'") || !c.sql().matches("(?s).+ = '.*'") || !before.column().equals(c.column())) {
            return false;
        }
        return w.toks.subList(w.at + 1, w.toks.size()).stream().anyMatch(k -> k.is("and"));
    }

    /** Whether "compare" opens the question ("could you compare …" too). */
    private static boolean compares(ParseState w) {
        return w.toks.subList(0, w.at).stream().anyMatch(k -> k.is("compare"));
    }

    /** "or": either of two values of one column ("in Compton or Watts"); between other conditions, a question back. */
    static boolean or(ParseState w, Tok t) throws Unreadable {
        if ((t.is("or") || t.is("and") && (!w.columns.isEmpty() || compares(w))) && betweenValues(w)) {
            return w.orPending = true; // "Compare floods and earthquakes", "the X of A and B": each value (ShapeRules)
        }
        if (t.is("or") && w.at > 0 && w.toks.get(w.at - 1).sense() instanceof Sense.Cond && w.at >= 2
                && w.toks.get(w.at - 2).is("more", "fewer", "less") && w.at + 1 < w.toks.size()
                && w.toks.get(w.at + 1).sense() instanceof Sense.Cond) {
            w.comparedValues = true; // "were there more male or female secretaries": each value's figure, side by side
            return w.orPending = true;
        }
        if (t.is("or") && w.toks.stream().anyMatch(k -> k.sense() instanceof Sense.Cond || k.sense() instanceof Sense.Compare
                || k.sense() instanceof Sense.Dates)) {
            throw new Unreadable("I combine conditions with 'and' only, and this question says 'or'");
        }
        return false;
    }

    /**
     * Whether the word read ("or") stands between two values, the first of a text column, in a question that compares
     * nothing: "in Compton or Watts".
     */
    static boolean betweenValues(ParseState w) {
        int next = w.at + 1 < w.toks.size() && w.toks.get(w.at + 1).is("the") ? w.at + 2 : w.at + 1; // "the deer and the bullfrog"
        return w.toks.stream().noneMatch(k -> k.plain() && dev.sift.knowledge.Vocabulary.WORDS.has(k.word(), "comparatives")) // "which has more: X or Y" compares
                && w.at > 0 && (w.toks.get(w.at - 1).sense() instanceof Sense.Cond c && c.sql().matches("(?s).+ = '.*'")
                || w.toks.get(w.at - 1).sense() instanceof Sense.Values) // "the ci and nc networks": values of several columns
                && next < w.toks.size() && (w.toks.get(next).sense() instanceof Sense.Cond || w.toks.get(next).sense() instanceof Sense.Values);
    }

    /**
     * A word right after a value, or after it and "or", is another value of its column when the column holds it as
     * written ("status C, O", "status C or O"): one-letter codes are found nowhere else.
     */
    static List<Tok> afterValue(List<Tok> toks, Lexicon lexicon) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 1 < out.size(); i++) {
            int at = out.get(i + 1).is(",", "or") ? i + 2 : i + 1;
            Tok v = at < out.size() ? out.get(at) : null;
            if (!(out.get(i).sense() instanceof Sense.Cond c) || !c.sql().contains(" = ") || v == null || v.sense() != null || v.number()) {
                continue;
            }
            Optional<Sense.Cond> value = lexicon.columnOf(c.table(), c.column()).map(Lexicon::attr)
                    .flatMap(a -> lexicon.valueOf(a, v.text()));
            if (value.isPresent()) {
                out.set(at, new Tok(v.text(), v.words(), value.get()));
            }
        }
        return out;
    }
}
