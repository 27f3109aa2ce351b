package dev.sift.planner.rules;

/**
 * "Which source grew the most between 2001 and 2017?", "Which country's life expectancy went up the most from 1955 to
 * 2005?": a change between two years asked of each value of a text column, the largest first. The column the question
 * opens with becomes the grouping of the change ({@link QuerySpec.Shape#CHANGE} with a group); its number is the one
 * named, else the table's one amount. Only the largest changes are ranked ("the most"); "the least" is left as it was.
 */
final class ChangeRanking {
    private ChangeRanking() { }

    /** Turns "which X grew the most" into a change per X, ranked; false when the question does not read so. */
    static boolean read(ParseState w) {
        boolean head = w.columns.size() == 1 && w.ranking == null; // "which source grew …" lists its column; "which 2 sources" ranks
        if (w.change == null || w.group != null || !head && !(w.columns.isEmpty() && w.ranking != null
                && w.ranking.target instanceof Ranking.Target.Values)) {
            return false;
        }
        Sense.Attr by = head ? w.columns.get(0) : ((Ranking.Target.Values) w.ranking.target).attr();
        Ranking r = head ? Ranking.detect(w.toks) : w.ranking;
        if (by.numeric() || by.date() || r == null || !r.descending || w.measure != null && !w.measure.table().equals(by.table())) {
            return false;
        }
        w.columns.clear();
        w.group = by;
        w.ranking = r;
        if (r.order instanceof Ranking.Order.ByColumn c && w.measure == null) {
            w.measure = c.attr(); // "which 3 countries' population grew the most": the number the ranking was read by
        }
        w.ranking.order = null;
        w.readings.add("'" + (r.implicitOne ? "which" : "the top " + r.n) + " " + words(by) + " … the most' → the change of each "
                + by.name() + ", the largest first");
        return true;
    }

    private static String words(Sense.Attr a) {
        return a.column();
    }

    /** "grow", "fell", "went up": a change between two periods ({@link QuerySpec.Shape#CHANGE}). */
    static boolean verb(ParseState w, int i, Tok t) {
        String direction = dev.sift.knowledge.Vocabulary.WORDS.map("change_verbs").get(t.word());
        boolean upDown = t.is("go", "went", "gone") && i + 1 < w.toks.size() && w.toks.get(i + 1).is("up", "down");
        if (direction == null && !upDown) {
            return false;
        }
        w.change = upDown ? (w.toks.get(i + 1).is("up") ? "up" : "down") : direction;
        w.consumed = upDown ? i + 1 : w.consumed;
        w.readings.add("'" + t.text() + (upDown ? " " + w.toks.get(i + 1).text() : "") + "' → a change between two years");
        return true;
    }
}
