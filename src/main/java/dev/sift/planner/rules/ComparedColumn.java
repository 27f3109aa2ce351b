package dev.sift.planner.rules;

import dev.sift.knowledge.RowNouns;

/**
 * The number column a compared number names after it: "more than 100000 inhabitants", past values and people ("more than
 * 50000 earthquake deaths"), after "in" or "of" ("more than 10000 in receipts"); and where only people follow ("more than
 * 1000000 men"), the column saying how many people each row counts.
 */
final class ComparedColumn {
    private ComparedColumn() { }

    /** The column compared by the number at token {@code i}, or null; a column named after it is marked as read. */
    static Sense.Attr after(ParseState w, int i, Lexicon lexicon) {
        int j = i + 1;
        while (j + 1 < w.toks.size() && (w.toks.get(j).sense() instanceof Sense.Cond || w.toks.get(j).plain()
                && (RowNouns.people(w.toks.get(j).word()) || NumberUnits.percent(w.toks.get(j))))) {
            j++;
        }
        if (j == i + 1 && j + 1 < w.toks.size() && w.toks.get(j).is("in", "of") && PhraseRules.numericAttr(w.toks.get(j + 1)) != null) {
            j++;
        }
        if (j < w.toks.size() && PhraseRules.numericAttr(w.toks.get(j)) != null) {
            w.consumed = j;
            return PhraseRules.numericAttr(w.toks.get(j));
        }
        java.util.Optional<Tok> people = w.toks.subList(i + 1, j).stream().filter(k -> k.words().stream()
                .anyMatch(x -> RowNouns.sexNoun(x) || RowNouns.people(x))).findFirst();
        String table = w.base() != null ? w.base() : people.filter(k -> k.sense() instanceof Sense.Cond)
                .map(k -> ((Sense.Cond) k.sense()).table()).orElse(null); // "jobs with more than 1000000 men": the men's table
        return people.isPresent() && table != null ? RowNouns.peopleCount(lexicon.graph().columns(table)).map(Lexicon::attr).orElse(null) : null;
    }

    /** "at least magnitude 2 but under 3": the column of the comparison right before, for the other end of a range. */
    static Sense.Attr rangeEnd(ParseState w, int i, Lexicon lexicon) {
        if (i == 0 || !w.toks.get(i - 1).is("but", "and") || w.filters.isEmpty()) {
            return null;
        }
        QuerySpec.Filter last = w.filters.get(w.filters.size() - 1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.+?) (?:>=|>|<=|<) -?[\\d.]+$").matcher(last.sql());
        return m.matches() ? lexicon.columnOf(last.table(), m.group(1)).map(Lexicon::attr).filter(Sense.Attr::numeric).orElse(null) : null;
    }
}
