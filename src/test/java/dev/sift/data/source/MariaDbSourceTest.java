package dev.sift.data.source;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.sift.data.source.SourceTestSupport.loadIntoMemory;
import static dev.sift.data.source.SourceTestSupport.row;
import static dev.sift.data.source.SourceTestSupport.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against a real MariaDB server the test starts (Debian's mariadb-server; skipped when it is not installed). */
class MariaDbSourceTest {
    private static final Map<String, String> ENV = Map.of("DB_PASSWORD", "right horse", "DB_WRONG", "wrong");
    private static TestMariaDb db;

    @BeforeAll
    static void startServer() throws Exception {
        db = TestMariaDb.startOrSkip();
        db.exec("DROP USER IF EXISTS ''@'localhost'", "CREATE DATABASE shop", "CREATE DATABASE crm",
                "CREATE USER 'reader'@'%' IDENTIFIED BY 'right horse'",
                "CREATE USER 'reader'@'localhost' IDENTIFIED BY 'right horse'",
                "CREATE TABLE shop.everything (id int AUTO_INCREMENT PRIMARY KEY, tiny tinyint, flag tinyint(1),"
                        + " bitflag bit(1), bits bit(8), small smallint, usmall smallint unsigned, med mediumint,"
                        + " uint int unsigned, big bigint, ubig bigint unsigned, price decimal(12,2), wide decimal(50,10),"
                        + " f float, d double, label varchar(20), body text, fixed char(3), day date, dt datetime(6),"
                        + " ts timestamp(6) NULL, t time, y year, mood enum('sad','ok','it''s happy'), tags set('a','b','c'),"
                        + " doc json, raw blob, bin varbinary(8), uid uuid, geo point, ip inet6, updated_at timestamp NULL)",
                "SET time_zone = '+02:00'",
                "INSERT INTO shop.everything (tiny, flag, bitflag, bits, small, usmall, med, uint, big, ubig, price, wide,"
                        + " f, d, label, body, fixed, day, dt, ts, t, y, mood, tags, doc, raw, bin, uid, geo, ip, updated_at)"
                        + " VALUES (-5, 1, b'1', b'101', -300, 65535, 8388607, 4294967295, -9007199254740993,"
                        + " 18446744073709551615, 1234567890.12, 1234567890123456789012345.0123456789, 1.5, 2.25, 'ünï',"
                        + " 'long text', 'ab', '2024-02-29', '2024-01-02 03:04:05.678901', '2024-01-02 03:04:05', '13:14:15',"
                        + " 2024, 'it''s happy', 'a,c', '{\"a\": [1, 2]}', x'00ff10', x'0102',"
                        + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ST_GeomFromText('POINT(1 2)'), '::1', '2024-05-01 12:00:00')",
                "INSERT INTO shop.everything (tiny) VALUES (NULL)",
                "CREATE TABLE shop.`Orders` (`Order Id` bigint AUTO_INCREMENT PRIMARY KEY, amount decimal(10,2))",
                "INSERT INTO shop.`Orders` (amount) SELECT seq * 1.5 FROM shop.seq_1_to_1000",
                "CREATE TABLE crm.customer (id int PRIMARY KEY, name text)",
                "INSERT INTO crm.customer VALUES (1, 'Ada'), (2, 'Linus')",
                "CREATE TABLE crm.hidden (x int)",
                "CREATE SQL SECURITY INVOKER VIEW crm.peek AS SELECT * FROM crm.hidden",
                "GRANT SELECT ON shop.* TO 'reader'@'%'", "GRANT SELECT ON shop.* TO 'reader'@'localhost'",
                "GRANT SELECT ON crm.customer TO 'reader'@'%'", "GRANT SELECT ON crm.customer TO 'reader'@'localhost'",
                "GRANT SELECT ON crm.peek TO 'reader'@'%'", "GRANT SELECT ON crm.peek TO 'reader'@'localhost'");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    private static String url(String rest) {
        return "mariadb://reader@127.0.0.1:" + db.port() + "/" + rest;
    }

    private static Source source(String rest) {
        return NetworkSources.open(url(rest), Map.of("password_env", "DB_PASSWORD"), ENV).orElseThrow();
    }

    @Test
    void maps_every_column_type_to_its_documented_duckdb_type() throws Exception {
        Map<String, String> types = new LinkedHashMap<>();
        try (Connection duck = loadIntoMemory(source("shop")); Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("DESCRIBE everything")) {
            while (rs.next()) {
                types.put(rs.getString(1), rs.getString(2));
            }
        }
        assertThat(types).containsExactlyEntriesOf(new LinkedHashMap<>() {{
            put("id", "INTEGER"); put("tiny", "SMALLINT"); put("flag", "BOOLEAN"); put("bitflag", "BOOLEAN");
            put("bits", "HUGEINT"); put("small", "SMALLINT"); put("usmall", "INTEGER"); put("med", "INTEGER");
            put("uint", "BIGINT"); put("big", "BIGINT"); put("ubig", "HUGEINT"); put("price", "DECIMAL(12,2)");
            put("wide", "DOUBLE"); put("f", "FLOAT"); put("d", "DOUBLE"); put("label", "VARCHAR"); put("body", "VARCHAR");
            put("fixed", "VARCHAR"); put("day", "DATE"); put("dt", "TIMESTAMP"); put("ts", "TIMESTAMP WITH TIME ZONE");
            put("t", "TIME"); put("y", "SMALLINT"); put("mood", "ENUM('sad', 'ok', 'it''s happy')"); put("tags", "VARCHAR");
            put("doc", "JSON"); put("raw", "BLOB"); put("bin", "BLOB"); put("uid", "UUID"); put("geo", "VARCHAR");
            put("ip", "VARCHAR"); put("updated_at", "TIMESTAMP WITH TIME ZONE");
        }});
    }

    @Test
    void keeps_values_exactly_numbers_times_zones_json_and_enums() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop")); Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            assertThat(row(duck, "SELECT tiny, flag, bitflag, bits, small, usmall, med, uint, big, ubig, price, f, d"
                    + " FROM everything WHERE id = 1")).containsExactly("-5", "true", "true", "5", "-300", "65535",
                    "8388607", "4294967295", "-9007199254740993", "18446744073709551615", "1234567890.12", "1.5", "2.25");
            assertThat(row(duck, "SELECT label, body, fixed, day, dt, ts::VARCHAR, t, y, mood, tags, doc->'a'->>1,"
                    + " hex(raw), hex(bin), uid, geo, ip FROM everything WHERE id = 1")).containsExactly("ünï", "long text",
                    "ab", "2024-02-29", "2024-01-02 03:04:05.678901", "2024-01-02 01:04:05+00", "13:14:15", "2024",
                    "it's happy", "a,c", "2", "00FF10", "0102", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "POINT(1 2)", "::1");
            assertThat(row(duck, "SELECT count(*) FILTER (WHERE label IS NULL AND ts IS NULL AND mood IS NULL"
                    + " AND raw IS NULL), count(*) FROM everything")).containsExactly("1", "2");
        }
    }

    @Test
    void types_without_mapping_load_as_text_with_notes_naming_them() throws Exception {
        Source s = source("shop");
        try (Connection ignored = loadIntoMemory(s)) {
            assertThat(s.describe()).isEqualTo("MySQL/MariaDB " + url("shop") + " (2 tables); note: column"
                    + " shop.everything.geo has type point, which has no DuckDB mapping: loaded as text (WKT);"
                    + " column shop.everything.ip has type inet6, which has no DuckDB mapping: loaded as text");
        }
    }

    @Test
    void tables_keep_their_names_and_rows() throws Exception {
        try (Connection duck = loadIntoMemory(source("shop"))) {
            assertThat(row(duck, "SELECT count(*), sum(amount), min(\"Order Id\") FROM \"Orders\""))
                    .containsExactly("1000", "750750.00", "1");
        }
    }

    @Test
    void fingerprint_changes_with_rows_and_updated_at() throws Exception {
        String before = source("shop").fingerprint();
        assertThat(source("shop").fingerprint()).isEqualTo(before);
        db.exec("UPDATE shop.everything SET updated_at = '2025-01-01 00:00:00' WHERE id = 1");
        assertThat(source("shop").fingerprint()).isNotEqualTo(before);
        db.exec("SET time_zone = '+02:00'", "UPDATE shop.everything SET updated_at = '2024-05-01 12:00:00' WHERE id = 1");
        assertThat(source("shop").fingerprint()).isEqualTo(before);
        db.exec("INSERT INTO shop.`Orders` (amount) VALUES (1)");
        assertThat(source("shop").fingerprint()).isNotEqualTo(before);
        db.exec("DELETE FROM shop.`Orders` WHERE amount = 1");
    }

    @Test
    void wrong_password_is_one_line_without_the_password() {
        Source s = NetworkSources.open(url("shop"), Map.of("password_env", "DB_WRONG"), ENV).orElseThrow();
        assertThatThrownBy(s::fingerprint)
                .hasMessageStartingWith("MySQL/MariaDB " + url("shop") + ": login failed for user 'reader' (password:"
                        + " environment variable DB_WRONG): ")
                .hasMessageContaining("Access denied for user 'reader'")
                .hasMessageNotContaining("wrong")
                .hasNoCause();
    }

    @Test
    void unknown_database_and_schema_are_named() {
        assertThatThrownBy(() -> source("nope").fingerprint())
                .hasMessageStartingWith("MySQL/MariaDB " + url("nope") + ": database 'nope' does not exist or this user"
                        + " may not read it: ");
        assertThatThrownBy(() -> source("shop?schema=sales").fingerprint())
                .hasMessage("MySQL/MariaDB " + url("shop?schema=sales") + ": schema 'sales' does not exist or is not"
                        + " readable; schemas: crm, shop");
    }

    @Test
    void permission_denied_behind_a_view_names_the_table() {
        assertThatThrownBy(() -> source("crm").fingerprint())
                .hasMessageStartingWith("MySQL/MariaDB " + url("crm") + ": permission denied on table crm.peek: ");
    }

    @Test
    void unreachable_servers_are_one_line_naming_host_and_port_and_never_hang() throws Exception {
        SourceTestSupport.assertUnreachableServersAreOneLine("mysql", "MySQL/MariaDB");
    }
}
