package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PlanScoreTest {
    private static ItemResult ran(List<String> needed, List<String> forbidden, List<String> used) {
        Suite.Item item = new Suite.Item("a", Suite.Tier.ANALYTIC, "q", "SELECT 1", null, Suite.Scoring.ROW_SET, 0, null,
                null, null, needed, forbidden);
        return new ItemResult(item, Outcome.CORRECT, null, "answer", "x", List.of(), 0.1, 1, "rule_based", null, null, used);
    }

    @Test
    void recall_counts_needed_tools_used_and_precision_the_used_tools_not_forbidden() {
        PlanScore s = PlanScore.of(ran(List.of("train_model", "predict"), List.of("run_sql"), List.of("predict", "run_sql",
                "explain_prediction")));
        assertThat(s.recall()).isEqualTo(0.5);
        assertThat(s.precision()).isEqualTo(2.0 / 3);
    }

    @Test
    void an_item_that_names_no_tools_has_no_plan_score_and_is_left_out_of_the_mean() {
        assertThat(PlanScore.of(ran(List.of(), List.of(), List.of("run_sql")))).isEqualTo(new PlanScore(null, null));
        PlanScore mean = PlanScore.mean(List.of(ran(List.of(), List.of(), List.of("run_sql")),
                ran(List.of("run_sql"), List.of("predict"), List.of("run_sql"))));
        assertThat(mean).isEqualTo(new PlanScore(1.0, 1.0));
        assertThat(mean.line(1)).isEqualTo("plan: precision 1.000, recall 1.000 over 1 items that name tools");
    }
}
