package dev.sift.bench;

import dev.sift.data.Dataset;
import dev.sift.data.Sql;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A built dataset's tables copied onto an engine as a warehouse would hold them, for parity runs: every table and
 * column under its exact name (PKDD's {@code "A1"}, {@code "A11"} stay upper case, so unquoted SQL would miss them),
 * declared primary keys, and a role that may only read. PostgreSQL gets the rows through {@code COPY}; Spark reads
 * Parquet files DuckDB writes ({@code SparkCopy}).
 */
public final class EngineCopy {
    /** The role the copy grants SELECT to (and nothing else). */
    public static final String READER = "sift_reader";

    private EngineCopy() { }

    /** One table of the dataset: its name and its columns as {name, DuckDB type}. */
    record Table(String name, List<String[]> columns) { }

    /** The dataset's tables (schema {@code main}), read from its DuckDB file. */
    static List<Table> tables(Connection duck) throws SQLException {
        List<Table> out = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT table_name, column_name, data_type"
                + " FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position")) {
            while (rs.next()) {
                if (out.isEmpty() || !out.get(out.size() - 1).name().equals(rs.getString(1))) {
                    out.add(new Table(rs.getString(1), new ArrayList<>()));
                }
                out.get(out.size() - 1).columns().add(new String[] {rs.getString(2), rs.getString(3)});
            }
        }
        return out;
    }

    /**
     * Copies {@code dataset} into the PostgreSQL database of {@code admin} (a connection that may create tables and
     * roles), replacing tables of the same names, and grants {@link #READER} (password {@code readerPassword}) SELECT on
     * them. Returns the row count copied.
     */
    public static long toPostgres(Dataset dataset, Connection admin, String readerPassword) throws SQLException, IOException {
        Path csv = Files.createTempFile("sift-copy-", ".csv");
        long rows = 0;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:" + dataset.file(), readOnly());
             Statement pg = admin.createStatement()) {
            for (Table t : tables(duck)) {
                String name = Sql.quoteIdent(t.name());
                pg.execute("DROP TABLE IF EXISTS " + name + " CASCADE");
                List<String> cols = new ArrayList<>();
                for (String[] c : t.columns()) {
                    cols.add(Sql.quoteIdent(c[0]) + " " + pgType(c[1]));
                }
                pg.execute("CREATE TABLE " + name + " (" + String.join(", ", cols) + ")");
                try (Statement st = duck.createStatement()) {
                    st.execute("COPY " + name + " TO " + Sql.quoteString(csv.toString()) + " (FORMAT csv, HEADER false)");
                }
                try (Reader in = Files.newBufferedReader(csv)) {
                    rows += new CopyManager(admin.unwrap(BaseConnection.class)).copyIn("COPY " + name + " FROM STDIN (FORMAT csv)", in);
                }
                String key = t.name().toLowerCase(Locale.ROOT) + "_id";
                if (t.columns().stream().anyMatch(c -> c[0].equals(key))) {
                    pg.execute("ALTER TABLE " + name + " ADD PRIMARY KEY (" + Sql.quoteIdent(key) + ")");
                }
            }
            pg.execute("ANALYZE");
            try (ResultSet rs = pg.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + READER + "'")) {
                if (!rs.next()) {
                    pg.execute("CREATE ROLE " + READER + " LOGIN PASSWORD " + Sql.quoteString(readerPassword));
                }
            }
            pg.execute("GRANT USAGE ON SCHEMA public TO " + READER);
            pg.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + READER);
            pg.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
        } finally {
            Files.deleteIfExists(csv);
        }
        return rows;
    }

    private static java.util.Properties readOnly() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("duckdb.read_only", "true");
        return p;
    }

    /** A DuckDB type as PostgreSQL holds the same values. */
    static String pgType(String duck) {
        String t = duck.toUpperCase(Locale.ROOT);
        if (t.startsWith("DECIMAL")) {
            return t.replace("DECIMAL", "numeric");
        }
        return switch (t) {
            case "BIGINT", "HUGEINT", "UBIGINT" -> "bigint";
            case "INTEGER", "UINTEGER" -> "integer";
            case "SMALLINT", "TINYINT", "USMALLINT", "UTINYINT" -> "smallint";
            case "DOUBLE" -> "double precision";
            case "FLOAT", "REAL" -> "real";
            case "BOOLEAN" -> "boolean";
            case "DATE" -> "date";
            case "TIMESTAMP" -> "timestamp";
            case "TIMESTAMP WITH TIME ZONE" -> "timestamptz";
            default -> "text";
        };
    }
}
