package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.TestDatasets;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every gold query of the shipped suites binds and runs on the test bank (same schema as bank and pkdd). */
class ShippedSuitesTest {
    @Test
    void every_gold_sql_of_the_shop_suite_runs_on_the_generated_shop_and_the_suite_has_at_least_40_questions()
            throws Exception {
        Suite suite = Suite.load(Path.of("bench/shop.yaml"));
        assertThat(suite.items()).hasSizeGreaterThanOrEqualTo(40);
        List<String> failures = new ArrayList<>();
        try (Workspace ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults())) {
            for (Suite.Item item : suite.items()) {
                if (item.goldSql() != null) {
                    try {
                        QueryResult r = ws.query(item.goldSql());
                        if (r.rows().isEmpty()) {
                            failures.add(item.id() + ": no rows");
                        }
                    } catch (Exception e) {
                        failures.add(item.id() + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void every_gold_sql_of_the_shipped_suites_runs_on_the_test_bank() throws Exception {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        Workspace.Limits d = Workspace.Limits.defaults();
        try (Workspace ws = Workspace.open(TestDatasets.bank(), new Workspace.Limits(d.threads(), d.memoryLimit(),
                d.queryTimeout(), BenchRunner.GOLD_ROWS))) {
            for (String file : List.of("bench/bank.yaml", "bench/pkdd.yaml", "bench/adversarial.yaml",
                    "bench/bank-paraphrase.yaml", "bench/pkdd-shapes.yaml", "bench/pkdd-others.yaml",
                    "bench/pkdd-others2.yaml", "bench/pkdd-others3.yaml")) {
                Suite suite = Suite.load(Path.of(file));
                for (Suite.Item item : suite.items()) {
                    if (item.goldSql() == null) {
                        continue;
                    }
                    checked++;
                    try {
                        QueryResult r = ws.query(item.goldSql());
                        if (item.tier() == Suite.Tier.PREDICTIVE && r.columns().size() != 1) {
                            failures.add(file + " " + item.id() + ": a predictive gold lists ids in one column");
                        }
                        if (item.scoring() == Suite.Scoring.NUMERIC && (r.columns().size() != 1 || r.rows().size() != 1)) {
                            failures.add(file + " " + item.id() + ": numeric scoring needs a single value");
                        }
                    } catch (Exception e) {
                        failures.add(file + " " + item.id() + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isGreaterThan(600);
    }

    @Test
    void the_conversation_suite_has_at_least_30_conversations_of_2_to_4_turns_whose_gold_sql_runs_on_the_test_bank()
            throws Exception {
        Suite suite = Suite.load(Path.of("bench/bank-chat.yaml"));
        Suite real = Suite.load(Path.of("bench/pkdd-chat.yaml"));
        assertThat(suite.conversations()).hasSizeGreaterThanOrEqualTo(30)
                .allSatisfy(d -> assertThat(d.turns()).as(d.id()).hasSizeBetween(2, 4));
        assertThat(real.conversations()).allSatisfy(d -> assertThat(d.turns()).as(d.id()).hasSizeBetween(2, 4));
        List<String> failures = new ArrayList<>();
        try (Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            for (Suite.Item turn : java.util.stream.Stream.concat(suite.allItems().stream(), real.allItems().stream())
                    .toList()) {
                if (turn.goldSql() != null) {
                    try {
                        ws.query(turn.goldSql());
                    } catch (Exception e) {
                        failures.add(turn.id() + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(suite.allItems()).extracting(i -> i.tier()).contains(Suite.Tier.ADVERSARIAL, Suite.Tier.CLARIFY);
    }
}
