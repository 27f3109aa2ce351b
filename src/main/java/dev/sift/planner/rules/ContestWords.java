package dev.sift.planner.rules;

import dev.sift.knowledge.Contests;

import java.util.List;
import java.util.Locale;

/**
 * The words of a question about a table of contests ({@link Contests}) that no column carries. Its verbs ("how many
 * goals were scored", "ended in a draw") say no more than its rows do: filler there, unmapped anywhere else. A team
 * found in both side columns is settled by the side the question names ("home games of Barcelona": home_team; "home
 * or away": either), and then "win" and "lose" are that side's result ("How many home games did Liverpool win?").
 * A team's own goals are not the match's: a side's team with the goals of both sides is asked about.
 */
final class ContestWords {
    private ContestWords() { }

    /** Holds a contest verb back until the question is read; false for any other word. */
    static boolean read(ParseState w, Tok t) {
        if (!Contests.verb(t.word())) {
            return false;
        }
        w.contestVerbs.add(t.text());
        return true;
    }

    /**
     * The team's condition on the side(s) the question names, when {@code v} is one value in both side columns of a
     * table of contests; null otherwise (the value is settled as any other).
     */
    static Sense.Cond side(ParseState w, Sense.Values v, Lexicon lexicon) {
        if (v.options().size() != 2 || !contests(lexicon, v.options().get(0).table(), v.options().get(1).table())) {
            return null;
        }
        List<Sense.Cond> named = v.options().stream().filter(c -> named(w, c.column())).toList();
        if (named.size() == 2) {
            Sense.Cond a = named.get(0);
            Sense.Cond b = named.get(1);
            return new Sense.Cond(a.table(), "(" + a.sql() + " OR " + b.sql() + ")", a.describe() + " or " + b.describe());
        }
        return named.size() == 1 ? named.get(0) : null;
    }

    /**
     * The side's column among a column's two sides ("team" of a question naming "home": home_team), when the question
     * names one side of a table of contests; null otherwise.
     */
    static Sense.Attr side(ParseState w, Sense.Choice c, Lexicon lexicon) {
        if (c.options().size() != 2 || !contests(lexicon, c.options().get(0).table(), c.options().get(1).table())) {
            return null;
        }
        List<Sense.Attr> named = c.options().stream().filter(a -> named(w, a.sql())).toList();
        return named.size() == 1 ? named.get(0) : null;
    }

    /** Whether two options are of one table, a table of contests. */
    private static boolean contests(Lexicon lexicon, String a, String b) {
        return a.equals(b) && Contests.held(lexicon.graph(), a);
    }

    /** Whether the question names the side of {@code column} ({@code table.column}); the side is then read. */
    private static boolean named(ParseState w, String column) {
        String side = Contests.side(column.substring(column.lastIndexOf('.') + 1).replace("\"", ""));
        if (side == null || w.toks.stream().noneMatch(k -> k.is(side) || sideScore(k, side))) {
            return false;
        }
        if (!w.sides.contains(side)) {
            w.sides.add(side);
        }
        return true;
    }

    /** Whether a token reads the one score column of {@code side} ("goals at home": home_score). */
    private static boolean sideScore(Tok k, String side) {
        return k.sense() instanceof Sense.Attr a && !a.sql().contains(" ")
                && side.equals(Contests.side(a.sql().substring(a.sql().lastIndexOf('.') + 1)));
    }

    /**
     * Settles the held words once the question is read: verbs stay unmapped unless it reads a table of contests; a side
     * the question named is read, and with it "win" or "lose" as that side's result. Returns a problem to ask about, or
     * null.
     */
    static String settle(ParseState w, Lexicon lexicon) {
        String table = w.subject != null ? w.subject : w.filters.isEmpty() ? null : w.filters.get(0).table();
        if (table == null || !Contests.held(lexicon.graph(), table)) {
            w.unmapped.addAll(w.contestVerbs);
            return null;
        }
        w.unmapped.removeIf(u -> w.sides.contains(u.toLowerCase(Locale.ROOT)));
        if (w.sides.size() != 1) {
            return null;
        }
        String side = w.sides.get(0);
        if (w.measure != null && w.measure.name().equals(Contests.COMBINED)) { // "How many goals did Barcelona score at home?"
            return "'" + w.measureTok.text() + "' here may be the goals of both sides in " + side + " games or the team's"
                    + " own; ask for the " + side + " score of its " + side + " games, or the " + w.measure.name() + " of them";
        }
        for (String u : List.copyOf(w.unmapped)) {
            Boolean won = Contests.result(u.toLowerCase(Locale.ROOT));
            if (won != null) { // "did Liverpool win": the side's win; "lose": the other side's
                String sideWin = Contests.winOf(table, lexicon.graph().columns(table), side, won);
                w.filters.add(new QuerySpec.Filter(table, sideWin, (won ? side + " win: " : side + " loss: ") + sideWin));
                w.filterAt.add(w.toks.size() - 1);
                w.readings.add("'" + u + "' → the " + side + (won ? " side's win: " : " side's loss: ") + sideWin);
                w.unmapped.remove(u);
            }
        }
        return null;
    }
}
