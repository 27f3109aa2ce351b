package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SQLite and DuckDB database files as sources: told apart by their header, copied with their types mapped
 * (decimals, timestamps with and without zone, booleans, BLOBs, enums, UUIDs, lists, JSON), and a bad file
 * refused in one line with nothing published.
 */
class DatabaseFileSourcesTest {
    @TempDir
    Path tmp;
    DatasetStore store;

    @BeforeEach
    void setUp() {
        store = new DatasetStore(tmp.resolve("store"));
    }

    private Dataset load(String name, String... sources) throws Exception {
        return store.load(name, DatasetSources.of(List.of(sources), tmp, Map.of()), false, false, Progress.NONE);
    }

    static List<List<String>> query(Path file, String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, ro);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** "column TYPE" of a table in the published dataset. */
    static List<String> columns(Dataset ds, String table) throws Exception {
        return query(ds.file(), "SELECT column_name || ' ' || data_type FROM duckdb_columns() WHERE "
                + (table.contains(".") ? "schema_name = '" + table.split("\\.")[0] + "' AND table_name = '"
                + table.split("\\.")[1] + "'" : "schema_name = 'main' AND table_name = '" + table + "'")
                + " ORDER BY column_index").stream().map(r -> r.get(0)).toList();
    }

    private Path sqlite(String name, String... statements) throws Exception {
        Path file = tmp.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
        return file;
    }

    private Path duckdb(String name, String... statements) throws Exception {
        Path file = tmp.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
        return file;
    }

    @Test
    void sqlite_columns_get_the_types_their_declarations_name() throws Exception {
        sqlite("shop.sqlite",
                "CREATE TABLE orders (id INTEGER PRIMARY KEY, price DECIMAL(10,2), weight REAL, paid BOOLEAN,"
                        + " placed DATE, shipped DATETIME, seen TIMESTAMP WITH TIME ZONE, note TEXT, photo BLOB, code)",
                "INSERT INTO orders VALUES (1, 12.34, 1.5, 1, '2024-01-31', '2024-01-31 10:11:12',"
                        + " '2024-01-31 10:11:12+02:00', 'first', x'00ff10', 'A1')",
                "INSERT INTO orders VALUES (2, 99999999.99, NULL, 0, '2024-02-29', '2024-02-29 23:59:59',"
                        + " '2024-02-29 23:59:59+00:00', NULL, NULL, 7)",
                "CREATE VIEW paid_orders AS SELECT id, price FROM orders WHERE paid");
        Dataset ds = load("shop", "shop.sqlite");
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("orders", 2L),
                        org.assertj.core.groups.Tuple.tuple("paid_orders", 1L));
        assertThat(columns(ds, "orders")).containsExactly("id BIGINT", "price DECIMAL(10,2)", "weight DOUBLE",
                "paid BOOLEAN", "placed DATE", "shipped TIMESTAMP", "seen TIMESTAMP WITH TIME ZONE", "note VARCHAR",
                "photo BLOB", "code VARCHAR");
        assertThat(query(ds.file(), "SELECT id, price, weight, paid, placed, shipped::VARCHAR, epoch(seen)::BIGINT, note,"
                + " hex(photo), code FROM orders ORDER BY id")).containsExactly(
                List.of("1", "12.34", "1.5", "true", "2024-01-31", "2024-01-31 10:11:12", "1706688672", "first", "00FF10", "A1"),
                java.util.Arrays.asList("2", "99999999.99", null, "false", "2024-02-29", "2024-02-29 23:59:59", "1709251199",
                        null, null, "7"));
        assertThat(ds.sources()).containsExactly("SQLite file " + tmp.resolve("shop.sqlite"));
    }

    @Test
    void a_sqlite_column_whose_values_do_not_fit_its_declaration_keeps_them_as_text() throws Exception {
        sqlite("loose.db", "CREATE TABLE t (n INTEGER, d DATE)",
                "INSERT INTO t VALUES (1, '2024-01-01'), ('two', 'someday')");
        Dataset ds = load("loose", "loose.db");
        assertThat(columns(ds, "t")).containsExactly("n VARCHAR", "d VARCHAR");
        assertThat(query(ds.file(), "SELECT n, d FROM t ORDER BY d")).containsExactly(
                List.of("1", "2024-01-01"), List.of("two", "someday"));
    }

    @Test
    void sqlite_text_keeps_empty_strings_quotes_newlines_and_accents_and_a_column_is_typed_by_what_it_holds() throws Exception {
        sqlite("text.sqlite", "CREATE TABLE t (id INTEGER, note TEXT, digits TEXT, amount DECIMAL(8,2), mixed)",
                "INSERT INTO t VALUES (1, '', '12', 3, 1.5)",
                "INSERT INTO t VALUES (2, NULL, '007', 4.25, 'x')",
                "INSERT INTO t VALUES (3, 'say \"hi\", then' || char(10) || 'leave', NULL, NULL, x'41')",
                "INSERT INTO t VALUES (4, 'Žluťoučký kůň ✓', '-5', -0.5, NULL)",
                "INSERT INTO t VALUES (5, CAST(x'41ff42' AS TEXT), '9007199254740993', 1e300, 7)");
        Dataset ds = load("text", "text.sqlite");
        // '007' and '12' are stored as text (TEXT affinity keeps them): the column is text, as SQLite holds it
        assertThat(columns(ds, "t")).containsExactly("id BIGINT", "note VARCHAR", "digits VARCHAR", "amount DOUBLE",
                "mixed VARCHAR");
        assertThat(query(ds.file(), "SELECT note IS NULL, note, length(note), digits, amount, mixed FROM t ORDER BY id"))
                .containsExactly(
                        java.util.Arrays.asList("false", "", "0", "12", "3.0", "1.5"),
                        java.util.Arrays.asList("true", null, null, "007", "4.25", "x"),
                        java.util.Arrays.asList("false", "say \"hi\", then\nleave", "20", null, null, "A"),
                        java.util.Arrays.asList("false", "Žluťoučký kůň ✓", "15", "-5", "-0.5", null),
                        java.util.Arrays.asList("false", "A\uFFFDB", "3", "9007199254740993", "1.0E300", "7"));
    }

    @Test
    void duckdb_files_keep_their_types_and_their_other_schemas_tables_are_prefixed() throws Exception {
        duckdb("shop.duckdb",
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
                "CREATE TABLE t (amount DECIMAL(18,4), stamp TIMESTAMP, stamp_tz TIMESTAMPTZ, ok BOOLEAN, m mood, id UUID,"
                        + " tags VARCHAR[], doc JSON, raw BLOB)",
                "INSERT INTO t VALUES (1234.5678, '2024-03-01 12:00:00', '2024-03-01 12:00:00+00', true, 'happy',"
                        + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ['x', 'y'], '{\"k\": [1, 2]}', '\\x01\\x02'::BLOB)",
                "CREATE SCHEMA archive", "CREATE TABLE archive.old (id INTEGER)", "INSERT INTO archive.old VALUES (1), (2)");
        Dataset ds = load("duck", "shop.duckdb");
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name).containsExactly("archive_old", "t");
        assertThat(columns(ds, "t")).containsExactly("amount DECIMAL(18,4)", "stamp TIMESTAMP",
                "stamp_tz TIMESTAMP WITH TIME ZONE", "ok BOOLEAN", "m ENUM('sad', 'ok', 'happy')", "id UUID",
                "tags VARCHAR[]", "doc JSON", "raw BLOB");
        assertThat(query(ds.file(), "SELECT amount, stamp::VARCHAR, ok, m, id, tags[2], doc->'$.k[1]', hex(raw) FROM t"))
                .containsExactly(List.of("1234.5678", "2024-03-01 12:00:00", "true", "happy",
                        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "y", "2", "0102"));
    }

    @Test
    void database_files_are_told_apart_by_their_header_not_their_name() throws Exception {
        sqlite("a.db", "CREATE TABLE s (x INTEGER)", "INSERT INTO s VALUES (1)");
        duckdb("b.db", "CREATE TABLE d AS SELECT 1 AS x");
        assertThat(Sources.open("a.db", tmp, Map.of(), Map.of())).isInstanceOf(SqliteSource.class);
        assertThat(Sources.open("b.db", tmp, Map.of(), Map.of())).isInstanceOf(DuckDbFileSource.class);
        Files.copy(tmp.resolve("a.db"), tmp.resolve("really_sqlite.duckdb"));
        assertThat(Sources.open("really_sqlite.duckdb", tmp, Map.of(), Map.of())).isInstanceOf(SqliteSource.class);
    }

    @Test
    void several_database_files_become_one_schema_each() throws Exception {
        sqlite("sales.sqlite", "CREATE TABLE orders (id INTEGER)", "INSERT INTO orders VALUES (1), (2), (3)");
        duckdb("crm.duckdb", "CREATE TABLE customer AS SELECT 1 AS id");
        Dataset ds = load("both", "sales.sqlite", "crm.duckdb");
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("crm.customer", 1L),
                        org.assertj.core.groups.Tuple.tuple("sales.orders", 3L));
        assertThat(ds.sources()).containsExactly("sales: SQLite file " + tmp.resolve("sales.sqlite"),
                "crm: DuckDB file " + tmp.resolve("crm.duckdb"));
        assertThat(query(ds.file(), "SELECT count(*) FROM sales.orders o CROSS JOIN crm.customer c"))
                .containsExactly(List.of("3"));
    }

    @Test
    void a_file_with_a_database_name_but_no_database_header_is_refused() throws Exception {
        Files.writeString(tmp.resolve("notes.sqlite"), "just some text, not a database");
        assertThatThrownBy(() -> load("bad", "notes.sqlite")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("File " + tmp.resolve("notes.sqlite") + " is neither a SQLite nor a DuckDB database: its first"
                        + " bytes are no database header (a corrupt or partial copy?)");
        assertNothingPublished();
    }

    @Test
    void a_corrupt_sqlite_file_is_one_line_and_publishes_nothing() throws Exception {
        Path good = sqlite("good.sqlite", "CREATE TABLE t (x INTEGER, y TEXT)",
                "WITH RECURSIVE c(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM c WHERE v < 2000) INSERT INTO t SELECT v, 'row ' || v FROM c");
        byte[] bytes = Files.readAllBytes(good);
        for (int i = 100; i < bytes.length; i++) {
            bytes[i] = (byte) 0xA5; // keeps the header, ruins every page
        }
        Files.write(tmp.resolve("broken.sqlite"), bytes);
        assertThatThrownBy(() -> load("broken", "broken.sqlite")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SQLite file " + tmp.resolve("broken.sqlite") + " could not be read: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertNothingPublished();
    }

    @Test
    void a_truncated_duckdb_file_is_one_line_and_publishes_nothing() throws Exception {
        Path good = duckdb("good.duckdb", "CREATE TABLE t AS SELECT range AS x FROM range(100000)");
        byte[] bytes = Files.readAllBytes(good);
        Files.write(tmp.resolve("cut.duckdb"), java.util.Arrays.copyOf(bytes, 5000));
        assertThatThrownBy(() -> load("cut", "cut.duckdb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("DuckDB file " + tmp.resolve("cut.duckdb") + " could not be opened: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertNothingPublished();
    }

    private void assertNothingPublished() throws Exception {
        assertThat(store.list()).isEmpty();
        Path root = tmp.resolve("store");
        if (Files.isDirectory(root)) {
            try (var files = Files.list(root)) {
                assertThat(files.toList()).isEmpty();
            }
        }
    }
}
