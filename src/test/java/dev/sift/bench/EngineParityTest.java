package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;
import dev.sift.data.Dataset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bank suite's first questions (analytic ones of every shape the offline planner builds early in the file: counts,
 * filters, joins through district's "A…" columns, groupings, averages, years, ranges) answered on a live PostgreSQL copy
 * of the test bank (column names kept, a role that may only read) and on a Spark SQL {@code local[1]} copy (Parquet
 * tables), scored against DuckDB's gold: each question must come out exactly as it does on DuckDB. The full suites run
 * through {@code ./sift bench run --engine postgres} and {@code --engine spark}.
 */
class EngineParityTest {
    private static final int ITEMS = 30;
    private static LiveCopy live;
    private static LiveCopy spark;
    private static Dataset duck;
    private static Sift sift;
    private static Map<String, Outcome> onDuck;

    @BeforeAll
    static void start(@TempDir Path home) throws Exception {
        duck = TestDatasets.bank();
        live = LiveCopy.postgres(duck, new PrintWriter(new StringWriter()));
        spark = LiveCopy.spark("spark", duck, new PrintWriter(new StringWriter()));
        sift = new Sift(home, null, dev.sift.data.Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(30)));
        onDuck = outcomes(runner().run(suite(), duck, duck, ITEMS, null).items());
    }

    @AfterAll
    static void stop() throws Exception {
        if (live != null) {
            live.close();
        }
        if (spark != null) {
            spark.close();
        }
    }

    @Test
    void the_first_bank_questions_come_out_on_postgresql_exactly_as_on_duckdb() throws Exception {
        assertSameAsDuckDb(live);
    }

    @Test
    void the_first_bank_questions_come_out_on_spark_exactly_as_on_duckdb() throws Exception {
        assertSameAsDuckDb(spark);
    }

    private static void assertSameAsDuckDb(LiveCopy copy) throws Exception {
        Map<String, Outcome> onEngine = outcomes(runner().run(suite(), duck, copy.dataset(), ITEMS, null).items());
        assertThat(onEngine).isEqualTo(onDuck);
        assertThat(onEngine.values()).doesNotContain(Outcome.WRONG, Outcome.ERROR);
        assertThat(onEngine.values().stream().filter(o -> o == Outcome.CORRECT).count()).isGreaterThanOrEqualTo(20);
    }

    private static Suite suite() throws Exception {
        return Suite.load(Path.of("bench/bank.yaml"));
    }

    private static BenchRunner runner() {
        return new BenchRunner(sift, AgentConfig.defaults());
    }

    private static Map<String, Outcome> outcomes(List<ItemResult> items) {
        return items.stream().collect(Collectors.toMap(r -> r.item().id(), ItemResult::outcome, (a, b) -> a,
                java.util.TreeMap::new));
    }
}
