package dev.sift.data;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Describes the tables of a schema in a DuckDB connection: columns and types, row count, one sample per column, and
 * for dataset tables each column's {@link ColumnFacts} (nulls, variants, text-date formats).
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

    static List<TableInfo> describe(Connection connection, String catalog, String schema, TableInfo.Kind kind) {
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
                        kind, e.getValue()));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the schema of " + catalog + "." + schema, e);
        }
    }

    /** Row count and one non-null sample per column, from a bounded scan so wide tables stay cheap. */
    private static TableInfo describeTable(Connection connection, String qualified, String name, TableInfo.Kind kind, List<String[]> cols)
            throws SQLException {
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
            List<ColumnFacts> facts = kind == TableInfo.Kind.TABLE
                    ? ColumnFactsReader.read(connection, qualified, rows, cols, samples) : null;
            List<ColumnInfo> infos = new ArrayList<>();
            for (int i = 0; i < cols.size(); i++) {
                infos.add(new ColumnInfo(cols.get(i)[0], cols.get(i)[1], samples.get(i), facts == null ? null : facts.get(i)));
            }
            return new TableInfo(name, kind, rows, List.copyOf(infos));
        }
    }
}
