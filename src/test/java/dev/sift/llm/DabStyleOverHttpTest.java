package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.bench.dab.DabStyleData;
import dev.sift.bench.dab.DabStyleSet;
import dev.sift.bench.dab.DabValidator;
import dev.sift.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The DAB-style set pkgdesk (DuckDB, SQLite, MongoDB dump; nine questions, one skill each) written by {@code sift bench
 * dab-style} and run by {@code sift bench dab} in-process, with the model behind a local OpenAI-compatible server:
 * a scripted model that uses the tools passes every task; one that pages the rows (and does statistics and unions by
 * hand) spends at least three times the tokens; offline, every task ends in an answer that says what it could not do.
 */
class DabStyleOverHttpTest {
    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @AfterEach
    void clearHome() {
        System.clearProperty("sift.home");
    }

    private record Ran(String out, String err, JsonNode report) { }

    private Ran bench(Path home, DabStyleModel model, Path root) throws Exception {
        Files.createDirectories(home);
        if (model != null) {
            Files.writeString(home.resolve("sift.yaml"), "llm:\n  provider: openai\n  base_url: " + llm.server().baseUrl()
                    + "\n  model: scripted\n  api_key: test-key\n  retries: 0\n");
            llm.server().reset();
            llm.server().respond(model::reply);
        }
        System.setProperty("sift.home", home.toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path report = home.resolve("report");
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), "bench", "dab", "--root", root.toString(),
                "--dataset", DabStyleSet.NAME, "--max-steps", "40", "--out", report.toString());
        assertThat(exit).as(out + "\n" + err).isZero();
        return new Ran(out.toString(), err.toString(), JSON.readTree(report.resolve("report.json").toFile()));
    }

    /** Each failed task's last observation and answer, for the assertion's message. */
    private static String failed(Path report) throws Exception {
        StringBuilder b = new StringBuilder();
        try (var traces = Files.newDirectoryStream(report, "pkgdesk_query*_iter1.json")) {
            for (Path trace : traces) {
                JsonNode t = JSON.readTree(trace.toFile());
                if (!t.path("verdict").path("passed").asBoolean()) {
                    JsonNode steps = t.path("run").path("raw_steps");
                    b.append(trace.getFileName()).append(": ").append(t.path("result").path("answer").asText()).append(" <- ")
                            .append(steps.findValuesAsText("observation")).append('\n');
                }
            }
        }
        return b.toString();
    }

    @Test
    void a_scripted_model_using_the_tools_passes_every_task_for_a_third_of_the_tokens_of_paging_and_offline_says_why_not()
            throws Exception {
        assumeTrue(new DabValidator("python3", Duration.ofSeconds(5)).unavailable() == null,
                "python3 is not installed: DataAgentBench validators need it; skipping");
        Path root = tmp.resolve("dab");
        StringWriter wrote = new StringWriter();
        assertThat(Main.run(new PrintWriter(wrote), new PrintWriter(new StringWriter()), "bench", "dab-style", "--out",
                root.toString())).isZero();
        assertThat(wrote.toString()).contains("query9  multi_column_join");
        DabStyleData truth = DabStyleData.generate(DabStyleSet.SEED);

        DabStyleModel tools = new DabStyleModel(DabStyleModel.Mode.TOOLS, truth);
        Ran withTools = bench(tmp.resolve("home-tools"), tools, root);
        assertThat(withTools.out()).as(failed(tmp.resolve("home-tools/report"))).contains("overall pass@1 1.000 (9/9)");

        DabStyleModel paging = new DabStyleModel(DabStyleModel.Mode.PAGING, truth);
        Ran paged = bench(tmp.resolve("home-paging"), paging, root);
        long toolTokens = tools.plannerTokens + tools.rowTokens;
        long pagingTokens = paging.plannerTokens + paging.rowTokens;
        System.out.printf("pkgdesk: tools %,d tokens (planner %,d in %d requests + row batches %,d in %d requests);"
                        + " paging %,d tokens (%d requests); %.1f %%; paging run: %s%n", toolTokens, tools.plannerTokens,
                tools.plannerRequests, tools.rowTokens, tools.rowRequests, pagingTokens, paging.plannerRequests,
                100.0 * toolTokens / pagingTokens, paged.out().lines().filter(l -> l.startsWith("overall")).findFirst().orElse(""));
        assertThat(paged.out()).as(failed(tmp.resolve("home-paging/report"))).contains("overall pass@1 1.000 (9/9)");
        assertThat(toolTokens * 3).isLessThanOrEqualTo(pagingTokens);

        Ran offline = bench(tmp.resolve("home-offline"), null, root);
        assertThat(offline.out()).contains("overall pass@1 0.000 (0/9)")
                .contains("No model is configured: the offline planner answers only what it can prove");
        java.util.Map<String, JsonNode> results = new java.util.TreeMap<>();
        try (var traces = Files.newDirectoryStream(tmp.resolve("home-offline/report"), "pkgdesk_query*_iter1.json")) {
            for (Path trace : traces) {
                results.put(trace.getFileName().toString().replace("_iter1.json", ""), JSON.readTree(trace.toFile()).path("result"));
            }
        }
        System.out.println("pkgdesk offline:\n" + String.join("\n", results.entrySet().stream().map(e -> e.getKey() + ": "
                + e.getValue().path("answer").asText().lines().findFirst().orElse("")).toList()));
        // no guess: every task is asked back, and those needing labels, a match or a test say so and what would do it
        assertThat(results).hasSize(9).allSatisfy((q, r) -> assertThat(r.path("kind").asText()).as(q).isEqualTo("clarification"));
        for (String q : List.of("pkgdesk_query1", "pkgdesk_query2", "pkgdesk_query3", "pkgdesk_query4")) {
            assertThat(results.get(q).path("answer").asText()).as(q).containsPattern("(does not plan|does not yet plan)")
                    .containsPattern("(classify_rows|match_records|stat_test)").contains("model configured");
        }
    }
}
