package dev.sift.bench.dab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DabReportTest {
    static DabResult r(String ds, String q, int it, boolean pass, String error) {
        return new DabResult(ds, q, it, pass, pass ? "ok" : "no match", error, "answer", "not_sampled", "a", 2, 100, 10,
                1500, 20);
    }

    final DabReport report = new DabReport("llm", true, List.of(r("yelp", "query1", 1, true, null),
            r("yelp", "query1", 2, false, null), r("yelp", "query2", 1, false, "the validator failed"),
            r("books", "query1", 1, true, null)));

    @Test
    void pass_at_1_is_the_mean_over_iterations_per_task_dataset_and_overall() {
        assertThat(report.byTask()).extracting(DabReport.Score::scope, DabReport.Score::passed, DabReport.Score::total)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("yelp_query1", 1, 2),
                        org.assertj.core.groups.Tuple.tuple("yelp_query2", 0, 1),
                        org.assertj.core.groups.Tuple.tuple("books_query1", 1, 1));
        assertThat(report.byDataset()).extracting(DabReport.Score::pass1).containsExactly(1.0 / 3, 1.0);
        assertThat(report.overall().pass1()).isEqualTo(0.5);
        StringWriter s = new StringWriter();
        report.print(new PrintWriter(s));
        // yelp_query1 ran twice: its line and the scopes holding it show the spread over iterations and pass^2
        assertThat(s.toString()).contains("yelp_query1              pass@1 0.500 ± 0.707 (1/2), pass^2 0.000")
                .contains("yelp_query2              pass@1 0.000 (0/1)")
                .contains("dataset yelp             pass@1 0.333 ± 0.354 (1/3), pass^2 0.000")
                .contains("dataset books            pass@1 1.000 (1/1)")
                .contains("overall pass@1 0.500 ± 0.471 (2/4), pass^2 0.333 · 6.1s · 8 steps · 440 tokens")
                .contains("1 error(s)");
    }

    @Test
    void report_json_carries_scores_and_every_iteration(@TempDir Path dir) throws Exception {
        report.write(dir);
        JsonNode j = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(j.get("planner").asText()).isEqualTo("llm");
        assertThat(j.get("hints").asBoolean()).isTrue();
        assertThat(j.at("/overall/pass_at_1").asDouble()).isEqualTo(0.5);
        assertThat(j.at("/datasets/0/scope").asText()).isEqualTo("yelp");
        assertThat(j.at("/tasks/1/errors").asInt()).isEqualTo(1);
        assertThat(j.get("iterations")).hasSize(4);
        assertThat(j.at("/iterations/2/error").asText()).isEqualTo("the validator failed");
        assertThat(j.at("/iterations/0/input_tokens").isMissingNode() && j.at("/iterations/0/inputTokens").asLong() == 100).isTrue();
    }

    @Test
    void report_md_lists_each_failure_with_the_validators_reason(@TempDir Path dir) throws Exception {
        report.write(dir);
        assertThat(java.nio.file.Files.readString(dir.resolve("report.md"))).contains("## Failures\n\n"
                + "- yelp_query1 iter 2 (answer): no match\n"
                + "- yelp_query2 iter 1 (answer): could not be scored: the validator failed\n\n## Iterations");
    }

    @Test
    void repeated_iterations_give_pass_at_1_with_its_spread_and_pass_hat_k_per_task_and_overall(@TempDir Path dir)
            throws Exception {
        DabReport repeated = new DabReport("llm", false, List.of(
                r("yelp", "query1", 1, true, null), r("yelp", "query1", 2, true, null), r("yelp", "query1", 3, true, null),
                r("yelp", "query2", 1, true, null), r("yelp", "query2", 2, false, null), r("yelp", "query2", 3, false, null)));
        DabReport.Score q2 = repeated.byTask().get(1);
        assertThat(q2.pass1()).isEqualTo(1.0 / 3);
        assertThat(q2.spread()).isCloseTo(Math.sqrt(1.0 / 3), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(q2.passHatK()).isZero();
        DabReport.Score all = repeated.overall();
        assertThat(all.k()).isEqualTo(3);
        assertThat(all.pass1()).isEqualTo(4.0 / 6);
        // per-iteration pass rates 1, 0.5, 0.5
        assertThat(all.spread()).isCloseTo(Math.sqrt(1.0 / 12), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(all.passHatK()).isEqualTo(0.5);
        StringWriter s = new StringWriter();
        repeated.print(new PrintWriter(s));
        assertThat(s.toString()).contains("yelp_query1              pass@1 1.000 ± 0.000 (3/3), pass^3 1.000")
                .contains("yelp_query2              pass@1 0.333 ± 0.577 (1/3), pass^3 0.000")
                .contains("overall pass@1 0.667 ± 0.289 (4/6), pass^3 0.500 ·");
        repeated.write(dir);
        JsonNode j = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertThat(j.at("/overall/pass_hat_k").asDouble()).isEqualTo(0.5);
        assertThat(j.at("/overall/iterations").asInt()).isEqualTo(3);
        assertThat(j.at("/tasks/1/pass_at_1_spread").asDouble()).isCloseTo(0.577, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(java.nio.file.Files.readString(dir.resolve("report.md")))
                .contains("| yelp_query2 | 0.333 | 0.577 | 0.000 | 1/3 |");
    }
}
