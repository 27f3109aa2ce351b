package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

/** The words of a question asking for a percentage: whether it asks for one, and where its rows end and its conditions begin. */
final class ShareWords {
    private static final Vocabulary V = Vocabulary.WORDS;

    private ShareWords() { }

    /**
     * "What percentage of counties have …" where "counties" is a text column of the subject's table, named right after the
     * share word: the share is of that column's different values, not of rows (a county has a row for each species).
     */
    static Sense.Attr thingsCounted(ParseState w) {
        Sense.Attr m = w.measure;
        int at = w.toks.indexOf(w.measureTok);
        boolean named = at >= 2 && w.toks.get(at - 1).is("of") && w.toks.get(at - 2).plain() && V.has(w.toks.get(at - 2).word(), "share")
                || at >= 3 && w.toks.get(at - 1).is("the") && w.toks.get(at - 2).is("of") && V.has(w.toks.get(at - 3).word(), "share");
        return m != null && named && !m.numeric() && !m.date() && m.table().equals(w.subject) ? m : null;
    }

    /**
     * The token that splits the rows a share is of from its conditions: "among", or the main verb after the subject
     * ("of clients with a gold card | are women", "of female clients | live in Prague"); the verb of a relative clause
     * ("loans that are running") belongs to the rows. With no main verb, -1: every condition is the share's.
     */
    static int split(ParseState w) {
        int subjectAt = -1;
        boolean relative = false;
        for (int k = 0; k < w.toks.size(); k++) {
            Tok t = w.toks.get(k);
            if (t.is("among")) {
                return k;
            }
            boolean names = t.sense() instanceof Sense.Entity e && e.table().equals(w.subject)
                    || t.sense() instanceof Sense.Cond c && c.table().equals(w.subject) // "male clients"
                    || t.sense() instanceof Sense.Attr a && a.table().equals(w.subject); // "accounts opened (in 1993)"
            if (subjectAt < 0) {
                subjectAt = names ? k : -1;
                continue;
            }
            if (t.plain() && V.has(t.word(), "relative_words")) {
                relative = true;
            } else if (t.plain() && V.has(t.word(), "share_splits", "relation_words") || t.sense() instanceof Sense.Via) {
                // a participle after the subject ("clients living in Prague") describes it; the main verb comes later
                if (!relative && !participle(t)) {
                    return k;
                }
                relative = false;
            }
        }
        return -1;
    }

    /** A share word that asks for a percentage; after a number it is that number's unit ("above 5 percent"). */
    static boolean asked(ParseState w) {
        for (int k = 0; k < w.toks.size(); k++) {
            Tok t = w.toks.get(k);
            Tok before = k > 0 ? w.toks.get(k - 1) : null;
            boolean unit = before != null && (before.number() || before.sense() instanceof Sense.Compare);
            if (t.plain() && V.has(t.word(), "share") && !unit) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code toks} with a share word read as a column ("percent" of a column perc) made plain again where "of" follows it:
     * "what percent of the whole workforce were farmers" asks for a share, not for the column.
     */
    static java.util.List<Tok> askedBeforeOf(java.util.List<Tok> toks) {
        java.util.List<Tok> out = new java.util.ArrayList<>(toks);
        for (int k = 0; k + 1 < out.size(); k++) {
            Tok t = out.get(k);
            if (t.sense() instanceof Sense.Attr && t.words().size() == 1 && V.has(t.word(), "share") && out.get(k + 1).is("of")) {
                out.set(k, new Tok(t.text(), t.words(), null));
            }
        }
        return out;
    }

    private static boolean participle(Tok t) {
        String first = t.text().trim().split("\\s+")[0].toLowerCase(java.util.Locale.ROOT);
        return first.length() > 4 && first.endsWith("ing");
    }
}
