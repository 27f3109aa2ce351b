package dev.sift.data;

import java.util.List;
import java.util.Locale;

/**
 * What a result's byte budget cut before the values reached Java ({@link ResultBudget}): per column, how many cells
 * were over {@code cellBytes} and the largest full size; and whether rows stopped because the rows kept passed
 * {@code resultBytes}. {@link #statement()} says it in one paragraph, with the way to read more.
 */
public record CellCuts(long cellBytes, List<Column> columns, long resultBytes, long rowsKept) {
    /** Nothing was cut. */
    public static final CellCuts NONE = new CellCuts(0, List.of(), 0, -1);

    /**
     * One column's cut cells: text and BLOB cells keep their first {@code cellBytes}; a list, struct or map over the
     * budget ({@code dropped}) is not brought at all (NULL), since a part of it would not be a value of its type.
     */
    public record Column(String name, long cells, long largestBytes, boolean dropped) { }

    /** Whether anything was cut or left unread. */
    public boolean any() {
        return !columns.isEmpty() || rowsKept >= 0;
    }

    /**
     * E.g. "Cut to the result's byte budget: 1 value of s was over 64 KB (the largest 999,890,001 bytes) and kept its
     * first 64 KB. To read more of one, select a part: substr(s, 65537, 65536) …".
     */
    public String statement() {
        if (!any()) {
            return "";
        }
        StringBuilder b = new StringBuilder("Cut to the result's byte budget:");
        String sep = " ";
        for (Column c : columns) {
            b.append(sep).append(count(c.cells())).append(c.cells() == 1 ? " value of " : " values of ").append(c.name())
                    .append(c.cells() == 1 ? " was" : " were").append(" over ").append(size(cellBytes))
                    .append(" (the largest ").append(count(c.largestBytes())).append(" bytes)")
                    .append(c.dropped() ? " and came back as NULL (a list, struct or map cannot be cut)"
                            : " and kept " + (c.cells() == 1 ? "its" : "their") + " first " + size(cellBytes));
            sep = "; ";
        }
        if (rowsKept >= 0) {
            b.append(sep).append("rows after the first ").append(count(rowsKept)).append(" were not brought, since the")
                    .append(" rows kept reached the result's budget of ").append(size(resultBytes));
        }
        b.append(". To read more, ");
        Column text = columns.stream().filter(c -> !c.dropped()).findFirst().orElse(null);
        Column nested = columns.stream().filter(Column::dropped).findFirst().orElse(null);
        if (text != null) {
            b.append("select a part of a long value (substr(").append(text.name()).append(", ").append(cellBytes + 1)
                    .append(", ").append(cellBytes).append(") gives the next characters) or its length, ");
        }
        if (nested != null) {
            b.append("select part of a long list (").append(nested.name()).append("[1:100]), ");
        }
        if (rowsKept >= 0) {
            b.append("select fewer or narrower rows, ");
        }
        return b.append("or raise the budget (SIFT_MAX_CELL_BYTES, SIFT_MAX_RESULT_MB; sift sql --max-cell-bytes).")
                .toString();
    }

    /** 65536 → "64 KB", 134217728 → "128 MB", 1000 → "1,000 bytes". */
    static String size(long bytes) {
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return count(bytes >> 20) + " MB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return count(bytes >> 10) + " KB";
        }
        return count(bytes) + " bytes";
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
