package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

/**
 * The negations the offline parser reads: "no"/"without" before a related table ("accounts with no loan", read by
 * {@link PhraseRules#noneOf}), and "not" right before a value ("events that are not earthquakes": every row but that
 * value's). Any other negation ("except", "not" elsewhere) is refused rather than dropped.
 */
final class Negations {
    private static final Vocabulary V = Vocabulary.WORDS;

    private Negations() { }

    /** Reads a negation word at {@code t}; false when {@code t} is none. */
    static boolean read(ParseState w, Tok t) throws Unreadable {
        int next = w.at + 1 < w.toks.size() && w.toks.get(w.at + 1).is("a", "an", "the", "from", "in") ? w.at + 2 : w.at + 1;
        if (t.is("not") && next < w.toks.size() && w.toks.get(next).sense() instanceof Sense.Cond) {
            return w.notValue = true;
        }
        if (V.has(t.word(), "unsupported_negations")) {
            throw new Unreadable("I do not read '" + t.text() + "' offline (a negation), and will not drop it");
        }
        if (V.has(t.word(), "negations")) {
            w.negate = true;
            return true;
        }
        return false;
    }

    /** The condition of a value, negated when "not" was read right before it. */
    static Sense.Cond applied(ParseState w, Sense.Cond c) {
        if (!w.notValue) {
            return c;
        }
        w.notValue = false;
        return new Sense.Cond(c.table(), "NOT (" + c.sql() + ")", "not " + c.describe());
    }
}
