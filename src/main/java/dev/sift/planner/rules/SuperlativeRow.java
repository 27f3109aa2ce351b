package dev.sift.planner.rules;

/**
 * "What's the deepest quake? Give the place and depth", "what's the most significant event": a superlative said of one
 * row of the measure's table (a singular noun right after it) asks for that row, ranked by the column the superlative
 * reads, with the columns the question names shown beside it — not for the extreme value alone.
 */
final class SuperlativeRow {
    private SuperlativeRow() { }

    /** Whether a token was said as a superlative ("deepest", "most significant"). */
    static boolean superlative(Tok t) {
        String said = t.text().toLowerCase(java.util.Locale.ROOT);
        return said.endsWith("est") || dev.sift.knowledge.Vocabulary.WORDS.map("most_adjectives").containsKey(said);
    }

    /** Whether the measure was read from a superlative said right before one row of its table ("the deepest quake"). */
    static boolean asked(ParseState w) {
        if (w.measure == null || w.measureTok == null || w.ranking != null || w.group != null) {
            return false;
        }
        int at = w.toks.indexOf(w.measureTok);
        boolean superlative = superlative(w.measureTok) && w.toks.subList(0, at).stream() // "how old (what age) was the
                .noneMatch(k -> w.measure.equals(k.sense()) && !k.text().equalsIgnoreCase(w.measureTok.text())); // youngest victim": the age
        int before = at - 1;
        while (before >= 0 && w.toks.get(before).text().equalsIgnoreCase(w.measureTok.text())) {
            before--; // "the deepest quake" is read "the quake with highest depth", each word shown as "deepest"
        }
        java.util.List<Tok> rows = new java.util.ArrayList<>();
        if (before < at - 1 && before >= 0) {
            rows.add(w.toks.get(before));
        }
        if (at + 1 < w.toks.size()) {
            rows.add(w.toks.get(at + 1));
        }
        return superlative && rows.stream().anyMatch(row -> row.sense() instanceof Sense.Entity e && e.table().equals(w.measure.table())
                && PhraseRules.singular(row));
    }

    /**
     * A column said after such a measure: shown with the row ("give the place and depth"), or the measure said again;
     * true when read so.
     */
    static boolean shown(ParseState w, Sense.Attr a) {
        if (w.measure == null || !asked(w)) {
            return false;
        }
        if (!a.equals(w.measure)) {
            w.columns.add(a);
        }
        return true;
    }

    /** Turns such a parse into a ranking of one row by the measure, the columns named shown with it; false otherwise. */
    static boolean read(ParseState w) {
        if (!asked(w) || !("max".equals(w.agg) || "min".equals(w.agg)) || w.toks.stream().anyMatch(t -> t.is("where", "when"))) {
            return false; // "where was the strongest quake": its place ({@link WhenExtreme})
        }
        w.ranking = Ranking.one("max".equals(w.agg));
        w.ranking.target = new Ranking.Target.Rows(w.measure.table(), null);
        w.ranking.order = new Ranking.Order.ByColumn(w.measure);
        w.columns.stream().filter(a -> !a.equals(w.measure)).forEach(w.ranking.shown::add);
        w.columns.clear();
        w.readings.add("'" + w.measureTok.text() + "' of one " + w.measure.table() + " row → that row, ranked by " + w.measure.name());
        w.agg = null;
        w.measure = null;
        return true;
    }
}
