package dev.sift.bench;

import dev.sift.OnBankWorkspace;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.bench.datagen.Datagen;
import dev.sift.bench.suite.Suite;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.ScriptedLlm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generated suite on the model path: the real model planner, driven by a scripted model that runs each question's
 * gold query except for one template's, where it runs a wrong one; {@code bench run}'s report scores each template
 * and wording apart.
 */
class GeneratedSuiteModelPathTest extends OnBankWorkspace {
    @TempDir
    Path home;

    @Test
    void bench_run_on_the_model_path_scores_a_generated_suite_per_template_and_per_wording() throws Exception {
        dev.sift.bench.datagen.GeneratedSuite generated = new Datagen(ws, Knowledge.load(ws).graph()).generate(new Datagen.Options(40, 3)).suite();
        List<Suite.Item> items = generated.items().stream().filter(i -> i.tier() == Suite.Tier.ANALYTIC).toList();
        ScriptedLlm model = new ScriptedLlm(request -> reply(request, items));
        Sift sift = new Sift(home, model, Workspace.Limits.defaults());
        Suite suite = new Suite("generated", "bank", null, null, Path.of("gen.yaml"), Map.of(), items);
        StringWriter printed = new StringWriter();
        BenchReport report = new BenchRunner(sift, AgentConfig.defaults()).run(suite, TestDatasets.bank(), 0, null);
        report.printSummary(new PrintWriter(printed, true));

        assertThat(report.json().get("planner")).isNotEqualTo("offline");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> byTemplate = (Map<String, Map<String, Object>>) report.json().get("by_template");
        assertThat(byTemplate.get("count_value")).containsEntry("correct", 0).containsEntry("precision", 0.0)
                .containsEntry("coverage", 1.0);
        byTemplate.forEach((template, t) -> {
            if (!template.equals("count_value")) {
                assertThat(t).as(template).containsEntry("precision", 1.0).containsEntry("coverage", 1.0);
            }
        });
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> byWording = (Map<String, Map<String, Object>>) report.json().get("by_wording");
        assertThat(byWording).containsKeys("plain", "reordered", "synonyms");
        long countValue = items.stream().filter(i -> i.template().equals("count_value") && i.wording().equals("plain")).count();
        assertThat(byWording.get("plain")).containsEntry("total", (int) items.stream().filter(i -> i.wording().equals("plain")).count())
                .containsEntry("correct", (int) (items.stream().filter(i -> i.wording().equals("plain")).count() - countValue));
        assertThat(printed.toString()).contains("  by template      total answered correct precision coverage")
                .containsPattern("  count_value +\\d+ +\\d+ +0 +0\\.000 +1\\.000");
    }

    /** The gold query of the question asked (a wrong one for count_value), then the answer. */
    private static String reply(LlmRequest request, List<Suite.Item> items) {
        if (request.messages().size() > 2) {
            return PromptTokenBench.FINAL;
        }
        String asked = request.messages().get(request.messages().size() - 1).content();
        Suite.Item item = items.stream().filter(i -> asked.contains(i.question()))
                .max(Comparator.comparingInt(i -> i.question().length())).orElseThrow();
        return PromptTokenBench.call(item.template().equals("count_value") ? "SELECT -1 AS n" : item.goldSql());
    }
}
