package dev.sift.text;

import dev.sift.data.Numbers;

import java.util.List;

/**
 * A plain factual rendering of evidence, with no model: the values the queries returned, numbers written for people
 * ({@link Numbers}: ids plain, amounts to two decimals, rates as percentages).
 * Used offline and whenever a model's narrative is not available.
 */
public final class EvidenceText {
    /**
     * A list longer than this is not written out whole, by either planner: the count, these first rows, and where
     * every row is (the model's prompt states the same rule with this number).
     */
    public static final int LIST_ROWS = 10;

    private EvidenceText() { }

    /** All the given evidence rendered plainly, one block per query. */
    public static String plainText(List<Evidence> evidence) {
        StringBuilder b = new StringBuilder();
        for (Evidence e : evidence) {
            b.append(b.length() == 0 ? "" : "\n\n").append(render(e));
        }
        return b.toString();
    }

    public static String render(Evidence e) {
        List<List<Object>> rows = e.rows();
        if (rows.isEmpty()) {
            return "The query returned no rows.";
        }
        if (rows.size() == 1 && e.rowCount() == 1) {
            List<Object> row = rows.get(0);
            List<Numbers.Kind> kinds = kinds(e);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : "; ").append(e.columns().get(i)).append(": ").append(cell(row.get(i), kinds.get(i)));
            }
            return b.append('.').toString();
        }
        StringBuilder b = new StringBuilder("The query returned ")
                .append(e.rowCount() < 0 ? "more than " + rows.size() : String.valueOf(e.rowCount())).append(" rows")
                .append(rows.size() > LIST_ROWS || e.rowCount() > rows.size() ? " (first " + Math.min(LIST_ROWS, rows.size()) + " shown)" : "")
                .append(":\n").append(String.join(" | ", e.columns()));
        List<Numbers.Kind> kinds = kinds(e);
        for (List<Object> row : rows.subList(0, Math.min(LIST_ROWS, rows.size()))) {
            b.append('\n');
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : " | ").append(cell(row.get(i), kinds.get(i)));
            }
        }
        if (rows.size() > LIST_ROWS || e.rowCount() > rows.size()) {
            b.append('\n').append(e.frame() == null ? "" : "Every row is in frame frames." + e.frame() + "; ")
                    .append("ask --json with --max-rows lists them all.");
        }
        return b.toString();
    }

    /** What each column of the evidence holds, read from its name and (kept) values. */
    public static List<Numbers.Kind> kinds(Evidence e) {
        List<Numbers.Kind> out = new java.util.ArrayList<>();
        for (int i = 0; i < e.columns().size(); i++) {
            int c = i;
            out.add(Numbers.kindOf(e.columns().get(i), e.rows().stream().map(r -> c < r.size() ? r.get(c) : null).toList()));
        }
        return out;
    }

    /** A cell for people: numbers by {@link Numbers}, text one line and capped as in {@link ResultText#cell}. */
    static String cell(Object v, Numbers.Kind kind) {
        return v instanceof Number ? Numbers.format(v, kind) : ResultText.cell(v);
    }
}
