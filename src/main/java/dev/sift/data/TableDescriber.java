package dev.sift.data;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Describes the tables of a schema in a DuckDB connection: columns and types, row count, one sample per column, and
 * for dataset tables each column's {@link ColumnFacts} (nulls, variants, text-date formats) — read at once, or on
 * first use ({@link #withLazyFacts}) since they cost full scans that only a model's prompt needs.
 */
final class TableDescriber {
    private TableDescriber() { }

    /** The tables of {@code catalog.schema}; a source schema's tables are named {@code schema.table}. */
    /** Schemas of the dataset besides {@code main}: one per source of a dataset built from several. */
    static List<String> sourceSchemas(Connection connection, String dataset) {
        List<String> out = new ArrayList<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT schema_name"
                + " FROM duckdb_tables() WHERE database_name = 'data' AND schema_name <> 'main' ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the schemas of dataset '" + dataset + "'", e);
        }
        return out;
    }

    /** The tables of {@code catalog.schema}, without column facts (see {@link #withLazyFacts}). */
    static List<TableInfo> describe(Connection connection, String catalog, String schema, TableInfo.Kind kind) {
        return describe(connection, catalog, schema, kind, false);
    }

    /** As {@link #describe(Connection, String, String, TableInfo.Kind)}; {@code facts}: dataset tables' facts read now. */
    static List<TableInfo> describe(Connection connection, String catalog, String schema, TableInfo.Kind kind, boolean facts) {
        Map<String, List<String[]>> columns = new LinkedHashMap<>();
        String sql = "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = "
                + Sql.quoteString(catalog) + " AND schema_name = " + Sql.quoteString(schema)
                + " ORDER BY table_name, column_index";
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                columns.computeIfAbsent(rs.getString(1), t -> new ArrayList<>())
                        .add(new String[] {rs.getString(2), rs.getString(3)});
            }
            List<TableInfo> out = new ArrayList<>();
            for (Map.Entry<String, List<String[]>> e : columns.entrySet()) {
                String name = schema.equals("main") || kind == TableInfo.Kind.FRAME ? e.getKey() : schema + "." + e.getKey();
                out.add(describeTable(connection, catalog + "." + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(e.getKey()), name,
                        kind, e.getValue(), facts));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the schema of " + catalog + "." + schema, e);
        }
    }

    /** Row count and one non-null sample per column, from a bounded scan so wide tables stay cheap. */
    private static TableInfo describeTable(Connection connection, String qualified, String name, TableInfo.Kind kind, List<String[]> cols,
            boolean withFacts) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT (SELECT count(*) FROM ").append(qualified).append(')');
        for (String[] c : cols) {
            sql.append(", CAST(any_value(").append(Sql.quoteIdent(c[0])).append(") AS VARCHAR)");
        }
        sql.append(" FROM (SELECT * FROM ").append(qualified).append(" LIMIT 2000)");
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            rs.next();
            long rows = rs.getLong(1);
            List<String> samples = new ArrayList<>();
            for (int i = 0; i < cols.size(); i++) {
                samples.add(rs.getString(i + 2));
            }
            // Frames are described on every change and are the agent's own: only dataset tables get the facts.
            List<ColumnFacts> facts = kind == TableInfo.Kind.TABLE && withFacts
                    ? ColumnFactsReader.read(connection, qualified, rows, cols, samples) : null;
            List<ColumnInfo> infos = new ArrayList<>();
            for (int i = 0; i < cols.size(); i++) {
                infos.add(new ColumnInfo(cols.get(i)[0], cols.get(i)[1], samples.get(i), facts == null ? null : facts.get(i)));
            }
            return new TableInfo(name, kind, rows, List.copyOf(infos));
        }
    }

    /**
     * {@code tables} with each dataset table's column facts read by {@code read} when a column's facts are first asked
     * for (once per table, for all its columns); frames are returned as they are.
     */
    static List<TableInfo> withLazyFacts(List<TableInfo> tables, Function<TableInfo, List<ColumnFacts>> read) {
        List<TableInfo> out = new ArrayList<>();
        for (TableInfo t : tables) {
            if (t.kind() != TableInfo.Kind.TABLE) {
                out.add(t);
                continue;
            }
            Supplier<List<ColumnFacts>> all = once(() -> read.apply(t));
            List<ColumnInfo> columns = new ArrayList<>();
            for (int i = 0; i < t.columns().size(); i++) {
                int index = i;
                columns.add(t.columns().get(i).withFacts(() -> all.get().get(index)));
            }
            out.add(new TableInfo(t.name(), t.kind(), t.rows(), List.copyOf(columns)));
        }
        return List.copyOf(out);
    }

    /** The column facts of dataset table {@code t}, read through {@code connection} (which resolves its name). */
    static List<ColumnFacts> facts(Connection connection, TableInfo t) {
        List<String[]> cols = t.columns().stream().map(c -> new String[] {c.name(), c.type()}).toList();
        try {
            return ColumnFactsReader.read(connection, t.sqlName(), t.rows(), cols,
                    t.columns().stream().map(ColumnInfo::sample).toList());
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the column facts of table " + t.name(), e);
        }
    }

    private static <T> Supplier<T> once(Supplier<T> compute) {
        AtomicReference<T> value = new AtomicReference<>();
        return () -> {
            T known = value.get();
            if (known == null) {
                synchronized (value) {
                    known = value.get();
                    if (known == null) {
                        known = compute.get();
                        value.set(known);
                    }
                }
            }
            return known;
        };
    }
}
