package dev.sift.data.source;

import dev.sift.data.Progress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SQLite copy on tables large enough to be read in chunks by several threads (more than four batches of
 * {@value SqliteBatches#BATCH_ROWS} rows), and on those it must read whole: every row arrives, in its order, with
 * the types the whole-table read gives.
 */
class SqliteSourceTest {
    private static final int ROWS = 100_000;

    @TempDir
    Path tmp;

    private Path sqlite(String... statements) throws Exception {
        Path file = tmp.resolve("t.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
        return file;
    }

    private static String rows(String table, String values) {
        return "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < " + ROWS + ") INSERT INTO "
                + table + " SELECT " + values + " FROM r";
    }

    /** Loads {@code file} with {@code readers} threads into a fresh DuckDB file; returns its path. */
    private Path load(Path file, int readers, List<String> progress) throws Exception {
        Path duck = tmp.resolve("out-" + readers + "-" + System.nanoTime() + ".duckdb");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + duck)) {
            new SqliteSource(file, readers).load(db, "main", (stage, done, total) -> progress.add(stage + " " + done + "/" + total));
        }
        return duck;
    }

    private static List<String> query(Path duck, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + duck); Statement st = db.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : " | ").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private static final String TYPES = "SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY column_index)"
            + " FROM duckdb_columns() WHERE table_name = 't'";
    /** Order, count and a digest of every value: rowid follows insertion order in DuckDB. */
    private static final String DIGEST = "SELECT count(*), bool_and(id = rowid + 1), sum(hash(t::VARCHAR)) FROM t";

    @Test
    void a_large_table_read_by_three_threads_has_every_row_in_order_with_the_types_and_values_of_a_single_read()
            throws Exception {
        Path file = sqlite("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, amount DECIMAL(10,2), label TEXT,"
                        + " day DATE, flag BOOLEAN, photo BLOB)",
                rows("t", "i, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 13 % 1000 END, round(i / 100.0, 2),"
                        + " CASE WHEN i % 11 = 0 THEN NULL WHEN i % 5 = 0 THEN 'été ' || i ELSE 'label ' || i END,"
                        + " date('2020-01-01', '+' || (i % 900) || ' days'), i % 3 = 0, CASE WHEN i % 2 = 0 THEN zeroblob(0) ELSE x'0a0b' END"));
        List<String> progress = new ArrayList<>();
        Path three = load(file, 3, progress);
        Path one = load(file, 1, new ArrayList<>());
        assertThat(query(three, TYPES)).containsExactly(
                "id BIGINT, k BIGINT, amount DECIMAL(10,2), label VARCHAR, day DATE, flag BOOLEAN, photo BLOB");
        assertThat(query(three, TYPES)).isEqualTo(query(one, TYPES));
        assertThat(query(three, DIGEST)).isEqualTo(query(one, DIGEST));
        assertThat(query(three, DIGEST).get(0)).startsWith(ROWS + " | true | ");
        assertThat(query(three, "SELECT id, k, amount, label, day, flag, hex(photo) FROM t WHERE id IN (1, 55, 99999) ORDER BY id"))
                .containsExactly("1 | 13 | 0.01 | label 1 | 2020-01-02 | false | 0A0B",
                        "55 | 715 | 0.55 | null | 2020-02-25 | false | 0A0B",
                        "99999 | 987 | 999.99 | label 99999 | 2020-04-09 | true | 0A0B");
        assertThat(query(three, "SELECT count(*) FILTER (k IS NULL), count(*) FILTER (label LIKE 'été %'),"
                + " count(*) FILTER (octet_length(photo) = 0) FROM t")).containsExactly("14285 | 18182 | 50000");
        assertThat(progress).first().isEqualTo("loading t 0/" + ROWS);
        assertThat(progress).contains("loading t 100000/" + ROWS).last().isEqualTo("loaded t " + ROWS + "/" + ROWS);
    }

    @Test
    void a_value_of_another_kind_in_a_late_chunk_makes_the_column_text_and_keeps_every_row() throws Exception {
        Path file = sqlite("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, d DATE)",
                rows("t", "i, CASE WHEN i = 90000 THEN 'ninety thousand' ELSE i END,"
                        + " CASE WHEN i = 80000 THEN 'someday' ELSE date('2021-01-01', '+' || (i % 300) || ' days') END"));
        Path duck = load(file, 2, new ArrayList<>());
        assertThat(query(duck, TYPES)).containsExactly("id BIGINT, n VARCHAR, d VARCHAR");
        assertThat(query(duck, DIGEST).get(0)).startsWith(ROWS + " | true | ");
        assertThat(query(duck, "SELECT n, d FROM t WHERE id IN (79999, 80000, 90000) ORDER BY id")).containsExactly(
                "79999 | 2021-07-19", "80000 | someday", "ninety thousand | 2021-01-01");
    }

    @Test
    void tables_without_dense_rowids_are_read_whole_and_still_complete() throws Exception {
        Path file = sqlite(
                "CREATE TABLE sparse (id INTEGER PRIMARY KEY, v TEXT)",
                rows("sparse", "i * 1000003, 'v' || i"),
                "CREATE TABLE keyed (code TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID",
                rows("keyed", "printf('c%06d', i), i"),
                "CREATE TABLE named (rowid INTEGER, _rowid_ TEXT, oid REAL)",
                rows("named", "i, 'r' || i, i / 2.0"));
        Path duck = load(file, 4, new ArrayList<>());
        assertThat(query(duck, "SELECT count(*), min(id), max(id), bool_and(v = 'v' || (id // 1000003)) FROM sparse"))
                .containsExactly("100000 | 1000003 | 100000300000 | true");
        assertThat(query(duck, "SELECT count(*), bool_and(v = rowid + 1), min(code), max(code) FROM keyed"))
                .containsExactly("100000 | true | c000001 | c100000");
        assertThat(query(duck, "SELECT count(*), bool_and(_rowid_ = 'r' || \"rowid\"), sum(oid) FROM named"))
                .containsExactly("100000 | true | 2.500025E9");
    }

    @Test
    void text_of_a_utf16_database_arrives_as_the_same_text() throws Exception {
        Path file = sqlite("PRAGMA encoding = 'UTF-16le'", "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)",
                "INSERT INTO t VALUES (1, 'Žluťoučký kůň'), (2, 'plain'), (3, '')");
        Path duck = load(file, 2, new ArrayList<>());
        assertThat(query(duck, "SELECT s, length(s) FROM t ORDER BY id"))
                .containsExactly("Žluťoučký kůň | 13", "plain | 5", " | 0");
    }

    @Test
    void a_page_that_breaks_in_the_middle_of_a_large_table_fails_the_load_with_the_files_reason() throws Exception {
        Path file = sqlite("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)", rows("t", "i, printf('%0100d', i)"));
        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        for (int i = bytes.length / 2; i < bytes.length / 2 + 65536; i++) {
            bytes[i] = (byte) 0xA5;
        }
        java.nio.file.Files.write(file, bytes);
        assertThatThrownBy(() -> load(file, 2, new ArrayList<>())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SQLite file " + file + " could not be read: the database is corrupt (database disk image"
                        + " is malformed)");
    }
}
