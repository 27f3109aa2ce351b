package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift bench run --suite FILE}: the reports, the printed summary, skipping and usage errors. */
class BenchRunCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    private static Path suite(String name, String yaml) throws Exception {
        Path f = home.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void runs_a_suite_prints_the_summary_and_writes_both_reports() throws Exception {
        CliHarness.assumeOffline();
        Path s = suite("tiny.yaml", """
                suite: tiny
                dataset: bank
                targets: {clarify.accuracy: 1.0}
                items:
                  - {id: a1, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT count(*) FROM loan"}
                  - {id: c1, tier: clarify, expect: clarify, question: "Show me the best accounts."}
                """);
        Path out = home.resolve("out");
        CliHarness.Result r = ok("bench", "run", "--suite", s.toString(), "--out", out.toString());
        assertThat(r.out()).startsWith("Suite tiny on dataset bank, planner offline: 2 items, median answer time ")
                .contains("  overall          2        2       2     0         0     0     1.000    1.000    1.000")
                .contains("target clarify.accuracy").contains("Reports: " + out.resolve("report.json"));
        assertThat(r.err()).contains("[1/2] a1").contains("[2/2] c1");
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(json.get("items")).hasSize(2);
        assertThat(json.get("items").get(0).get("outcome").asText()).isEqualTo("correct");
        assertThat(Files.readString(out.resolve("report.md"))).startsWith("# Bench report: tiny");
    }

    @Test
    void skips_a_suite_whose_dataset_is_not_built() throws Exception {
        Path s = suite("pk.yaml", "suite: pk\ndataset: pkdd\nbuild_hint: ./sift load pkdd --from ../shared/data/berka\n"
                + "items:\n  - {id: a1, tier: analytic, question: \"How many loans?\", gold_sql: \"SELECT 1\"}\n");
        CliHarness.Result r = ok("bench", "run", "--suite", s.toString());
        assertThat(r.out().strip()).isEqualTo("Skipped suite pk: dataset 'pkdd' is not built in " + home.resolve("datasets")
                + ". Build it with: ./sift load pkdd --from ../shared/data/berka");
    }

    @Test
    void usage_errors() throws Exception {
        assertThat(usageError("bench", "run")).isEqualTo(
                "sift: error: bench run needs --suite FILE, e.g. ./sift bench run --suite bench/bank.yaml");
        Path bad = suite("bad.yaml", "suite: b\ndataset: bank\nitems:\n  - {id: a1, tier: analytic, question: q}\n");
        assertThat(usageError("bench", "run", "--suite", bad.toString()))
                .isEqualTo("sift: error: " + bad + ": item 'a1' (#1): an analytic item needs 'gold_sql'");
        assertThat(usageError("bench", "run", "--suite", home.resolve("none.yaml").toString()))
                .startsWith("sift: error: ").contains("none.yaml");
        assertThat(usageError("bench", "nope")).isEqualTo("sift: error: Unknown bench 'nope'. Benches: overhead, ml, analysis, linking, tools, serve, mcp, startup, engine, grounding, prompt-tokens, run --suite FILE.");
    }
}
