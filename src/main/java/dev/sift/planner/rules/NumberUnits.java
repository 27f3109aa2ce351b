package dev.sift.planner.rules;

import dev.sift.knowledge.KgBuilder;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.NameWords;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The unit said after a compared number: its column's own ("above 400 ppm"), and a percentage of a share of one. */
final class NumberUnits {
    private NumberUnits() { }

    /** Whether a token says "percent" ("90%" is read as "90 percent"). */
    static boolean percent(Tok t) {
        return t.plain() && "percent".equals(NameWords.unitOf(t.word()));
    }

    /**
     * The compared value as the column holds it: "more than 90%" of a column of shares of one is 0.9; other values as
     * said. {@code value} is one number or "a AND b".
     */
    static String value(Lexicon lexicon, ParseState w, int i, Sense.Attr col, String value) {
        Tok next = i + 1 < w.toks.size() ? w.toks.get(i + 1) : null;
        if (next == null || !percent(next) || !KgBuilder.SHARE_OF_ONE.equals(stated(lexicon, col))) {
            return value;
        }
        return Arrays.stream(value.split(" AND ")).map(v -> new BigDecimal(v).movePointLeft(2).stripTrailingZeros().toPlainString())
                .collect(Collectors.joining(" AND "));
    }

    /** "above 400 ppm": a unit after the number is read when it is the column's own (or the column states none). */
    static void unitAfter(Lexicon lexicon, ParseState w, int i, Sense.Attr col) throws Unreadable {
        Tok next = i + 1 < w.toks.size() && w.consumed < i + 1 ? w.toks.get(i + 1) : null;
        String said = next == null || !next.plain() ? null : NameWords.unitOf(next.word());
        if (said == null) {
            return;
        }
        String stated = stated(lexicon, col);
        boolean share = KgBuilder.SHARE_OF_ONE.equals(stated) && said.equals("percent");
        if (stated != null && !stated.equalsIgnoreCase(said) && !share) {
            throw new Unreadable("'" + next.text() + "' is " + said + ", and " + col.name() + " is in " + stated
                    + "; ask in " + stated);
        }
        w.consumed = i + 1;
        w.readings.add("'" + next.text() + "' → the unit of the number before it" + (share ? " (the column holds shares of one)" : ""));
    }

    private static String stated(Lexicon lexicon, Sense.Attr col) {
        return lexicon.graph().column(col.table(), col.column())
                .map(KgEntry.Column::unit).orElse(null);
    }
}
