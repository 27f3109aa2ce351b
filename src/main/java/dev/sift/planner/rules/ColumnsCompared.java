package dev.sift.planner.rules;

import dev.sift.knowledge.Vocabulary;

import java.util.ArrayList;
import java.util.List;

/**
 * Two number columns of one row compared with each other: "candidates who spent more than they raised" keeps the rows
 * where Total_Disbursements &gt; Total_Receipts. The two columns and the comparison between them become one condition,
 * read before anything else, so neither column is taken for the question's measure.
 */
final class ColumnsCompared {
    private static final Vocabulary V = Vocabulary.WORDS;

    /** The words that may stand for the row between the comparison and the second column ("than they raised"). */
    private static final List<String> ROW_WORDS = List.of("they", "it", "he", "she", "their", "its", "his", "her", "the");

    private ColumnsCompared() { }

    /**
     * {@code toks} with each "A more than [they] B" and "more A than [their] B" of two number columns of one table read as
     * one condition.
     */
    static List<Tok> merge(List<Tok> toks) {
        List<Tok> out = new ArrayList<>(toks);
        for (int i = 0; i + 3 < out.size(); i++) {
            boolean before = out.get(i).plain(); // "higher debts than their ending cash": the comparison first
            Tok said = out.get(before ? i : i + 1);
            Tok first = out.get(before ? i + 1 : i);
            if (!said.plain() || !(first.sense() instanceof Sense.Attr a) || !number(a) || !out.get(i + 2).is("than")) {
                continue;
            }
            String op = V.map("comparators").get(said.word() + " than");
            int b = i + 3;
            while (b < out.size() - 1 && out.get(b).plain() && ROW_WORDS.contains(out.get(b).word())) {
                b++;
            }
            if (op == null || !(op.equals(">") || op.equals("<")) || !(out.get(b).sense() instanceof Sense.Attr other)
                    || !number(other) || !other.table().equals(a.table()) || other.equals(a)) {
                continue;
            }
            String sql = a.sql() + " " + op + " " + other.sql();
            Tok.replaceRun(out, i, b + 1, new Sense.Cond(a.table(), sql, sql));
        }
        return out;
    }

    private static boolean number(Sense.Attr a) {
        return a.numeric() && !a.date();
    }
}
