package dev.sift.data;

import dev.sift.TestDatasets;
import dev.sift.data.QueryException.Kind;
import dev.sift.data.SqlGuardTest.FileState;
import dev.sift.data.source.PkddSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

class WorkspaceTest {
    private static Dataset bank;
    private static FileState before;
    private static Map<String, Long> counts;
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        bank = TestDatasets.bank();
        before = FileState.of(bank.file());
        ws = Workspace.open(bank, Workspace.Limits.defaults());
        counts = SqlGuardTest.rowCounts(ws);
    }

    @AfterAll
    static void close() throws Exception {
        if (ws != null) {
            ws.close();
        }
        assertThat(FileState.of(bank.file())).isEqualTo(before);
    }

    private static Workspace openBank() {
        return Workspace.open(bank, Workspace.Limits.defaults());
    }

    // --- tables() -------------------------------------------------------------------------------------------

    @Test
    void tables_lists_the_eight_dataset_tables_with_columns_types_and_samples() throws Exception {
        List<TableInfo> tables = ws.datasetTables();

        assertThat(tables).extracting(TableInfo::name)
                .containsExactly("account", "card", "client", "disp", "district", "loan", "order", "trans");
        assertThat(tables).extracting(TableInfo::kind).containsOnly(TableInfo.Kind.TABLE);
        for (TableInfo t : tables) {
            assertThat(t.rows()).as(t.name()).isEqualTo(counts.get(t.name())).isEqualTo(bank.rows(t.name()))
                    .isPositive();
        }
        assertThat(ws.table("loan").orElseThrow().columns()).extracting(ColumnInfo::name, ColumnInfo::type).containsExactly(
                tuple("loan_id", "INTEGER"), tuple("account_id", "INTEGER"), tuple("date", "DATE"),
                tuple("amount", "INTEGER"), tuple("duration", "INTEGER"), tuple("payments", "DOUBLE"),
                tuple("status", "VARCHAR"));
        assertThat(ws.table("order").orElseThrow().columnNames())
                .containsExactly("order_id", "account_id", "bank_to", "account_to", "amount", "k_symbol");
        assertThat(ws.table("district").orElseThrow().columns()).hasSize(16);
        assertThat(ws.table("client").orElseThrow().column("birth_date").orElseThrow().type()).isEqualTo("DATE");
        assertThat(ws.table("trans").orElseThrow().column("balance").orElseThrow().type()).isEqualTo("DOUBLE");

        for (TableInfo t : tables) {
            for (ColumnInfo c : t.columns()) {
                String from = "data.main." + Sql.quoteIdent(t.name());
                long nonNull = (Long) ws.trustedQuery("SELECT count(" + Sql.quoteIdent(c.name()) + ") FROM " + from, 1)
                        .scalar();
                if (nonNull == 0) {
                    assertThat(c.sample()).as(t.name() + "." + c.name()).isNull();
                    continue;
                }
                assertThat(c.sample()).as(t.name() + "." + c.name() + " has data, so a sample").isNotNull();
                long matches = (Long) ws.trustedQuery("SELECT count(*) FROM " + from + " WHERE CAST("
                        + Sql.quoteIdent(c.name()) + " AS VARCHAR) = " + Sql.quoteString(c.sample()), 1).scalar();
                assertThat(matches).as(t.name() + "." + c.name() + " sample is a real value").isPositive();
            }
        }
    }

    // --- frames -------------------------------------------------------------------------------------------

    @Test
    void frames_appear_after_save_frame_and_are_queryable_both_ways() throws Exception {
        try (Workspace w = openBank()) {
            assertThat(w.frames()).isEmpty();
            QueryResult saved = w.saveFrame("top_loans",
                    "SELECT loan_id, amount FROM loan ORDER BY amount DESC, loan_id LIMIT 5");

            assertThat(saved.rowCount()).isEqualTo(5);
            assertThat(saved.columnNames()).containsExactly("loan_id", "amount");
            assertThat(w.tables()).hasSize(9);
            TableInfo frame = w.tables().get(8);
            assertThat(frame.name()).isEqualTo("top_loans");
            assertThat(frame.kind()).isEqualTo(TableInfo.Kind.FRAME);
            assertThat(frame.rows()).isEqualTo(5);
            assertThat(frame.sqlName()).isEqualTo("frames.\"top_loans\"");
            assertThat(frame.columns()).extracting(ColumnInfo::name, ColumnInfo::type)
                    .containsExactly(tuple("loan_id", "INTEGER"), tuple("amount", "INTEGER"));
            assertThat(w.table("frames.top_loans")).contains(frame);
            assertThat(w.table("top_loans")).contains(frame);

            Object max = w.query("SELECT max(amount) FROM loan").scalar();
            assertThat(w.query("SELECT max(amount) FROM frames.top_loans").scalar()).isEqualTo(max);
            assertThat(w.query("SELECT max(amount) FROM top_loans").scalar()).isEqualTo(max);
            assertThat(w.query("SELECT count(*) FROM top_loans").scalar()).isEqualTo(5L);
        }
    }

    @Test
    void frames_are_per_workspace() throws Exception {
        try (Workspace a = openBank(); Workspace b = openBank()) {
            a.saveFrame("only_in_a", "SELECT 1 AS x");

            assertThat(a.frames()).extracting(TableInfo::name).containsExactly("only_in_a");
            assertThat(b.frames()).isEmpty();
            assertThat(b.table("only_in_a")).isEmpty();
            QueryException e = catchThrowableOfType(QueryException.class,
                    () -> b.query("SELECT * FROM frames.only_in_a"));
            assertThat(e.kind()).isEqualTo(Kind.INVALID);
            assertThat(e.getMessage()).startsWith("SQL does not bind: Catalog Error: Table with name only_in_a does not exist!");
            assertThat(catchThrowableOfType(QueryException.class, () -> b.query("SELECT * FROM only_in_a")).kind())
                    .isEqualTo(Kind.INVALID);
        }
    }

    @Test
    void two_workspaces_on_one_dataset_run_queries_concurrently_with_their_own_frames() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        try (Workspace a = openBank(); Workspace b = openBank()) {
            List<Future<Integer>> done = new ArrayList<>();
            int k = 0;
            for (Workspace w : List.of(a, b)) {
                int mine = ++k;
                done.add(pool.submit(() -> {
                    start.await();
                    w.saveFrame("mine", "SELECT " + mine + " AS owner, count(*) AS n FROM trans");
                    for (int i = 0; i < 20; i++) {
                        assertThat(w.query("SELECT owner FROM mine").scalar()).isEqualTo(mine);
                        assertThat(w.query("SELECT count(*) FROM trans WHERE account_id % 20 = " + i
                                + " OR " + i + " < 0").rowCount()).isEqualTo(1);
                        assertThat(w.query("SELECT n FROM frames.mine").scalar()).isEqualTo(counts.get("trans"));
                    }
                    return mine;
                }));
            }
            start.countDown();
            for (Future<Integer> f : done) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isPositive();
            }
            assertThat(a.query("SELECT owner FROM mine").scalar()).isEqualTo(1);
            assertThat(b.query("SELECT owner FROM mine").scalar()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void save_frame_validates_the_label() throws Exception {
        try (Workspace w = openBank()) {
            for (String bad : new String[] {"Top-Loans", "1st", "top loans", "", "a".repeat(64), "frames.x"}) {
                QueryException e = catchThrowableOfType(QueryException.class, () -> w.saveFrame(bad, "SELECT 1"));
                assertThat(e.kind()).isEqualTo(Kind.INVALID);
                assertThat(e).hasMessage("Frame label '" + bad + "' is not valid: use lowercase letters, digits and"
                        + " '_' (at most 63), starting with a letter, e.g. 'top_loans'.");
            }
            assertThat(catchThrowableOfType(QueryException.class, () -> w.saveFrame(null, "SELECT 1")))
                    .hasMessage("Frame label 'null' is not valid: use lowercase letters, digits and '_' (at most 63),"
                            + " starting with a letter, e.g. 'top_loans'.");
            for (String table : PkddSchema.TABLES) {
                QueryException e = catchThrowableOfType(QueryException.class, () -> w.saveFrame(table, "SELECT 1"));
                assertThat(e.kind()).isEqualTo(Kind.INVALID);
                assertThat(e).hasMessage("Frame label '" + table + "' is the name of a dataset table; choose another"
                        + " label, e.g. '" + table + "_result'.");
            }
            assertThat(w.saveFrame("a".repeat(63), "SELECT 1 AS x").rowCount()).isEqualTo(1);

            QueryException refused = catchThrowableOfType(QueryException.class,
                    () -> w.saveFrame("dropped", "DROP TABLE loan"));
            assertThat(refused.kind()).isEqualTo(Kind.REFUSED);
            assertThat(w.frames()).extracting(TableInfo::name).containsExactly("a".repeat(63));
        }
    }

    @Test
    void save_frame_with_the_same_label_replaces_the_frame() throws Exception {
        try (Workspace w = openBank()) {
            w.saveFrame("result", "SELECT 1 AS a");
            QueryResult second = w.saveFrame("result", "SELECT 2 AS b, 'x' AS c UNION ALL SELECT 3, 'y'");

            assertThat(second.rowCount()).isEqualTo(2);
            assertThat(w.frames()).hasSize(1);
            assertThat(w.frames().get(0).columnNames()).containsExactly("b", "c");
            QueryResult r = w.query("SELECT * FROM result ORDER BY b");
            assertThat(r.columnNames()).containsExactly("b", "c");
            assertThat(r.rows()).containsExactly(List.of(2, "x"), List.of(3, "y"));
        }
    }

    // --- query(): row cap and values ------------------------------------------------------------------------

    @Test
    void query_caps_the_rows_and_reports_the_full_count() throws Exception {
        long trans = counts.get("trans");
        assertThat(trans).isGreaterThan(1000);

        QueryResult r = ws.query("SELECT * FROM trans");
        assertThat(r.rows()).hasSize(1000);
        assertThat(r.truncated()).isTrue();
        assertThat(r.rowCount()).isEqualTo(trans);
        assertThat(r.columnNames()).containsExactly("trans_id", "account_id", "date", "type", "operation", "amount",
                "balance", "k_symbol", "bank", "account");

        // a trailing ';' or comment must not break the count
        for (String sql : List.of("SELECT * FROM trans;", "SELECT * FROM trans -- every row",
                "SELECT * FROM trans; -- every row", "SELECT * FROM trans /* all */ ;\n")) {
            QueryResult t = ws.query(sql);
            assertThat(t.rows()).as(sql).hasSize(1000);
            assertThat(t.rowCount()).as(sql).isEqualTo(trans);
        }

        QueryResult exact = ws.query("SELECT * FROM trans LIMIT 1000");
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.rowCount()).isEqualTo(1000);

        QueryResult trusted = ws.trustedQuery("SELECT * FROM trans", 5);
        assertThat(trusted.rows()).hasSize(5);
        assertThat(trusted.truncated()).isTrue();
        assertThat(trusted.rowCount()).isEqualTo(trans);

        try (Workspace small = Workspace.open(bank, new Workspace.Limits(2, "1GB", Duration.ofSeconds(30), 10))) {
            QueryResult loans = small.query("SELECT * FROM loan ORDER BY loan_id");
            assertThat(loans.rows()).hasSize(10);
            assertThat(loans.rowCount()).isEqualTo(counts.get("loan"));
            assertThat(loans.head(3).rows()).hasSize(3);
            assertThat(loans.head(3).rowCount()).isEqualTo(counts.get("loan"));
        }
    }

    @Test
    void values_are_json_friendly() throws Exception {
        QueryResult r = ws.query("SELECT DATE '2020-01-02' AS d, 1.50::DECIMAL(10,2) AS dec2, 12::DECIMAL(10,0) AS dec0,"
                + " 5::BIGINT AS big, NULL AS nothing, 170141183460469231731687303715884105727::HUGEINT AS huge,"
                + " TIMESTAMP '2020-01-02 03:04:05' AS ts, TIMESTAMP '2020-01-02 03:04:05.5' AS ts_frac,"
                + " TIMESTAMPTZ '2020-01-02 03:04:05+00' AS tz, 7 AS i, 2.5::DOUBLE AS dbl, 1.5::FLOAT AS f, true AS b,"
                + " 'text' AS s, 18446744073709551615::UBIGINT AS ubig, '\\x00ab\\x27\"\\x5C'::BLOB AS blob");
        List<Object> row = r.rows().get(0);

        assertThat(r.columns()).extracting(QueryResult.Column::type).startsWith("DATE", "DECIMAL(10,2)",
                "DECIMAL(10,0)", "BIGINT", "INTEGER", "HUGEINT", "TIMESTAMP");
        assertThat(row.get(0)).isEqualTo("2020-01-02");
        assertThat(row.get(1)).isEqualTo(1.5);
        assertThat(row.get(2)).isEqualTo(12L);
        assertThat(row.get(3)).isEqualTo(5L);
        assertThat(row.get(4)).isNull();
        assertThat(row.get(5)).isEqualTo(new BigInteger("170141183460469231731687303715884105727"));
        assertThat(row.get(6)).isEqualTo("2020-01-02T03:04:05");
        assertThat(row.get(7)).isEqualTo("2020-01-02T03:04:05.500");
        assertThat(row.get(8)).isInstanceOf(String.class);
        assertThat(OffsetDateTime.parse((String) row.get(8)).toInstant())
                .isEqualTo(OffsetDateTime.parse("2020-01-02T03:04:05Z").toInstant());
        assertThat(row.get(9)).isEqualTo(7);
        assertThat(row.get(10)).isEqualTo(2.5);
        assertThat(row.get(11)).isEqualTo(1.5);
        assertThat(row.get(12)).isEqualTo(true);
        assertThat(row.get(13)).isEqualTo("text");
        assertThat(row.get(14)).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(row.get(15)).isEqualTo("\\x00ab\\x27\\x22\\x5C"); // as DuckDB prints a BLOB

        QueryResult loans = ws.query("SELECT date, amount, payments FROM loan ORDER BY loan_id LIMIT 1");
        assertThat(loans.rows().get(0).get(0)).asString().matches("\\d{4}-\\d{2}-\\d{2}");
        assertThat(loans.rows().get(0).get(1)).isInstanceOf(Integer.class);
        assertThat(loans.rows().get(0).get(2)).isInstanceOf(Double.class);
        assertThat(ws.query("SELECT sum(amount) FROM loan").scalar()).isInstanceOf(Long.class); // HUGEINT that fits
        assertThat(ws.query("SELECT avg(amount)::DECIMAL(18,3) FROM loan").scalar()).isInstanceOf(Double.class);
    }

    @Test
    void json_value_converts_jdbc_values() {
        assertThat(JdbcValues.jsonValue(null)).isNull();
        assertThat(JdbcValues.jsonValue(new BigDecimal("1.50"))).isEqualTo(1.5);
        assertThat(JdbcValues.jsonValue(new BigDecimal("123"))).isEqualTo(123L);
        assertThat(JdbcValues.jsonValue(new BigDecimal("12345678901234567890123"))).isEqualTo(1.2345678901234568E22);
        assertThat(JdbcValues.jsonValue(1.25f)).isEqualTo(1.25);
        assertThat(JdbcValues.jsonValue(java.sql.Date.valueOf("1999-12-31"))).isEqualTo("1999-12-31");
        assertThat(JdbcValues.jsonValue(java.time.LocalDate.of(2001, 2, 3))).isEqualTo("2001-02-03");
        assertThat(JdbcValues.jsonValue(java.time.LocalDateTime.of(2001, 2, 3, 4, 5, 6))).isEqualTo("2001-02-03T04:05:06");
        assertThat(JdbcValues.jsonValue(java.sql.Timestamp.valueOf("2001-02-03 04:05:06")))
                .isEqualTo("2001-02-03T04:05:06");
        assertThat(JdbcValues.jsonValue(BigInteger.TEN)).isEqualTo(10L);
        assertThat(JdbcValues.jsonValue(BigInteger.TWO.pow(64))).isEqualTo(BigInteger.TWO.pow(64));
        assertThat(JdbcValues.jsonValue((short) 3)).isEqualTo((short) 3);
    }

    @Test
    void timestamps_keep_their_wall_clock_time_in_any_jvm_time_zone() throws Exception {
        TimeZone original = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Europe/Prague"));
            // 02:30 on 2021-03-28 does not exist in Prague (clocks jump from 02:00 to 03:00)
            QueryResult r = ws.query("SELECT TIMESTAMP '2021-03-28 02:30:00' AS gap, TIMESTAMP '1500-03-01 10:00:00' AS old,"
                    + " DATE '2021-03-28' AS d");
            assertThat(r.rows().get(0)).containsExactly("2021-03-28T02:30", "1500-03-01T10:00", "2021-03-28");
        } finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    void a_value_java_cannot_hold_fails_the_query_with_a_reason() throws Exception {
        QueryException e = catchThrowableOfType(QueryException.class, () -> ws.query("SELECT TIME '24:00:00' AS t"));
        assertThat(e.kind()).isEqualTo(Kind.FAILED);
        assertThat(e.getMessage()).startsWith("Query failed while reading column 't' (TIME): ")
                .endsWith(". CAST the column to VARCHAR.");
        assertThat(ws.query("SELECT CAST(TIME '24:00:00' AS VARCHAR) AS t").scalar()).isEqualTo("24:00:00");
    }

    // --- lock-down ---------------------------------------------------------------------------------------------

    @Test
    void configuration_is_locked_even_for_trusted_sql() throws Exception {
        for (String sql : List.of("SET threads = 8", "SET GLOBAL threads = 8", "RESET threads", "PRAGMA threads = 8",
                "SET enable_external_access = true", "SET lock_configuration = false", "SET memory_limit = '100GB'",
                "SET autoload_known_extensions = true", "SET allowed_directories = ['/']")) {
            QueryException e = catchThrowableOfType(QueryException.class, () -> ws.trustedQuery(sql, 10));
            assertThat(e).as(sql).isNotNull();
            assertThat(e.getMessage()).as(sql).contains("the configuration has been locked");
        }
        assertThat(ws.trustedQuery("SELECT current_setting('threads')", 1).scalar()).isEqualTo(2L);
        assertThat(ws.trustedQuery("SELECT current_setting('enable_external_access')", 1).scalar()).isEqualTo(false);
        assertThat(ws.trustedQuery("SELECT current_setting('lock_configuration')", 1).scalar()).isEqualTo(true);
    }

    @Test
    void no_file_access_even_for_trusted_sql(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("loan.csv");
        Path other = tmp.resolve("other.duckdb");
        for (String sql : List.of("SELECT * FROM read_csv('/etc/passwd')", "SELECT * FROM read_text('/etc/hostname')",
                "SELECT * FROM glob('/etc/*')", "COPY loan TO " + Sql.quoteString(out.toString()),
                "COPY (SELECT 1) TO " + Sql.quoteString(out.toString()) + " (FORMAT parquet)",
                "ATTACH " + Sql.quoteString(other.toString()) + " AS other",
                "EXPORT DATABASE " + Sql.quoteString(tmp.resolve("export").toString()))) {
            QueryException e = catchThrowableOfType(QueryException.class, () -> ws.trustedQuery(sql, 10));
            assertThat(e).as(sql).isNotNull();
            assertThat(e.kind()).as(sql + ": " + e.getMessage()).isEqualTo(Kind.REFUSED);
            assertThat(e.getMessage()).as(sql).startsWith("Refused: Permission Error: ");
        }
        QueryException load = catchThrowableOfType(QueryException.class, () -> ws.trustedQuery("LOAD httpfs", 1));
        assertThat(load.kind()).isEqualTo(Kind.REFUSED);
        assertThat(load.getMessage()).contains("Loading external extensions is disabled");
        assertThat(catchThrowableOfType(QueryException.class, () -> ws.trustedQuery("INSTALL httpfs", 1)).kind())
                .isEqualTo(Kind.REFUSED);
        try (var files = Files.list(tmp)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void the_dataset_cannot_be_written_even_by_trusted_sql() throws Exception {
        for (String sql : List.of("INSERT INTO loan SELECT * FROM loan", "DELETE FROM loan", "UPDATE loan SET amount = 0",
                "DROP TABLE loan", "CREATE TABLE data.main.extra AS SELECT 1 AS x", "ALTER TABLE loan DROP COLUMN status",
                "CREATE VIEW data.main.v AS SELECT 1", "TRUNCATE trans")) {
            QueryException e = catchThrowableOfType(QueryException.class, () -> ws.trustedQuery(sql, 10));
            assertThat(e).as(sql).isNotNull();
            assertThat(e.kind()).as(sql + ": " + e.getMessage()).isEqualTo(Kind.REFUSED);
            assertThat(e.getMessage()).as(sql).contains("attached in read-only mode");
        }
        assertThat(SqlGuardTest.rowCounts(ws)).isEqualTo(counts);
        assertThat(ws.datasetTables()).extracting(TableInfo::name).hasSize(8);
        assertThat(FileState.of(bank.file())).isEqualTo(before);
    }

    /**
     * External access is off, but DuckDB leaves the attached dataset and the spill folder reachable for its own
     * I/O (spilling needs the local file system): the guard is the wall for agent SQL, which reads tables only.
     */
    @Test
    void raw_file_io_cannot_reach_the_dataset_file_or_its_wal(@TempDir Path tmp) throws Exception {
        // on a private copy: if this ever regresses, the shared dataset must not be the victim
        Path file = tmp.resolve("copy.duckdb");
        Files.copy(bank.file(), file);
        FileState copyBefore = FileState.of(file);
        Dataset copy = new Dataset("copy", file, bank.fingerprint(), bank.description(), bank.builtAt(), bank.tables());
        try (Workspace w = Workspace.open(copy, Workspace.Limits.defaults())) {
            String path = Sql.quoteString(file.toString());
            String wal = Sql.quoteString(file + ".wal");
            for (String sql : List.of("COPY (SELECT 1) TO " + path + " (FORMAT csv, USE_TMP_FILE false)",
                    "COPY (SELECT 1) TO " + path + " (FORMAT csv)", "COPY (SELECT 1) TO " + wal + " (FORMAT csv)",
                    "SELECT size FROM read_blob(" + path + ")", "SELECT * FROM read_text(" + wal + ")",
                    "ATTACH " + path + " AS again (READ_ONLY)", "SELECT * FROM read_parquet(" + path + ")",
                    "SELECT * FROM " + path)) {
                QueryException e = catchThrowableOfType(QueryException.class, () -> w.query(sql));
                assertThat(e).as(sql).isNotNull();
                assertThat(e.kind()).as(sql + ": " + e.getMessage()).isEqualTo(Kind.REFUSED);
                assertThat(e.getMessage()).as(sql).startsWith("Refused: ");
            }
            QueryException agent = catchThrowableOfType(QueryException.class,
                    () -> w.query("SELECT size FROM read_blob(" + path + ")"));
            assertThat(agent.kind()).isEqualTo(Kind.REFUSED);
            assertThat(w.query("SELECT count(*) FROM loan").scalar()).isEqualTo(counts.get("loan"));
        }
        assertThat(FileState.of(file)).isEqualTo(copyBefore);
        try (var files = Files.list(tmp)) {
            assertThat(files).containsExactly(file);
        }
    }

    // --- open / close ---------------------------------------------------------------------------------------

    @Test
    void open_on_a_missing_dataset_file_names_the_file(@TempDir Path tmp) {
        Path missing = tmp.resolve("ghost.duckdb");
        Dataset ghost = new Dataset("ghost", missing, "f0", "not there", "2024-01-01T00:00:00Z", List.of());

        assertThatThrownBy(() -> Workspace.open(ghost, Workspace.Limits.defaults()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Could not open dataset 'ghost' from " + missing + ": ");
        assertThat(missing).doesNotExist();
    }

    @Test
    void many_workspaces_on_one_dataset_open_query_and_close() throws Exception {
        List<Workspace> open = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 8; i++) {
                open.add(openBank());
            }
            String sql = "SELECT count(*) FROM trans t JOIN account a USING (account_id) WHERE t.amount > 100";
            Object expected = ws.query(sql).scalar();
            List<Callable<Object>> calls = new ArrayList<>();
            for (Workspace w : open) {
                calls.add(() -> w.query(sql).scalar());
            }
            for (Future<Object> f : pool.invokeAll(calls, 60, TimeUnit.SECONDS)) {
                assertThat(f.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
            for (Workspace w : open) {
                w.close();
            }
        }
        for (Workspace w : open) {
            QueryException e = catchThrowableOfType(QueryException.class, () -> w.query("SELECT 1"));
            assertThat(e).isNotNull();
        }
        try (Workspace again = openBank()) {
            assertThat(again.query("SELECT count(*) FROM loan").scalar()).isEqualTo(counts.get("loan"));
        }
        assertThat(FileState.of(bank.file())).isEqualTo(before);
    }

    @Test
    void switching_datasets_keeps_the_frames_and_switching_back_reads_the_first_again() throws Exception {
        Dataset shop = TestDatasets.shop();
        try (Workspace w = Workspace.open(bank, Workspace.Limits.defaults())) {
            w.saveFrame("loans", "SELECT count(*) AS n FROM loan");
            assertThat(w.use(shop)).extracting(TableInfo::name).contains("customers", "orders");
            assertThat(w.dataset()).isEqualTo(shop);
            assertThat(w.query("SELECT (SELECT n FROM loans) = " + counts.get("loan") + ", count(*) > 0 FROM orders").rows())
                    .containsExactly(List.of(true, true));
            assertThat(w.table("loan")).isEmpty();
            w.use(bank);
            assertThat(w.query("SELECT count(*) FROM loan").scalar()).isEqualTo(counts.get("loan"));
            assertThat(w.frames()).extracting(TableInfo::name).containsExactly("loans");
        }
    }

    @Test
    void a_dataset_file_that_cannot_be_attached_leaves_the_session_on_its_own(@TempDir Path tmp) throws Exception {
        Dataset broken = new Dataset("broken", Files.writeString(tmp.resolve("broken.duckdb"), "not a database"), "x",
                "a broken file", "now", List.of());
        try (Workspace w = Workspace.open(bank, Workspace.Limits.defaults())) {
            assertThatThrownBy(() -> w.use(broken)).isInstanceOf(QueryException.class);
            assertThat(w.dataset()).isEqualTo(bank);
            assertThat(w.query("SELECT count(*) FROM loan").scalar()).isEqualTo(counts.get("loan"));
        }
    }
}
