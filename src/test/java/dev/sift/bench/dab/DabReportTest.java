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
        assertThat(s.toString()).contains("yelp_query1              pass@1 0.500 (1/2)")
                .contains("dataset yelp             pass@1 0.333 (1/3)")
                .contains("overall pass@1 0.500 (2/4) · 6.1s · 8 steps · 440 tokens")
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
}
