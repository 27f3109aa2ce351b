package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.sift.data.source.SourceTestSupport.loadIntoMemory;
import static dev.sift.data.source.SourceTestSupport.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL dumps written by a real {@code pg_dump} from a real server, restored and compared with what the live
 * PostgreSQL source reads from that same server: the same types and the same values.
 */
class PgDumpSourceTest {
    private static final String DB = "dumped";
    private static TestPostgres pg;
    @TempDir
    static Path dumps;
    private static Path plain;

    @BeforeAll
    static void dumpARealDatabase() throws Exception {
        Assumptions.assumeTrue(PgDumpTool.available(), PgDumpTool.MISSING);
        pg = TestPostgres.start();
        pg.exec("postgres", "CREATE DATABASE " + DB);
        pg.exec(DB, PostgresSourceTest.EVERYTHING);
        pg.exec(DB,
                "INSERT INTO everything (small) VALUES (NULL)",
                "CREATE SCHEMA crm",
                "CREATE TABLE crm.customer (id bigserial PRIMARY KEY, name text, note text)",
                "INSERT INTO crm.customer (name, note) VALUES ('Ada', E'tab\\there'), ('Linus', E'back\\\\slash \\\\N'),"
                        + " ('Grace', E'two\\nlines\\r'), (NULL, '\\N'), ('O''Brien \"q\"', '')",
                "CREATE INDEX customer_name ON crm.customer (name)",
                "CREATE VIEW crm.named AS SELECT name FROM crm.customer WHERE name IS NOT NULL",
                "CREATE FUNCTION crm.shout(t text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN upper(t); END; $$",
                "COMMENT ON TABLE crm.customer IS 'people; with a semicolon'",
                "CREATE TABLE crm.visit (customer_id bigint REFERENCES crm.customer (id), at date)",
                "INSERT INTO crm.visit SELECT 1 + g % 5, date '2024-01-01' + g FROM generate_series(1, 2000) g");
        plain = PgDumpTool.dump(pg, DB, dumps.resolve("dumped.sql"));
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    private static Source live() {
        return NetworkSources.open("postgresql://postgres@127.0.0.1:" + pg.port() + "/" + DB + "?schema=crm,public",
                Map.of(), Map.of()).orElseThrow();
    }

    @Test
    void a_plain_dump_restores_with_the_types_and_values_the_live_source_gives() throws Exception {
        try (Connection fromServer = loadIntoMemory(live()); Connection fromDump = loadIntoMemory(new PgDumpSource(plain))) {
            for (String table : List.of("everything", "customer", "visit")) {
                assertThat(types(fromDump, table)).as(table).containsExactlyEntriesOf(types(fromServer, table));
                assertThat(rows(fromDump, table)).as(table).isEqualTo(rows(fromServer, table));
            }
            assertThat(rows(fromDump, "customer")).contains("[2, Linus, back\\slash \\N]", "[3, Grace, two\nlines\r]",
                    "[4, null, \\N]", "[5, O'Brien \"q\", ]", "[1, Ada, tab\there]");
            assertThat(rows(fromDump, "visit")).hasSize(2000);
        }
    }

    @Test
    void an_inserts_dump_restores_the_same_rows() throws Exception {
        Path inserts = PgDumpTool.dump(pg, DB, dumps.resolve("inserts.sql"), "--inserts");
        assertThat(Files.readString(inserts)).contains("INSERT INTO crm.customer VALUES (2, 'Linus', 'back\\slash \\N');");
        try (Connection fromServer = loadIntoMemory(live()); Connection fromDump = loadIntoMemory(new PgDumpSource(inserts))) {
            for (String table : List.of("everything", "customer", "visit")) {
                assertThat(types(fromDump, table)).as(table).containsExactlyEntriesOf(types(fromServer, table));
                assertThat(rows(fromDump, table)).as(table).isEqualTo(rows(fromServer, table));
            }
        }
    }

    @Test
    void says_what_it_skipped_and_loads_views_functions_and_indexes_not_at_all() throws Exception {
        PgDumpSource s = new PgDumpSource(plain);
        try (Connection duck = loadIntoMemory(s)) {
            assertThat(tables(duck)).containsExactly("customer", "everything", "visit");
        }
        assertThat(s.describe()).startsWith("PostgreSQL dump " + plain + " (2007 rows restored; skipped, not data: ")
                .contains("ALTER", "COMMENT", "CREATE FUNCTION", "CREATE INDEX", "CREATE VIEW", "SELECT", "SET",
                        "psql meta-command");
    }

    @Test
    void a_syntax_error_mid_file_names_its_line_and_publishes_nothing(@TempDir Path home) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(plain));
        int at = lines.indexOf("CREATE TABLE crm.visit (");
        assertThat(at).as("pg_dump wrote the table on one line").isPositive();
        lines.set(at + 1, "    customer_id bigint,,");
        Path broken = Files.write(dumps.resolve("broken.sql"), lines);
        DatasetStore store = new DatasetStore(home);
        assertThatThrownBy(() -> store.load("broken", DatasetSources.of(List.of(broken.toString()), home, Map.of()),
                false, false, Progress.NONE)).hasMessage("PostgreSQL dump " + broken + ": line " + (at + 2)
                + ": PostgreSQL rejected 'customer_id bigint,,': syntax error at or near \",\"");
        assertThat(store.find("broken")).isEmpty();
    }

    @Test
    void a_bad_copy_row_names_the_row_line() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(plain));
        int copy = lines.indexOf("COPY crm.customer (id, name, note) FROM stdin;");
        assertThat(copy).isPositive();
        lines.set(copy + 3, lines.get(copy + 3) + "\textra");
        Path broken = Files.write(dumps.resolve("badrow.sql"), lines);
        assertThatThrownBy(() -> loadIntoMemory(new PgDumpSource(broken))).hasMessage("PostgreSQL dump " + broken
                + ": line " + (copy + 4) + ": PostgreSQL rejected 'COPY crm.customer (id, name, note) FROM stdin': extra data"
                + " after last expected column");
    }

    @Test
    void a_cut_off_dump_says_where_its_copy_began() throws Exception {
        List<String> lines = Files.readAllLines(plain);
        int copy = lines.indexOf("COPY crm.visit (customer_id, at) FROM stdin;");
        Path cut = Files.write(dumps.resolve("cut.sql"), lines.subList(0, copy + 100));
        assertThatThrownBy(() -> loadIntoMemory(new PgDumpSource(cut))).hasMessage("PostgreSQL dump " + cut + ": line "
                + (copy + 1) + ": the data of this COPY has no end marker \\. (the file ends at line " + (copy + 100)
                + "; a cut-off copy?)");
    }

    @Test
    void a_mysql_dump_is_restored_as_one_not_as_a_postgresql_dump() throws Exception {
        Path mysql = Files.writeString(dumps.resolve("books.sql"), "-- MySQL dump 10.13  Distrib 8.0.42, for Win64 (x86_64)\n"
                + "CREATE TABLE `books_info` (`title` text);\n");
        assertThat(Sources.open(mysql.toString(), dumps, Map.of(), Map.of())).isInstanceOf(MysqlDumpSource.class);
        assertThat(Sources.open(PgDumpTool.dump(pg, DB, dumps.resolve("plain.sql")).toString(), dumps, Map.of(), Map.of()))
                .isInstanceOf(PgDumpSource.class);
    }

    @Test
    void a_custom_format_dump_is_refused_with_the_command_that_converts_it() throws Exception {
        Path custom = PgDumpTool.dump(pg, DB, dumps.resolve("dumped.dump"), "-Fc");
        assertThatThrownBy(() -> Sources.open(custom.toString(), dumps, Map.of(), Map.of())).hasMessage("File " + custom
                + " is a custom-format PostgreSQL dump (pg_dump -Fc), which Sift reads only as a plain SQL script: convert it"
                + " with 'pg_restore -f dumped.sql " + custom + "' and load the .sql file");
    }

    @Test
    void a_db_config_postgres_sql_file_loads_as_a_dataset(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("query_dataset"));
        Files.copy(plain, dir.resolve("query_dataset/shop.sql"));
        Path config = Files.writeString(dir.resolve("db_config.yaml"), "db_clients:\n  shop_database:\n"
                + "    db_type: postgres\n    db_name: shop_db\n    sql_file: query_dataset/shop.sql\n");
        Dataset ds = new DatasetStore(dir.resolve("store")).load("shop", DatasetSources.of(List.of(config.toString()), dir,
                Map.of()), false, false, Progress.NONE);
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows).containsExactly(
                org.assertj.core.api.Assertions.tuple("customer", 5L),
                org.assertj.core.api.Assertions.tuple("everything", 2L),
                org.assertj.core.api.Assertions.tuple("visit", 2000L));
        assertThat(ds.sources()).singleElement().asString().startsWith("PostgreSQL dump " + dir.resolve("query_dataset/shop.sql")
                + " (2007 rows restored; skipped, not data: ");
    }

    private static List<String> rows(Connection duck, String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + table + " ORDER BY ALL")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private static List<String> tables(Connection duck) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT table_name FROM information_schema.tables ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
