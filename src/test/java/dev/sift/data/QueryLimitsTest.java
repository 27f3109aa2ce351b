package dev.sift.data;

import dev.sift.TestDatasets;
import dev.sift.data.QueryException.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The limits hold: planning, memory and concurrency are bounded, and each stop gives its real reason. */
class QueryLimitsTest {
    private static Workspace ws;
    private static SqlGuardTest.FileState before;

    @BeforeAll
    static void open() throws Exception {
        before = SqlGuardTest.FileState.of(TestDatasets.bank().file());
        ws = Workspace.open(TestDatasets.bank(), new Workspace.Limits(2, "200MB", Duration.ofSeconds(20), 100));
    }

    @AfterAll
    static void close() throws Exception {
        if (ws != null) {
            ws.close();
        }
        assertThat(SqlGuardTest.FileState.of(TestDatasets.bank().file())).isEqualTo(before);
    }

    private static QueryException refusal(String sql, long withinMillis) {
        long start = System.nanoTime();
        QueryException e = catchThrowableOfType(QueryException.class, () -> ws.query(sql));
        assertThat(e).as("%s must fail safely", sql).isNotNull();
        assertThat((System.nanoTime() - start) / 1_000_000).as("bounded time").isLessThan(withinMillis);
        return e;
    }

    @Test
    void a_300_way_self_join_is_refused_before_planning() {
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM loan t0");
        for (int i = 1; i < 300; i++) {
            sql.append(" JOIN loan t").append(i).append(" ON t").append(i).append(".loan_id = t").append(i - 1).append(".loan_id");
        }
        QueryException e = refusal(sql.toString(), 5_000);

        assertThat(e.kind()).isEqualTo(Kind.REFUSED);
        assertThat(e.getMessage()).isEqualTo("Refused: this query joins 300 tables; at most 33 may be joined in one"
                + " query (planning more takes minutes). Join fewer tables, or save a partial result with run_sql's"
                + " label and join that.");
    }

    @Test
    void a_900_term_concatenation_is_refused_by_the_depth_limit() {
        QueryException e = refusal("SELECT 'x'" + " || 'x'".repeat(899), 5_000);

        assertThat(e.kind()).isEqualTo(Kind.INVALID);
        assertThat(e.getMessage()).isEqualTo("SQL is nested too deeply (more than 100 levels of expressions or"
                + " subqueries, e.g. a long chain of ||). Use concat(a, b, …) or list functions, or split the work into"
                + " steps saved with run_sql's label.");
    }

    @Test
    void deeply_nested_subqueries_fail_cleanly() {
        QueryException e = refusal("SELECT * FROM ".repeat(1) + "(SELECT 1 AS x) t".replace("SELECT 1 AS x",
                "SELECT * FROM (".repeat(400) + "SELECT 1 AS x" + ") s".repeat(400)), 10_000);

        assertThat(e.getMessage()).isEqualTo(SqlGuard.TOO_DEEP);
    }

    @Test
    void huge_constant_lists_and_strings_are_refused_before_they_are_built() {
        QueryException list = refusal("SELECT count(*) FROM (SELECT unnest(range(300000000)))", 5_000);
        QueryException text = refusal("SELECT length(repeat('x', 2000000000))", 5_000);

        assertThat(list.kind()).isEqualTo(Kind.REFUSED);
        assertThat(list.getMessage()).isEqualTo("Refused: range(…) builds one value of 300,000,000 characters or items;"
                + " at most 10,000,000 (DuckDB builds it while planning, beyond the memory and time limits). Generate rows"
                + " with FROM range(n) instead, or aggregate.");
        assertThat(text.getMessage()).startsWith("Refused: repeat(…) builds one value of 2,000,000,000 characters");
    }

    @Test
    void nested_calls_whose_constants_multiply_past_the_budget_are_refused_before_they_are_built() {
        // each count is small; together they build a gigabyte (17 s and 2 GB resident when DuckDB ran it)
        assertThat(refusal("SELECT repeat(repeat('x', 99999), 9999) AS s", 2_000).getMessage())
                .startsWith("Refused: repeat(…) builds one value of 999,890,001 characters or items; at most 10,000,000");
        assertThat(refusal("SELECT length(repeat(repeat(repeat('x', 999), 999), 999))", 2_000).getMessage())
                .startsWith("Refused: repeat(…) builds one value of 997,002,999 characters");
        assertThat(refusal("SELECT repeat(concat(repeat('ab', 5000), 'c'), 5000)", 2_000).getMessage())
                .startsWith("Refused: repeat(…) builds one value of 50,005,000 characters");
        assertThat(refusal("SELECT repeat(lpad('x', 100000, 'y'), 101)", 2_000).kind())
                .isEqualTo(Kind.REFUSED);
    }

    @Test
    void streamed_rows_and_small_constants_still_run() throws Exception {
        assertThat(ws.query("SELECT count(*) FROM range(3000000)").scalar()).isEqualTo(3_000_000L);
        assertThat(ws.query("SELECT len(range(1000))").scalar()).isEqualTo(1000L);
        assertThat(ws.query("SELECT length(repeat('ab', 5))").scalar()).isEqualTo(10L);
        assertThat(ws.query("SELECT length(repeat(repeat('ab', 1000), 1000))").scalar()).isEqualTo(2_000_000L);
    }

    @Test
    void running_out_of_memory_is_reported_as_such() {
        QueryException e = refusal("SELECT len(list(range)) FROM range(50000000)", 60_000);

        assertThat(e.kind()).isEqualTo(Kind.FAILED);
        assertThat(e.getMessage()).isEqualTo("Query ran out of memory (limit 200 MB) and was stopped. Aggregate in"
                + " SQL, filter earlier, select fewer columns, or avoid building huge lists and strings.");
    }

    @Test
    void large_sorts_spill_to_a_private_folder_instead_of_failing() throws Exception {
        Object n = ws.query("SELECT count(*) FROM (SELECT range % 7 AS k, range AS v FROM range(8000000) ORDER BY v DESC)")
                .scalar();

        assertThat(n).isEqualTo(8_000_000L);
    }

    @Test
    void the_spill_folder_cannot_be_named_by_agent_sql() {
        for (String sql : new String[] {"SELECT current_setting('temp_directory')",
                "SELECT value FROM duckdb_settings() WHERE name = 'temp_directory'",
                "SELECT path FROM duckdb_temporary_files()"}) {
            assertThat(refusal(sql, 5_000).getMessage()).as(sql).contains("may not be used here");
        }
    }

    @Test
    void closing_a_workspace_removes_its_spill_folder() throws Exception {
        Path spill;
        try (Workspace w = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            spill = Path.of((String) w.trustedQuery("SELECT current_setting('temp_directory')", 1).scalar());
            assertThat(spill.getFileName().toString()).startsWith("sift-spill-");
            assertThat(Files.isDirectory(spill)).isTrue();
        }
        assertThat(Files.exists(spill)).isFalse();
    }

    @Test
    void the_gate_caps_concurrent_queries_and_says_the_server_is_busy() throws Exception {
        try (QueryGate gate = new QueryGate(1, () -> -1);
             var st = java.sql.DriverManager.getConnection("jdbc:duckdb:").createStatement()) {
            QueryGate.Ticket held = gate.admit(st, 1, Duration.ofMillis(10));
            assertThatThrownBy(() -> gate.admit(st, 1, Duration.ofMillis(50)))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("The server is busy: 1 queries are running and none finished within 1 s. Try again in a moment.");
            held.close();
            gate.admit(st, 1, Duration.ofMillis(10)).close();
        }
    }

    @Test
    void the_memory_watch_cancels_a_query_that_grows_the_process_past_the_limit() throws Exception {
        AtomicLong resident = new AtomicLong(1_000_000);
        try (QueryGate gate = new QueryGate(2, resident::get);
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement();
             QueryGate.Ticket ticket = gate.admit(st, 500_000, Duration.ofSeconds(1))) {
            resident.set(2_000_000); // the process grew by 1 MB, twice the limit, while the query runs
            long start = System.nanoTime();
            // hours of work unless something stops it
            assertThatThrownBy(() -> st.executeQuery("SELECT sum(i % 7) FROM range(1000000000000) t(i)"))
                    .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("INTERRUPT");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
            assertThat(ticket.outOfMemory()).isTrue();
        }
    }

    @Test
    void over_its_memory_budget_the_gate_holds_new_queries_and_stops_running_ones() throws Exception {
        AtomicLong resident = new AtomicLong(5L << 30);
        try (QueryGate gate = new QueryGate(4, 4L << 30, resident::get);
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> gate.admit(st, 1L << 40, Duration.ofMillis(200)))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("The server is at its memory budget: the process holds 5,120 MB of its 4,096 MB (Java"
                            + " heap + DuckDB's memory limit + an allowance) and none came free within the time limit."
                            + " Try again in a moment, with a query that selects fewer rows or shorter values.");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
            resident.set(3L << 30); // memory came free: the next query starts, and the place refused is free again
            for (int i = 0; i < 4; i++) {
                gate.admit(st, 1L << 40, Duration.ofMillis(200)).close();
            }
            try (QueryGate.Ticket ticket = gate.admit(st, 1L << 40, Duration.ofSeconds(1))) {
                resident.set(5L << 30); // another session's query took the process past its budget
                assertThatThrownBy(() -> st.executeQuery("SELECT sum(i % 7) FROM range(1000000000000) t(i)"))
                        .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("INTERRUPT");
                assertThat(ticket.overBudget()).isTrue();
                assertThat(ticket.outOfMemory()).isFalse();
            }
        }
    }

    @Test
    void admissions_share_a_recent_reading_of_the_resident_set_and_read_again_once_it_is_old() throws Exception {
        AtomicLong reads = new AtomicLong();
        AtomicLong resident = new AtomicLong(1L << 30);
        try (QueryGate gate = new QueryGate(2, 4L << 30, () -> {
                reads.incrementAndGet();
                return resident.get();
            });
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement()) {
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                gate.admit(st, 1L << 40, Duration.ofSeconds(1)).close();
            }
            long periods = (System.nanoTime() - start) / QueryGate.SAMPLE_NANOS;
            // the budget check and the watch's starting point of every query within one sample's time: one reading
            // (about 1 ms for the 200 on a quiet machine; a reading for each would be 200)
            assertThat(reads.get()).as("readings over %d sample periods", periods).isLessThanOrEqualTo(periods + 1);
            resident.set(5L << 30); // past the budget: an admission after a sample's time sees it
            Thread.sleep(QueryGate.SAMPLE_NANOS / 1_000_000 + 1);
            assertThatThrownBy(() -> gate.admit(st, 1L << 40, Duration.ofMillis(60)))
                    .isInstanceOf(QueryException.class).hasMessageContaining("at its memory budget");
        }
    }

    @Test
    void the_gate_cancels_a_query_at_its_time_limit_even_where_the_process_cannot_be_measured() throws Exception {
        try (QueryGate gate = new QueryGate(2, () -> -1); // no resident set to read: the time limit still holds
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement();
             QueryGate.Ticket ticket = gate.admit(st, 1L << 40, Duration.ofSeconds(1), Duration.ofMillis(300))) {
            long start = System.nanoTime();
            // hours of work unless something stops it
            assertThatThrownBy(() -> st.executeQuery("SELECT sum(i % 7) FROM range(1000000000000) t(i)"))
                    .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("INTERRUPT");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(290)).isLessThan(Duration.ofSeconds(10));
            assertThat(ticket.overTime()).isTrue();
            assertThat(ticket.outOfMemory()).isFalse();
            assertThat(ticket.overBudget()).isFalse();
        }
        try (QueryGate gate = new QueryGate(2, () -> 1_000_000);
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement();
             QueryGate.Ticket ticket = gate.admit(st, 1L << 40, Duration.ofSeconds(1), Duration.ofSeconds(30));
             var rs = st.executeQuery("SELECT sum(i % 7) FROM range(3000000) t(i)")) { // well within its limit
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(8_999_994L);
            assertThat(ticket.overTime()).isFalse();
        }
    }

    @Test
    void a_workspace_query_past_the_time_limit_is_cancelled_with_the_time_limit_message() throws Exception {
        try (Workspace w = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(1)))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> w.query("SELECT count(*) FROM trans a, trans b, trans c"))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("Query cancelled after the time limit of 1 s. Aggregate more, filter earlier, or avoid"
                            + " cross joins.");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(w.query("SELECT 42 AS n").scalar()).as("the session works on after the cancel").isEqualTo(42);
        }
    }

    @Test
    void a_query_within_the_limit_runs_to_its_end_unwatched() throws Exception {
        try (QueryGate gate = new QueryGate(2, () -> 1_000_000);
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); var st = c.createStatement();
             QueryGate.Ticket ticket = gate.admit(st, 500_000, Duration.ofSeconds(1));
             var rs = st.executeQuery("SELECT sum(i % 7) FROM range(3000000) t(i)")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(8_999_994L);
            assertThat(ticket.outOfMemory()).isFalse();
        }
    }

    @Test
    void the_resident_set_is_read_again_and_again_through_its_one_open_file() throws Exception {
        try (QueryGate.ResidentSet resident = new QueryGate.ResidentSet()) {
            for (int i = 0; i < 100; i++) {
                long pages = Long.parseLong(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/statm"))
                        .split(" ")[1]);
                // other tests of this JVM allocate meanwhile: the two reads agree within 64 MB
                assertThat(resident.getAsLong()).as("Linux: /proc/self/statm").isCloseTo(pages * 4096,
                        org.assertj.core.data.Offset.offset(64L << 20));
            }
        }
    }

    @Test
    void memory_limits_are_read_like_duckdb_reads_them() {
        assertThat(QueryGate.parseBytes("2GB")).isEqualTo(2_000_000_000L);
        assertThat(QueryGate.parseBytes("512 MiB")).isEqualTo(512L * 1024 * 1024);
        assertThat(QueryGate.parseBytes("lots")).isEqualTo(-1);
    }

    @Test
    void infinite_dates_print_as_infinity() throws Exception {
        QueryResult r = ws.query("SELECT 'infinity'::DATE AS a, '-infinity'::DATE AS b, 'infinity'::TIMESTAMP AS c,"
                + " DATE '2024-02-29' AS d");

        assertThat(r.rows().get(0)).containsExactly("infinity", "-infinity", "infinity", "2024-02-29");
    }
}
