package dev.sift.planner.rules;

/**
 * "Which state has the most counties?", "Which cluster has the most countries?": groups of one column ranked by how
 * many different values of a text column each holds, not by rows. Read where the question opens with the grouping
 * column and "the most" (or "the fewest") stands right before a text column of the same table.
 */
final class DistinctRanking {
    private DistinctRanking() { }

    /** Turns "which X has the most Ys" into X ranked by its number of different Ys; false when the question does not read so. */
    static boolean read(ParseState w) {
        if (w.ranking != null && w.ranking.target instanceof Ranking.Target.Values v && w.ranking.order instanceof Ranking.Order.ByColumn c
                && !c.attr().numeric() && !c.attr().date() && !c.attr().equals(v.attr()) && w.agg == null && w.change == null) {
            for (int i = 1; i < w.toks.size(); i++) { // "which 3 states have the fewest cities": the ranking read the column
                if (c.attr().equals(w.toks.get(i).sense()) && w.toks.get(i - 1).is("most", "fewest", "least")) {
                    w.agg = "distinct";
                    w.readings.add("'the " + w.toks.get(i - 1).text() + " " + w.toks.get(i).text() + "' → the number of different "
                            + c.attr().name() + " of each " + v.attr().name());
                    return true;
                }
            }
            return false;
        }
        if (w.change != null || w.columns.size() != 1 || w.measure == null || w.measureTok == null || w.group != null
                || w.ranking != null || w.agg != null || w.metric != null) {
            return false;
        }
        Sense.Attr by = w.columns.get(0);
        Sense.Attr counted = w.measure;
        int at = w.toks.indexOf(w.measureTok);
        Ranking r = Ranking.detect(w.toks);
        if (by.date() || counted.numeric() || counted.date() || counted.equals(by) || !counted.table().equals(by.table())
                || r == null || at < 1 || !w.toks.get(at - 1).is("most", "fewest", "least")) {
            return false;
        }
        w.columns.clear();
        w.ranking = r;
        w.ranking.target = new Ranking.Target.Values(by);
        w.ranking.order = new Ranking.Order.ByColumn(counted);
        w.agg = "distinct";
        w.readings.add("'the " + w.toks.get(at - 1).text() + " " + w.measureTok.text() + "' → the number of different "
                + counted.name() + " of each " + by.name());
        return true;
    }
}
