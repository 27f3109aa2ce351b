package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.sift.data.source.SourceTestSupport.loadIntoMemory;
import static dev.sift.data.source.SourceTestSupport.row;
import static dev.sift.data.source.SourceTestSupport.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PostgresSourceTest {
    private static final Map<String, String> ENV = Map.of("PG_PASSWORD", "right horse", "PG_WRONG", "wrong");
    private static final Map<String, String> WITH_PASSWORD = Map.of("password_env", "PG_PASSWORD");
    private static TestPostgres pg;

    /** Every PostgreSQL type the source maps, in one table of the database {@code shop} (arrays included). */
    static final String[] EVERYTHING = {
            "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
            "CREATE TYPE addr AS (street text, zip int)",
            "CREATE DOMAIN posint AS integer CHECK (VALUE > 0)",
            "CREATE TABLE everything (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, small smallint,"
                    + " big bigint, price numeric(12,2), ratio numeric, wide numeric(50,10), real4 real,"
                    + " dbl double precision, cash money, flag boolean, label varchar(20), fixed char(3), body text,"
                    + " day date, at_time time, stamp timestamp(6), stamp_tz timestamptz, span interval, feeling mood,"
                    + " uid uuid, doc json, docb jsonb, raw bytea, tags text[], scores int[], weights float8[],"
                    + " uids uuid[], home addr, positive posint, ip inet, updated_at timestamptz)",
            "INSERT INTO everything (small, big, price, ratio, wide, real4, dbl, cash, flag, label, fixed, body,"
                    + " day, at_time, stamp, stamp_tz, span, feeling, uid, doc, docb, raw, tags, scores, weights, uids,"
                    + " home, positive, ip, updated_at) VALUES (-7, 9007199254740993, 1234567890.12,"
                    + " 0.1234567890123, 12345678901234567890.0123456789, 1.5, 2.25, 12.34, true, 'ünï', 'ab', 'long text',"
                    + " '2024-02-29', '13:14:15.123456', '2024-01-02 03:04:05.678901', '2024-01-02 03:04:05+02', '1 day 02:03:04',"
                    + " 'happy', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"a\": [1, 2]}', '{\"b\": {\"c\": true}}',"
                    + " '\\x00ff10', ARRAY['x', NULL, 'z'], ARRAY[1, 2, 3], ARRAY[0.5, 1.5],"
                    + " ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid], ROW('Main St', 12345), 7, '192.168.0.1/24',"
                    + " '2024-05-01 10:00:00+00')"};
    private static final String ARRAY_COLUMNS = " tags text[], scores int[], weights float8[], uids uuid[],";
    private static final String ARRAY_NAMES = " tags, scores, weights, uids,";
    private static final String ARRAY_VALUES = " ARRAY['x', NULL, 'z'], ARRAY[1, 2, 3], ARRAY[0.5, 1.5],"
            + " ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid],";

    @BeforeAll
    static void startServer() throws Exception {
        pg = TestPostgres.start();
        pg.exec("postgres", "CREATE ROLE reader LOGIN PASSWORD 'right horse'", "CREATE DATABASE shop OWNER postgres");
        pg.exec("shop", EVERYTHING);
        pg.exec("shop",
                "INSERT INTO everything (small) VALUES (NULL)",
                "CREATE TABLE \"Orders\" (\"Order Id\" bigserial PRIMARY KEY, amount numeric(10,2))",
                "INSERT INTO \"Orders\" (amount) SELECT g * 1.5 FROM generate_series(1, 1000) g",
                "CREATE VIEW big_orders AS SELECT * FROM \"Orders\" WHERE amount > 1000",
                "CREATE SCHEMA crm",
                "CREATE TABLE crm.customer (id int PRIMARY KEY, name text)",
                "INSERT INTO crm.customer VALUES (1, 'Ada'), (2, 'Linus')",
                "CREATE SCHEMA clash",
                "CREATE TABLE clash.everything (x int)",
                "CREATE SCHEMA locked",
                "CREATE TABLE locked.secret (x int)",
                "GRANT USAGE ON SCHEMA public, crm, clash, locked TO reader",
                "GRANT SELECT ON ALL TABLES IN SCHEMA public, crm, clash TO reader");
        // the same columns and values without arrays: a table with no LIST column goes over as Arrow batches
        pg.exec("postgres", "CREATE DATABASE scalars OWNER postgres");
        pg.exec("scalars", java.util.Arrays.stream(EVERYTHING).map(sql -> sql.replace(ARRAY_COLUMNS, "")
                .replace(ARRAY_NAMES, "").replace(ARRAY_VALUES, "")).toArray(String[]::new));
        pg.exec("scalars",
                "INSERT INTO everything (small) VALUES (NULL)",
                "INSERT INTO everything (day, stamp, stamp_tz, at_time) VALUES ('1850-03-04', '1850-03-04 05:06:07.000001',"
                        + " '1850-03-04 05:06:07.5-03', '23:59:59.999999')",
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader");
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (pg != null) {
            pg.close();
        }
    }

    private static String url(String rest) {
        return "postgresql://reader@127.0.0.1:" + pg.port() + "/" + rest;
    }

    private static Source source(String rest) {
        return NetworkSources.open(url(rest), WITH_PASSWORD, ENV).orElseThrow();
    }

    @Test
    void maps_every_column_type_to_its_documented_duckdb_type() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop"))) {
            assertThat(types(duck, "everything")).containsExactlyEntriesOf(new LinkedHashMap<>() {{
                put("id", "INTEGER"); put("small", "SMALLINT"); put("big", "BIGINT"); put("price", "DECIMAL(12,2)");
                put("ratio", "DOUBLE"); put("wide", "DOUBLE"); put("real4", "FLOAT"); put("dbl", "DOUBLE");
                put("cash", "DECIMAL(19,2)"); put("flag", "BOOLEAN"); put("label", "VARCHAR"); put("fixed", "VARCHAR");
                put("body", "VARCHAR"); put("day", "DATE"); put("at_time", "TIME"); put("stamp", "TIMESTAMP");
                put("stamp_tz", "TIMESTAMP WITH TIME ZONE"); put("span", "INTERVAL");
                put("feeling", "ENUM('sad', 'ok', 'happy')"); put("uid", "UUID"); put("doc", "JSON");
                put("docb", "JSON"); put("raw", "BLOB"); put("tags", "VARCHAR[]"); put("scores", "INTEGER[]");
                put("weights", "DOUBLE[]"); put("uids", "VARCHAR[]"); put("home", "JSON"); put("positive", "INTEGER");
                put("ip", "VARCHAR"); put("updated_at", "TIMESTAMP WITH TIME ZONE");
            }});
        }
    }

    @Test
    void keeps_values_exactly_numbers_times_zones_json_and_arrays() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop")); Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            assertThat(row(duck, "SELECT small, big, price, ratio, real4, dbl, cash, flag, label, fixed, body FROM everything"
                    + " WHERE id = 1")).containsExactly("-7", "9007199254740993", "1234567890.12", "0.1234567890123",
                    "1.5", "2.25", "12.34", "true", "ünï", "ab ", "long text");
            assertThat(row(duck, "SELECT day, at_time, stamp, stamp_tz::VARCHAR, span::VARCHAR, feeling, uid FROM everything"
                    + " WHERE id = 1")).containsExactly("2024-02-29", "13:14:15.123456", "2024-01-02 03:04:05.678901",
                    "2024-01-02 01:04:05+00", "1 day 02:03:04", "happy", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
            assertThat(row(duck, "SELECT doc->'a'->>1, docb->'b'->>'c', hex(raw), tags::VARCHAR, scores[2] + 0, weights[2],"
                    + " home->>'street', positive, ip FROM everything WHERE id = 1")).containsExactly("2", "true", "00FF10",
                    "[x, NULL, z]", "2", "1.5", "Main St", "7", "192.168.0.1/24");
            assertThat(row(duck, "SELECT count(*) FILTER (WHERE body IS NULL AND tags IS NULL AND stamp_tz IS NULL"
                    + " AND feeling IS NULL), count(*) FROM everything")).containsExactly("1", "2");
        }
    }

    @Test
    void a_table_without_arrays_goes_over_as_arrow_batches_with_the_types_and_values_the_appender_gives() throws Exception {
        try (Connection arrow = loadIntoMemory(source("scalars")); Connection appender = loadIntoMemory(source("shop"));
             Statement a = arrow.createStatement(); Statement b = appender.createStatement()) {
            a.execute("SET TimeZone = 'UTC'");
            b.execute("SET TimeZone = 'UTC'");
            Map<String, String> expected = new LinkedHashMap<>(types(appender, "everything"));
            expected.keySet().removeAll(List.of("tags", "scores", "weights", "uids"));
            assertThat(types(arrow, "everything")).containsExactlyEntriesOf(expected);
            for (String q : List.of("SELECT small, big, price, ratio, wide, real4, dbl, cash, flag, label, fixed, body",
                    "SELECT day, at_time, stamp, stamp_tz::VARCHAR, span::VARCHAR, feeling, uid, updated_at::VARCHAR",
                    "SELECT doc::VARCHAR, docb::VARCHAR, hex(raw), home::VARCHAR, positive, ip")) {
                assertThat(row(arrow, q + " FROM everything WHERE id = 1")).isEqualTo(row(appender, q + " FROM everything WHERE id = 1"))
                        .doesNotContainNull();
            }
            assertThat(row(arrow, "SELECT day, stamp, stamp_tz::VARCHAR, at_time FROM everything WHERE id = 3"))
                    .containsExactly("1850-03-04", "1850-03-04 05:06:07.000001", "1850-03-04 08:06:07.5+00", "23:59:59.999999");
            assertThat(row(arrow, "SELECT count(*) FILTER (WHERE body IS NULL AND stamp_tz IS NULL AND feeling IS NULL"
                    + " AND raw IS NULL AND uid IS NULL), count(*) FROM everything")).containsExactly("1", "3");
        }
    }

    @Test
    void a_type_with_no_mapping_loads_as_text_with_a_note_naming_it() throws Exception {
        Source s = source("shop");
        try (Connection ignored = loadIntoMemory(s)) {
            assertThat(s.describe()).isEqualTo("PostgreSQL " + url("shop") + " (3 tables); note: column"
                    + " public.everything.ip has type inet, which has no DuckDB mapping: loaded as text");
        }
    }

    @Test
    void tables_and_views_keep_their_names_with_the_rows_of_the_server() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop"))) {
            assertThat(row(duck, "SELECT count(*), sum(amount), min(\"Order Id\") FROM \"Orders\""))
                    .containsExactly("1000", "750750.00", "1");
            assertThat(row(duck, "SELECT count(*) FROM big_orders")).containsExactly("334");
        }
    }

    @Test
    void schema_parameter_reads_several_schemas_into_one() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop?schema=crm"))) {
            assertThat(row(duck, "SELECT string_agg(name, ',' ORDER BY id) FROM customer")).containsExactly("Ada,Linus");
        }
        assertThatThrownBy(() -> source("shop?schema=public,clash").fingerprint())
                .hasMessage("PostgreSQL " + url("shop?schema=public,clash") + ": table 'everything' is in both schemas"
                        + " public and clash: load them as two sources with aliases in a sources file");
    }

    @Test
    void fingerprint_is_stable_and_changes_with_rows_and_updates() throws Exception {
        String before = source("shop").fingerprint();
        assertThat(source("shop").fingerprint()).isEqualTo(before);
        pg.exec("shop", "UPDATE everything SET updated_at = '2025-01-01 00:00:00+00' WHERE id = 1");
        String updated = source("shop").fingerprint();
        assertThat(updated).isNotEqualTo(before);
        pg.exec("shop", "INSERT INTO crm.customer VALUES (3, 'Grace')");
        assertThat(source("shop?schema=crm").fingerprint()).isNotEqualTo(source("shop").fingerprint());
        pg.exec("shop", "DELETE FROM crm.customer WHERE id = 3",
                "UPDATE everything SET updated_at = '2024-05-01 10:00:00+00' WHERE id = 1");
        assertThat(source("shop").fingerprint()).isEqualTo(before);
    }

    @Test
    void wrong_password_is_one_line_without_the_password() {
        Source s = NetworkSources.open(url("shop"), Map.of("password_env", "PG_WRONG"), ENV).orElseThrow();
        assertThatThrownBy(s::fingerprint)
                .hasMessage("PostgreSQL " + url("shop") + ": login failed for user 'reader' (password: environment"
                        + " variable PG_WRONG): FATAL: password authentication failed for user \"reader\"")
                .hasNoCause();
    }

    @Test
    void unknown_database_and_schema_are_named() {
        assertThatThrownBy(() -> source("nope").fingerprint())
                .hasMessage("PostgreSQL " + url("nope") + ": database 'nope' does not exist: FATAL: database \"nope\""
                        + " does not exist");
        assertThatThrownBy(() -> source("shop?schema=sales").fingerprint())
                .hasMessage("PostgreSQL " + url("shop?schema=sales") + ": schema 'sales' does not exist; schemas:"
                        + " clash, crm, locked, public");
    }

    @Test
    void permission_denied_on_a_table_names_the_table() {
        assertThatThrownBy(() -> source("shop?schema=locked").fingerprint())
                .hasMessage("PostgreSQL " + url("shop?schema=locked") + ": permission denied on table locked.secret:"
                        + " ERROR: permission denied for table secret");
    }

    @Test
    void unreachable_servers_are_one_line_naming_host_and_port_and_never_hang() throws Exception {
        SourceTestSupport.assertUnreachableServersAreOneLine("postgresql", "PostgreSQL");
    }

    @Test
    void a_failed_load_publishes_nothing(@TempDir Path home) throws Exception {
        DatasetStore store = new DatasetStore(home);
        Source s = source("shop?schema=locked");
        DatasetBuilder b = new DatasetBuilder() {
            @Override public String fingerprint() throws Exception { return "x"; }
            @Override public String describe() { return s.describe(); }
            @Override public void build(Connection db, Progress p) throws Exception { s.load(db, "main", p); }
        };
        assertThatThrownBy(() -> store.ensure("locked", b, Progress.NONE))
                .hasMessageContaining("permission denied on table locked.secret");
        assertThat(store.find("locked")).isEmpty();
        try (var files = Files.list(home)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void reports_progress_per_table_with_totals() throws Exception {
        Source s = source("shop?schema=crm");
        s.fingerprint();
        List<String> seen = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            s.load(duck, "main", (stage, done, total) -> seen.add(stage + " " + done + "/" + total));
        }
        assertThat(seen).containsExactly("loading crm.customer 0/2", "loading crm.customer 2/2");
    }
}
