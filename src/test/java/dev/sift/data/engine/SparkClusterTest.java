package dev.sift.data.engine;

import dev.sift.bench.SparkCluster;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spark standalone cluster of separate processes on loopback (a master, two workers of one core each, a Spark
 * Connect server driving them), from the Spark build's jars: a live dataset on {@code sc://} answers with its tasks run
 * by executors in the workers' processes, and a worker killed in the middle of a question costs no answer (Spark
 * reruns its tasks on the other). Several minutes on two busy cores, so only under the Spark profile
 * ({@code mvn -Pspark test -Dtest=SparkClusterTest}); skipped otherwise.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SparkClusterTest {
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofMinutes(4));
    private static SparkCluster cluster;
    private static Dataset events;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("sift.test.spark.cluster"),
                "the cluster tests run under the Spark profile only (mvn -Pspark test -Dtest=SparkClusterTest): skipped");
        Assumptions.assumeTrue(SparkCluster.available() && SparkCluster.connectAvailable(),
                "Spark and its Connect server are not on the classpath (spark-sql_2.13, spark-connect_2.13): skipped");
        cluster = SparkCluster.start(dir.resolve("cluster"), 2, "");
        try (org.apache.spark.sql.connect.SparkSession admin = org.apache.spark.sql.connect.SparkSession.builder()
                .remote(cluster.connectUrl()).create()) {
            admin.sql("CREATE DATABASE analytics");
            admin.sql("CREATE TABLE analytics.loan USING parquet AS SELECT CAST(id AS INT) AS loan_id,"
                    + " CASE WHEN id % 4 = 0 THEN 'B' ELSE 'A' END AS status FROM range(1, 2001, 1, 4)");
        }
        events = LiveConnect.connect(new DatasetStore(dir.resolve("datasets")), "events", cluster.connectUrl(),
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
    void a_question_is_answered_by_executors_in_the_workers_processes() throws Exception {
        try (Workspace ws = Workspace.open(events, LIMITS, null, new dev.sift.data.DatasetTables(1), Map.of(), null)) {
            QueryResult r = ws.query("SELECT status, count(*) AS n FROM loan GROUP BY status ORDER BY status");
            assertThat(r.rows()).extracting(row -> row.get(1)).containsExactly(1500L, 500L);
        }
        // executors of a standalone cluster are numbered; one in the driver's own process would be "driver"
        assertThat(cluster.executorsThatRanTasks()).isNotEmpty().allSatisfy(id -> assertThat(id).matches("\\d+"));
    }

    @Test
    @Order(2)
    void a_worker_killed_during_a_question_costs_no_answer() throws Exception {
        long n = 30_000_000;
        // eight tasks of CPU work (a SHA-256 a row) on two one-core executors; the answer is known: n rows, sum n(n-1)/2
        String sql = "SELECT count(*) AS n, sum(id) AS total FROM range(0, " + n + ", 1, 8)"
                + " WHERE length(sha2(CAST(id AS STRING), 256)) = 64";
        try (CatalogEngine engine = Engines.open(EngineUrl.parse(cluster.connectUrl()), Map.of("database", "analytics"),
                Map.of(), LIMITS, null)) {
            SparkConnectTest.Sink sink = new SparkConnectTest.Sink();
            long t0 = System.nanoTime();
            CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return engine.run(sql, 10, sink);
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
            Thread.sleep(5_000); // the job is under way on both executors (it takes 10 s or more on two cores)
            assertThat(answer).as("the question should still be running when the worker is killed").isNotDone();
            cluster.killWorker(0);
            answer.get(4, TimeUnit.MINUTES);
            assertThat(sink.rows).hasSize(1);
            assertThat(((Number) sink.rows.get(0)[0]).longValue()).isEqualTo(n);
            assertThat(((Number) sink.rows.get(0)[1]).longValue()).isEqualTo(n * (n - 1) / 2);
            System.out.printf("answered in %.1f s with worker 0 killed after 5 s%n", (System.nanoTime() - t0) / 1e9);
        }
    }
}
