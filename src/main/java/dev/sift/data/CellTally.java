package dev.sift.data;

import java.util.ArrayList;
import java.util.List;

/**
 * The tally of one result's cut cells, and the size a cell may have, shared by DuckDB's wrapped queries
 * ({@link ResultBudget}) and the live engines (PostgreSQL's {@code left()}, Spark's {@code substr}), so every engine
 * cuts at the same size and states it the same way ({@link CellCuts}). Not thread-safe: one result at a time.
 */
public final class CellTally {
    /** Rows DuckDB (and the PostgreSQL driver's fetch) hands over at once. */
    static final int CHUNK_ROWS = 2048;
    static final long MIN_CELL_BYTES = 4096;

    private final List<QueryResult.Column> columns;
    private final boolean[] dropped;
    private final long cell;
    private final long resultBytes;
    private final long[] cells;
    private final long[] largest;
    private long rowsKept = -1;

    /**
     * {@code dropped[i]}: column i is brought whole or not at all (a list, struct or map over the budget comes back
     * NULL); the others keep their first {@code cell} bytes.
     */
    public CellTally(List<QueryResult.Column> columns, boolean[] dropped, long cell, long resultBytes) {
        this.columns = columns;
        this.dropped = dropped;
        this.cell = cell;
        this.resultBytes = resultBytes;
        this.cells = new long[columns.size()];
        this.largest = new long[columns.size()];
    }

    /**
     * The bytes one cell may bring when {@code wide} columns can be long: the cell budget, shrunk so that a chunk of
     * rows stays within the result budget, never below {@value #MIN_CELL_BYTES}.
     */
    public static long cellBytes(long cellBytes, long resultBytes, int wide) {
        return wide == 0 ? cellBytes : Math.min(cellBytes, Math.max(MIN_CELL_BYTES, resultBytes / CHUNK_ROWS / wide));
    }

    /** The bytes each cell of this result may bring. */
    public long cell() {
        return cell;
    }

    /** Notes that column {@code i}'s value in this row was cut from {@code fullBytes}. */
    public void cut(int i, long fullBytes) {
        cells[i]++;
        largest[i] = Math.max(largest[i], fullBytes);
    }

    /** Notes that the rows stopped at the result budget after {@code rows} were kept. */
    void rowsStopped(long rows) {
        rowsKept = rows;
    }

    /** What was cut so far. */
    public CellCuts cuts() {
        List<CellCuts.Column> cut = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] > 0) {
                cut.add(new CellCuts.Column(columns.get(i).name(), cells[i], largest[i], dropped[i]));
            }
        }
        return cut.isEmpty() && rowsKept < 0 ? CellCuts.NONE : new CellCuts(cell, List.copyOf(cut), resultBytes, rowsKept);
    }
}
