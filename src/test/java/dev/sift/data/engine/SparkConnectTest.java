package dev.sift.data.engine;

import dev.sift.bench.SparkCluster;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spark Connect against a real server on loopback: a Connect server requiring a token, its own JVM started from the
 * test classpath ({@code local[2]} inside it; {@link SparkClusterTest} drives standalone workers). A live dataset on
 * {@code sc://} reads, refuses writes before they run, cancels on the server at the time limit, caps rows, reads a lake
 * of Parquet and Iceberg tables where the server runs, never shows its token, and says in one line when the server is
 * gone (the last test).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkConnectTest {
    private static final String TOKEN = "s3cret-T0ken-4711";
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(90));
    private static SparkCluster cluster;
    private static DatasetStore store;
    private static Dataset events;
    private static Path home;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(SparkCluster.available() && SparkCluster.connectAvailable(),
                "Spark and its Connect server are not on the classpath (spark-sql_2.13, spark-connect_2.13): skipped");
        home = dir;
        cluster = SparkCluster.start(dir.resolve("cluster"), 0, TOKEN);
        try (org.apache.spark.sql.connect.SparkSession admin = org.apache.spark.sql.connect.SparkSession.builder()
                .remote(cluster.connectUrl() + "/;token=" + TOKEN).create()) {
            admin.sql("CREATE DATABASE analytics");
            admin.sql("CREATE TABLE analytics.loan USING parquet AS SELECT CAST(id AS INT) AS loan_id,"
                    + " CAST(1000 + id * 10 AS DECIMAL(12,2)) AS amount, CASE WHEN id % 4 = 0 THEN 'B' ELSE 'A' END AS status,"
                    + " date_add(DATE '2020-01-01', CAST(id AS INT)) AS granted FROM range(1, 2001)");
        }
        store = new DatasetStore(dir.resolve("datasets"));
        events = LiveConnect.connect(store, "events", cluster.connectUrl() + "/;token=" + TOKEN,
                Map.of("database", "analytics"), Map.of(), LIMITS).dataset();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void a_connect_dataset_reads_the_catalog_and_answers_on_the_cluster() throws Exception {
        assertThat(events.tables()).extracting(Dataset.TableSummary::name).containsExactly("loan");
        assertThat(events.rows("loan")).isEqualTo(2000);
        try (Workspace ws = open(events)) {
            QueryResult r = ws.query("SELECT status, count(*) AS n, min(granted) AS first FROM loan GROUP BY status ORDER BY status");
            assertThat(r.rows()).hasSize(2);
            assertThat(r.rows().get(0).get(1)).isEqualTo(1500L);
            assertThat(r.rows().get(1).get(1)).isEqualTo(500L);
            assertThat(String.valueOf(r.rows().get(0).get(2))).isEqualTo("2020-01-02");
        }
    }

    @Test
    @Order(2)
    void the_token_is_in_no_file_listing_or_message() throws Exception {
        List<String> texts = new ArrayList<>(List.of(events.description(), String.valueOf(events.sources()),
                String.valueOf(events.live())));
        try (Stream<Path> files = Files.walk(home.resolve("datasets"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                texts.add(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        assertThat(texts).allSatisfy(t -> assertThat(t).doesNotContain(TOKEN));
        assertThat(EngineUrl.parse(cluster.connectUrl() + "/;token=" + TOKEN).toString()).doesNotContain(TOKEN).contains("***");
        // a wrong token: one line that names the refusal and the fix, without either token
        assertThatThrownBy(() -> LiveConnect.connect(store, "wrong", cluster.connectUrl() + "/;token=not-" + TOKEN,
                Map.of("database", "analytics"), Map.of(), LIMITS))
                .satisfies(e -> assertThat(e.getMessage()).contains("refused the token").doesNotContain(TOKEN).doesNotContain("\n"));
        // reopened later, the token comes from the environment (never stored)
        try (Workspace ws = open(events)) {
            assertThat(ws.query("SELECT count(*) AS n FROM loan").rows().get(0).get(0)).isEqualTo(2000L);
        }
    }

    @Test
    @Order(3)
    void writes_and_ddl_are_refused_by_the_servers_plan_before_they_run() throws Exception {
        try (ConnectEngine engine = (ConnectEngine) Engines.open(EngineUrl.parse(cluster.connectUrl()),
                Map.of("database", "analytics"), Map.of("SPARK_CONNECT_AUTHENTICATE_TOKEN", TOKEN), LIMITS, null)) {
            // past the first-word check (WITH/FROM/TABLE), the server's parsed plan is what refuses
            for (String sql : List.of("WITH x AS (SELECT 1 AS a) INSERT INTO loan SELECT * FROM loan",
                    "FROM loan INSERT OVERWRITE TABLE loan SELECT *")) {
                assertThatThrownBy(() -> engine.check(sql)).isInstanceOf(QueryException.class)
                        .satisfies(e -> assertThat(((QueryException) e).kind()).isEqualTo(QueryException.Kind.REFUSED))
                        .hasMessageContaining("Spark's plan holds Insert");
            }
            assertThatThrownBy(() -> engine.check("DROP TABLE loan")).hasMessageContaining("Refused");
            assertThatThrownBy(() -> engine.check("SELECT nope FROM loan")).hasMessageContaining("does not bind");
            assertThat(engine.count("SELECT * FROM loan")).isEqualTo(2000); // nothing was written
            engine.check("SELECT status FROM loan");
        }
    }

    @Test
    @Order(4)
    void the_time_limit_interrupts_the_query_on_the_server_and_rows_are_capped() throws Exception {
        Workspace.Limits quick = LIMITS.withQueryTimeout(Duration.ofSeconds(3));
        try (ConnectEngine engine = (ConnectEngine) Engines.open(EngineUrl.parse(cluster.connectUrl()),
                Map.of("database", "analytics"), Map.of("SPARK_CONNECT_AUTHENTICATE_TOKEN", TOKEN), quick, null)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> engine.run("SELECT count(*) FROM range(0, 2000000000) a CROSS JOIN range(0, 1000) b",
                    10, new Sink())).satisfies(e -> assertThat(((QueryException) e).kind()).isEqualTo(QueryException.Kind.TIMEOUT))
                    .hasMessageContaining("cancelled");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
            Sink sink = new Sink();
            assertThat(engine.run("SELECT loan_id FROM loan ORDER BY loan_id", 7, sink)).isTrue();
            assertThat(sink.rows).hasSize(7);
        }
    }

    @Test
    @Order(5)
    void a_lake_of_parquet_and_iceberg_tables_is_read_where_the_server_runs_and_pruned_by_partition() throws Exception {
        Path lake = home.resolve("lake");
        try (org.apache.spark.sql.connect.SparkSession admin = org.apache.spark.sql.connect.SparkSession.builder()
                .remote(cluster.connectUrl() + "/;token=" + TOKEN).create()) {
            admin.range(0, 3000).selectExpr("CAST(id AS INT) AS sale_id", "CAST(2022 + id % 3 AS INT) AS year")
                    .write().partitionBy("year").parquet(lake.resolve("sales").toString());
            admin.conf().set("spark.sql.catalog.ice", "org.apache.iceberg.spark.SparkCatalog");
            admin.conf().set("spark.sql.catalog.ice.type", "hadoop");
            admin.conf().set("spark.sql.catalog.ice.warehouse", home.toString());
            admin.sql("CREATE TABLE ice.lake.trips (trip_id INT, year INT) USING iceberg PARTITIONED BY (year)");
            admin.sql("INSERT INTO ice.lake.trips SELECT CAST(id AS INT), CAST(2020 + id % 4 AS INT) FROM range(0, 400)");
        }
        Dataset ds = LiveConnect.connect(store, "lake", cluster.connectUrl() + "/;token=" + TOKEN,
                Map.of("lake", lake.toString()), Map.of(), LIMITS).dataset();
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name).containsExactly("sales", "trips");
        assertThat(ds.rows("sales")).isEqualTo(3000);
        assertThat(ds.rows("trips")).isEqualTo(400);
        try (SparkSqlEngine engine = (SparkSqlEngine) Engines.open(EngineUrl.parse(cluster.connectUrl()), Map.of("lake",
                lake.toString()), Map.of("SPARK_CONNECT_AUTHENTICATE_TOKEN", TOKEN), LIMITS, null)) {
            Sink sink = new Sink();
            engine.run("SELECT count(*) AS n FROM sales WHERE year = 2023", 10, sink);
            assertThat(sink.rows.get(0)[0]).isEqualTo(1000L);
            assertThat(plan(engine, "SELECT count(*) FROM sales WHERE year = 2023"))
                    .containsPattern("PartitionFilters: \\[[^\\]]*\\(year#\\d+ = 2023\\)");
            assertThat(plan(engine, "SELECT sum(trip_id) FROM trips WHERE year = 2021"))
                    .containsPattern("BatchScan .*trips").containsPattern("filters=[^\\n]*year = 2021");
        }
    }

    private static String plan(SparkSqlEngine engine, String sql) {
        return engine.session.sql("EXPLAIN FORMATTED " + sql).collectAsList().stream().map(Object::toString)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    @Test
    @Order(6)
    void a_connect_server_that_is_down_is_said_in_one_line() throws Exception {
        cluster.killConnectServer();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> LiveConnect.connect(store, "gone", cluster.connectUrl() + "/;token=" + TOKEN,
                Map.of("database", "analytics"), Map.of(), LIMITS))
                .satisfies(e -> assertThat(e.getMessage()).startsWith("No Spark Connect server answers at sc://localhost:")
                        .contains("start it").doesNotContain(TOKEN).doesNotContain("\n"));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
    }

    private static Workspace open(Dataset ds) {
        return Workspace.open(ds, LIMITS, null, new dev.sift.data.DatasetTables(1),
                Map.of("SPARK_CONNECT_AUTHENTICATE_TOKEN", TOKEN), null);
    }

    /** The rows an engine sends, kept (also for {@link SparkClusterTest}). */
    static final class Sink implements dev.sift.data.LiveEngine.RowSink {
        final List<Object[]> rows = new ArrayList<>();

        @Override
        public void columns(List<QueryResult.Column> columns) { }

        @Override
        public void row(Object[] values) {
            rows.add(values);
        }
    }
}
