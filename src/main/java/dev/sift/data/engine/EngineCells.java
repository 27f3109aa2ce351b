package dev.sift.data.engine;

import dev.sift.data.CellTally;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The result's byte budget on a live engine, as DuckDB's wrapped query keeps it: each column that can be wide is
 * selected as its value when it fits the cell budget, else its prefix (PostgreSQL's {@code left()}, Spark's
 * {@code substr}), and beside it the full size of a value that was cut, so a gigabyte-long value never crosses into
 * this process. The query's columns are renamed by position ({@code c1, c2, …}), so duplicate or odd names do not
 * matter. A text prefix is cut in characters; when those are wider than the budget (multi-byte text) a quarter as
 * many are kept, which fits.
 */
final class EngineCells {
    /** How a column is brought: as it is, cut as text, cut as bytes, or whole-or-NULL (a list, map or struct). */
    enum Kind { PLAIN, TEXT, BYTES, WHOLE }

    /** An engine's spelling of the few expressions the cut needs. */
    record Dialect(UnaryOperator<String> text, String prefix, String bytes) {
        /** PostgreSQL: every wide column is read as text, so it is cut as text. */
        static final Dialect POSTGRES = new Dialect(c -> c + "::text", "left(%s, %d)", "octet_length(%s)");
        /** Spark SQL: strings and binaries are cut; other types are measured by their string form. */
        static final Dialect SPARK = new Dialect(c -> "CAST(" + c + " AS STRING)", "substr(%s, 1, %d)", "octet_length(%s)");
    }

    private final Kind[] kinds;
    private final int wide;
    private final CellTally tally;

    EngineCells(List<QueryResult.Column> columns, Kind[] kinds, Workspace.Limits limits) {
        this.kinds = kinds;
        int w = 0;
        boolean[] whole = new boolean[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            w += kinds[i] == Kind.PLAIN ? 0 : 1;
            whole[i] = kinds[i] == Kind.WHOLE;
        }
        this.wide = w;
        this.tally = new CellTally(columns, whole, CellTally.cellBytes(limits.cellBytes(), limits.resultBytes(), w),
                limits.resultBytes());
    }

    /** Whether any column can be wide (else the query runs as written). */
    boolean any() {
        return wide > 0;
    }

    /** The positional names the query's columns get: {@code c1, c2, …}. */
    List<String> names() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            names.add("c" + (i + 1));
        }
        return names;
    }

    /** The select list over the renamed columns: each column (cut when wide), then each wide column's size when cut. */
    List<String> select(Dialect d) {
        long n = tally.cell();
        List<String> values = new ArrayList<>();
        List<String> sizes = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            String c = "c" + (i + 1);
            if (kinds[i] == Kind.PLAIN) {
                values.add(c);
                continue;
            }
            String measured = kinds[i] == Kind.BYTES ? c : d.text().apply(c);
            String size = String.format(d.bytes(), measured);
            String cut = String.format(d.prefix(), measured, n);
            values.add(switch (kinds[i]) {
                case TEXT -> "CASE WHEN " + size + " <= " + n + " THEN " + measured + " WHEN "
                        + String.format(d.bytes(), cut) + " <= " + n + " THEN " + cut + " ELSE "
                        + String.format(d.prefix(), measured, n / 4) + " END";
                case BYTES -> "CASE WHEN " + size + " <= " + n + " THEN " + c + " ELSE " + cut + " END";
                default -> "CASE WHEN " + size + " <= " + n + " THEN " + c + " END";
            });
            sizes.add("CASE WHEN " + size + " > " + n + " THEN " + size + " END");
        }
        values.addAll(sizes);
        return values;
    }

    /**
     * Notes the current row's cut cells from the sizes beside its values: {@code size.apply(k)} is the k-th wide
     * column's full size, or null when it was not cut.
     */
    void tally(java.util.function.IntFunction<Long> size) {
        int k = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] != Kind.PLAIN) {
                Long full = size.apply(k++);
                if (full != null) {
                    tally.cut(i, full);
                }
            }
        }
    }

    /** What was cut so far. */
    dev.sift.data.CellCuts cuts() {
        return tally.cuts();
    }
}
