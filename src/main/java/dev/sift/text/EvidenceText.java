package dev.sift.text;


import java.util.List;

/**
 * A plain factual rendering of evidence, with no model: the numbers exactly as the queries returned them.
 * Used offline and whenever a model's narrative is not available.
 */
public final class EvidenceText {
    static final int ROWS = 10;

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
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : "; ").append(e.columns().get(i)).append(": ").append(ResultText.cell(row.get(i)));
            }
            return b.append('.').toString();
        }
        StringBuilder b = new StringBuilder("The query returned ")
                .append(e.rowCount() < 0 ? "more than " + rows.size() : String.valueOf(e.rowCount())).append(" rows")
                .append(rows.size() > ROWS || e.rowCount() > rows.size() ? " (first " + Math.min(ROWS, rows.size()) + " shown)" : "")
                .append(":\n").append(String.join(" | ", e.columns()));
        for (List<Object> row : rows.subList(0, Math.min(ROWS, rows.size()))) {
            b.append('\n');
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : " | ").append(ResultText.cell(row.get(i)));
            }
        }
        return b.toString();
    }
}
