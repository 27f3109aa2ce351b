package dev.sift.data;

import java.util.List;
import java.util.Map;

/**
 * The facts the automatic knowledge graph needs about a dataset's tables, computed where the tables live:
 * by full scans in DuckDB, by bounded queries (declared keys, samples) on a live engine.
 */
public interface TableStats {
    /** Among {@code candidates}, the columns whose values are unique and never null in {@code table}. */
    List<String> keyColumns(TableInfo table, List<ColumnInfo> candidates) throws QueryException;

    /** Sorted distinct values of each text column having at most {@code max} of them; others are left out. */
    Map<String, List<String>> fewValues(TableInfo table, List<ColumnInfo> text, int max) throws QueryException;

    /**
     * How many of a column's non-null values occur in a key column (both through the pair's expression): over
     * every row in DuckDB, over a bounded sample of the referring column on a live engine. Null when the column
     * has no values.
     */
    Containment containment(Containment.Pair pair) throws QueryException;

    /**
     * How many of the rows whose columns are all set have their tuple in the key table's columns (pair by pair): the
     * measure of a join on several columns. Null when no row has all of them set.
     */
    Containment containment(Containment.Tuple tuple) throws QueryException;

    /**
     * Which of {@code sets} (each a list of the table's columns) identify the table's rows together: never null and
     * unique as a combination. None on a live engine, where only declared keys are known.
     */
    default List<List<String>> uniqueSets(TableInfo table, List<List<String>> sets) throws QueryException {
        return List.of();
    }

    /** Foreign keys the engine declares (its metadata), joined whatever their names; none in DuckDB datasets. */
    default List<ForeignKey> foreignKeys() {
        return List.of();
    }

    /** A declared foreign key {@code table.column → keyTable.keyColumn}. */
    record ForeignKey(String table, String column, String keyTable, String keyColumn) { }
}
