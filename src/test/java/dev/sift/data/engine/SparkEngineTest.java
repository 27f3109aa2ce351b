package dev.sift.data.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.CellCuts;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.SqlDialect;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.apache.spark.sql.classic.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spark SQL in this process ({@code local[1]}, one shuffle partition, no UI) as a live dataset: catalog tables written by Spark, reached
 * through the master URL exactly as a {@code spark://} cluster would be. One Spark session for the class.
 */
class SparkEngineTest {
    private static SparkSession spark;
    private static Path home;
    private static DatasetStore store;
    private static Dataset events;
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(120));

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        spark = LocalSpark.session("sift-test", dir.resolve("warehouse"));
        spark.sql("CREATE TABLE account USING parquet AS SELECT CAST(id AS INT) AS account_id,"
                + " CASE id % 3 WHEN 0 THEN 'north' WHEN 1 THEN 'south' ELSE 'west' END AS region,"
                + " date_add(DATE '2020-01-01', CAST(id AS INT)) AS opened FROM range(1, 301)");
        spark.sql("CREATE TABLE loan USING parquet AS SELECT CAST(id AS INT) AS loan_id, CAST(1 + id % 300 AS INT) AS account_id,"
                + " CAST(1000 + id * 10 AS DECIMAL(12,2)) AS amount, CASE WHEN id % 4 = 0 THEN 'B' ELSE 'A' END AS status"
                + " FROM range(1, 2001)");
        home = dir;
        store = new DatasetStore(dir.resolve("datasets"));
        events = LiveConnect.connect(store, "events", "local[1]", Map.of(), Map.of(), LIMITS).dataset();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void the_driver_and_its_executor_listen_and_advertise_on_loopback_only() {
        assertThat(spark.conf().get("spark.driver.host")).isEqualTo("127.0.0.1");
        assertThat(spark.conf().get("spark.driver.bindAddress")).isEqualTo("127.0.0.1");
        assertThat(spark.conf().get("spark.ui.enabled")).isEqualTo("false");
        // the name Spark gives this host (else the first non-loopback interface, with a warning) and every block manager
        assertThat(org.apache.spark.util.Utils.localHostName()).isEqualTo("127.0.0.1");
        assertThat(scala.jdk.javaapi.CollectionConverters.asJava(spark.sparkContext().getExecutorMemoryStatus()).keySet())
                .isNotEmpty().allSatisfy(hostPort -> assertThat(hostPort).startsWith("127.0.0.1:"));
        assertThat(LocalSpark.onThisHost("spark://127.0.0.1:7077")).isTrue();
        assertThat(LocalSpark.onThisHost("spark://spark-master.internal:7077")).isFalse();
    }

    @Test
    void connecting_reads_the_catalog_without_copying_and_says_spark_has_no_read_only_session() throws Exception {
        assertThat(events.onEngine()).isTrue();
        assertThat(events.tables()).extracting(Dataset.TableSummary::name).containsExactly("account", "loan");
        assertThat(events.rows("loan")).isEqualTo(2000);
        EngineFile file = EngineFile.read(events.file());
        assertThat(file.tables().get(1).columns()).extracting(EngineFile.Column::type)
                .containsExactly("BIGINT", "BIGINT", "DOUBLE", "VARCHAR");
        LiveConnect.Connected again = LiveConnect.connect(store, "events_again", "local[1]", Map.of(), Map.of(), LIMITS);
        assertThat(again.notes()).anySatisfy(n -> assertThat(n).contains("may be able to write (Spark SQL has no read-only"
                + " session, so Sift cannot tell what the cluster's account may write)"));
    }

    @Test
    void a_long_value_is_cut_by_the_executors_with_substr_and_the_cut_is_stated() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            QueryResult r = ws.query("SELECT 7 AS id, repeat('x', 200000) AS s, status FROM loan WHERE loan_id = 4");
            assertThat(r.rows().get(0).get(0)).isEqualTo(7L);
            assertThat((String) r.rows().get(0).get(1)).hasSize(32768).matches("x+"); // two wide columns share the chunk
            assertThat(r.rows().get(0).get(2)).isEqualTo("B");
            assertThat(r.cuts().columns()).containsExactly(new CellCuts.Column("s", 1, 200_000, false));
            assertThat(r.cuts().statement()).startsWith("Cut to the result's byte budget: 1 value of s was over 32 KB (the"
                    + " largest 200,000 bytes) and kept its first 32 KB.");
            // multi-byte text keeps a quarter as many characters; a list over the budget comes back NULL
            QueryResult wide = ws.query("SELECT repeat('é', 40000) AS e, array_repeat('abc', 30000) AS a, array(1, 2) AS small");
            String e = (String) wide.rows().get(0).get(0);
            assertThat(e.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(21845);
            assertThat(e).matches("é+");
            assertThat(wide.rows().get(0).get(1)).isNull();
            assertThat(wide.rows().get(0).get(2)).isNotNull();
            assertThat(wide.cuts().columns()).extracting(CellCuts.Column::name, CellCuts.Column::dropped)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("e", false), org.assertj.core.groups.Tuple.tuple("a", true));
            assertThat(wide.cuts().statement()).contains("1 value of a was over 21,845 bytes").contains("came back as NULL");
            QueryResult plain = ws.query("SELECT status, count(*) AS n FROM loan GROUP BY status ORDER BY status");
            assertThat(plain.cuts().any()).isFalse();
        }
    }

    @Test
    void agent_sql_runs_on_spark_and_a_labelled_result_comes_back_as_a_frame() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            assertThat(ws.dialect()).isEqualTo(SqlDialect.SPARK);
            QueryResult r = ws.query("SELECT status, count(*) AS n FROM loan GROUP BY status ORDER BY status");
            assertThat(r.rows()).containsExactly(List.of("A", 1500L), List.of("B", 500L));
            // Spark's own syntax (backquotes) goes to Spark as it is
            assertThat(ws.query("SELECT count(`loan_id`) FROM `loan` WHERE `status` = 'B'").scalar()).isEqualTo(500L);
            ws.saveFrame("by_region", "SELECT a.region, sum(l.amount) AS total FROM loan l JOIN account a"
                    + " ON a.account_id = l.account_id GROUP BY a.region");
            QueryResult local = ws.query("SELECT list(region ORDER BY region) AS regions FROM frames.by_region");
            assertThat(local.scalar()).isEqualTo("[north, south, west]");
        }
    }

    @Test
    void try_cast_reads_nan_and_infinity_as_duckdb_does_and_other_words_as_null() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            List<List<Object>> rows = ws.trustedQuery("SELECT s.k, TRY_CAST(s.t AS DOUBLE) AS d, TRY_CAST(s.t AS"
                    + " DECIMAL(18,3)) AS m FROM account CROSS JOIN (SELECT 1 AS k, 'NaN' AS t UNION ALL SELECT 2, ' -Infinity'"
                    + " UNION ALL SELECT 3, 'inf' UNION ALL SELECT 4, '+INF' UNION ALL SELECT 5, ' 2.5 ' UNION ALL"
                    + " SELECT 6, 'n/a') s WHERE account.account_id = 1 ORDER BY s.k", 10).rows();
            // DuckDB's values for the same texts (see PostgresEngineTest, which compares with DuckDB itself)
            assertThat(rows.stream().map(r -> r.get(1) + " " + r.get(2))).containsExactly("NaN null", "-Infinity null",
                    "Infinity null", "Infinity null", "2.5 2.5", "null null");
        }
    }

    @Test
    void date_sub_over_timestamps_counts_whole_elapsed_units_as_duckdb_does() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            List<List<Object>> rows = ws.trustedQuery("SELECT s.k, date_sub('day', s.a, s.b) AS days, date_sub('hour', s.a,"
                    + " s.b) AS hours FROM account CROSS JOIN (SELECT 1 AS k, TIMESTAMP '2020-01-01 12:00' AS a, TIMESTAMP"
                    + " '2020-01-02 11:00' AS b UNION ALL SELECT 2, TIMESTAMP '2020-01-02 11:00', TIMESTAMP '2020-01-01 12:00'"
                    + " UNION ALL SELECT 3, TIMESTAMP '2020-01-03 12:00', TIMESTAMP '2020-01-01 12:30') s"
                    + " WHERE account.account_id = 1 ORDER BY s.k", 10).rows();
            assertThat(rows).containsExactly(List.of(1L, 0L, 23L), List.of(2L, 0L, -23L), List.of(3L, -1L, -47L));
        }
    }

    @Test
    void a_day_count_is_a_bigint_as_on_duckdb_so_a_sort_key_built_from_it_does_not_overflow() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            // the bank knowledge file's "last balance" key: days since 1900 scaled past 32 bits
            Object key = ws.trustedQuery("SELECT max(datediff('day', DATE '1900-01-01', opened) * 100000000 + account_id)"
                    + " FROM account", 10).rows().get(0).get(0);
            long days = java.time.temporal.ChronoUnit.DAYS.between(java.time.LocalDate.of(1900, 1, 1),
                    java.time.LocalDate.of(2020, 1, 1).plusDays(300));
            assertThat(key).isEqualTo(days * 100000000L + 300);
        }
    }

    @Test
    void the_guard_accepts_only_read_plans_from_sparks_parser() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            assertThatThrownBy(() -> ws.query("WITH x AS (SELECT 1 AS a) INSERT INTO loan SELECT 1, 1, 1.0, 'Z' FROM x"))
                    .isInstanceOf(QueryException.class)
                    .hasMessageStartingWith("Refused: only one read-only query (SELECT or WITH … SELECT) may run on Spark SQL;")
                    .hasMessageEndingWith("(Spark's plan holds InsertIntoStatement)");
            assertThatThrownBy(() -> ws.query("DROP TABLE loan"))
                    .hasMessageStartingWith("Refused: only one read-only query (SELECT or WITH … SELECT) may run on Spark SQL;"
                            + " this SQL is a DROP statement.");
            assertThatThrownBy(() -> ws.query("SELECT 1; DROP TABLE loan"))
                    .hasMessage("Refused: exactly one statement may run at a time; this SQL has 2. Send them one by one.");
            assertThat(ws.query("SELECT count(*) FROM loan").scalar()).isEqualTo(2000L);
        }
    }

    @Test
    void sql_that_does_not_bind_gets_sparks_analyzer_error() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            assertThatThrownBy(() -> ws.query("SELECT amout FROM loan"))
                    .isInstanceOf(QueryException.class)
                    .satisfies(e -> assertThat(((QueryException) e).kind()).isEqualTo(QueryException.Kind.INVALID))
                    .hasMessageStartingWith("SQL does not bind on Spark SQL: [UNRESOLVED_COLUMN")
                    .hasMessageContaining("amount");
            assertThatThrownBy(() -> ws.query("SELECT * FROM loans"))
                    .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND")
                    .hasMessageEndingWith("Tables on Spark SQL: account, loan.");
        }
    }

    @Test
    void a_slow_query_is_cancelled_as_a_job_group_at_the_time_limit() throws Exception {
        Workspace.Limits quick = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(2));
        try (Workspace ws = Workspace.open(events, quick)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> ws.query("SELECT count(*) FROM range(0, 100000000) a CROSS JOIN range(0, 100000000) b"
                    + " WHERE a.id + b.id = -1"))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("Query cancelled on Spark SQL after the time limit of 2 s. Aggregate more, filter earlier,"
                            + " or avoid cross joins.");
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        while (spark.sparkContext().statusTracker().getActiveJobIds().length > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(spark.sparkContext().statusTracker().getActiveJobIds()).isEmpty();
    }

    @Test
    void a_result_too_big_to_bring_back_stays_on_spark() throws Exception {
        Dataset capped = LiveConnect.connect(store, "events_capped", "local[1]", Map.of("max_rows", "100"), Map.of(),
                LIMITS).dataset();
        try (Workspace ws = Workspace.open(capped, LIMITS)) {
            assertThatThrownBy(() -> ws.saveFrame("all_loans", "SELECT * FROM loan"))
                    .hasMessage("The result is too big to bring back: more than 100 rows (2,000 on the engine). It stays on"
                            + " Spark SQL: aggregate it there (GROUP BY with count, sum or avg) or filter it, and keep the"
                            + " smaller result.");
            assertThat(ws.frames()).isEmpty();
        }
    }

    @Test
    void the_automatic_knowledge_graph_comes_from_bounded_samples_on_spark() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            var kg = Knowledge.build(ws, java.util.Optional.empty()).graph();
            assertThat(kg.joins()).extracting(KgEntry.Join::condition).contains("loan.account_id = account.account_id");
            assertThat(kg.column("account", "region")).get().extracting(KgEntry.Column::values)
                    .isEqualTo(List.of("north", "south", "west"));
        }
    }

    @Test
    void analysis_tools_run_on_rows_brought_back_from_spark_and_say_so() throws Exception {
        ToolRegistry tools = Sift.defaultTools();
        try (Workspace ws = Workspace.open(events, LIMITS)) {
            ToolResult r = tools.run(tools.prepare("correlation_analysis", new ObjectMapper().readTree("{\"source\":\"loan\"}"),
                    ws), new ToolContext(ws, null, "what correlates with amount?"));
            assertThat(r.ok()).as(r.summary()).isTrue();
            assertThat(r.note()).hasValue("Computed in this session on all 2,000 rows of loan, brought back from Spark SQL"
                    + " as frame sample_loan.");
            assertThat(ws.frames()).extracting(dev.sift.data.TableInfo::name).contains("sample_loan");
        }
    }

    @Test
    void the_offline_planner_answers_on_spark_in_its_dialect() throws Exception {
        Sift sift = new Sift(home, null, LIMITS);
        var run = sift.ask("What is the median amount of loans?", events, AgentConfig.defaults()).run();
        assertThat(run.evidence()).as(run.answer()).isNotEmpty();
        assertThat(run.evidence().get(run.evidence().size() - 1).sql()).contains("percentile(`loan`.`amount`, 0.5)");
        assertThat(run.answer()).startsWith("The median of loan.amount is 11,005.");
    }
}
