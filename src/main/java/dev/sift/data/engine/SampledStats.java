package dev.sift.data.engine;

import dev.sift.data.ColumnInfo;
import dev.sift.data.Containment;
import dev.sift.data.LiveEngine;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link TableStats} on a live engine from its metadata and bounded queries: declared keys and foreign keys
 * count as they are; other facts are read from at most {@link #SAMPLE} rows of a table (a {@code LIMIT}
 * subquery), so building the knowledge graph never scans a big table. A column is taken as a key without a
 * declaration only when the whole table fits in the sample; value lists come from the sample; an inferred join
 * is checked by looking the referring column's sampled values up in the key column.
 */
final class SampledStats implements TableStats {
    static final int SAMPLE = 100_000;

    private final LiveEngine engine;
    private final EngineFile file;

    SampledStats(LiveEngine engine, EngineFile file) {
        this.engine = engine;
        this.file = file;
    }

    private static String q(String name) {
        return Sql.quoteIdent(name);
    }

    private static String sample(String table, String column, boolean nonNull) {
        return "(SELECT " + q(column) + " FROM " + q(table) + (nonNull ? " WHERE " + q(column) + " IS NOT NULL" : "")
                + " LIMIT " + SAMPLE + ")";
    }

    @Override
    public List<String> keyColumns(TableInfo t, List<ColumnInfo> candidates) throws QueryException {
        EngineFile.Table meta = file.tables().stream().filter(x -> x.name().equals(t.name())).findFirst().orElse(null);
        List<String> out = new ArrayList<>();
        for (ColumnInfo c : candidates) {
            if (meta != null && meta.uniqueColumns().contains(c.name())) {
                out.add(c.name()); // declared primary key or unique, and never null for a primary key
            } else if (meta != null && !meta.rowsEstimated() && meta.rows() >= 0 && meta.rows() <= SAMPLE) {
                List<Object> row = rows("SELECT count(*), count(" + q(c.name()) + "), count(DISTINCT " + q(c.name())
                        + ") FROM " + sample(t.name(), c.name(), false) + " s", 1).get(0);
                long n = num(row.get(0));
                if (n > 0 && num(row.get(1)) == n && num(row.get(2)) == n) {
                    out.add(c.name());
                }
            }
        }
        return out;
    }

    @Override
    public Map<String, List<String>> fewValues(TableInfo t, List<ColumnInfo> text, int max) throws QueryException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (ColumnInfo c : text) {
            List<List<Object>> rows = rows("SELECT DISTINCT " + q(c.name()) + " FROM " + sample(t.name(), c.name(), true)
                    + " s ORDER BY 1 LIMIT " + (max + 1), max + 1);
            if (rows.size() <= max) {
                out.put(c.name(), rows.stream().map(r -> String.valueOf(r.get(0))).toList());
            }
        }
        return out;
    }

    /** The referring side is the column's first {@link #SAMPLE} non-null values, looked up in the whole key. */
    @Override
    public Containment containment(Containment.Pair pair) throws QueryException {
        return Containment.of(rows(Containment.sql(pair, SAMPLE), 1).get(0));
    }

    /** The referring side is the first {@link #SAMPLE} rows with every column set, looked up in the whole key. */
    @Override
    public Containment containment(Containment.Tuple tuple) throws QueryException {
        return Containment.of(rows(Containment.sql(tuple, SAMPLE), 1).get(0));
    }

    @Override
    public List<ForeignKey> foreignKeys() {
        return file.foreignKeys();
    }

    private List<List<Object>> rows(String sql, int max) throws QueryException {
        List<List<Object>> out = new ArrayList<>();
        engine.run(engine.render(sql), max, new LiveEngine.RowSink() { // DuckDB's SQL, as all Sift writes
            @Override
            public void columns(List<QueryResult.Column> columns) { }

            @Override
            public void row(Object[] values) {
                out.add(java.util.Arrays.asList(values));
            }
        });
        return out;
    }

    private static long num(Object v) {
        return v == null ? 0 : ((Number) v).longValue();
    }
}
