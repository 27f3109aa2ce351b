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

/** {@code sift bench datagen}: a generated suite that {@code bench run} scores per template and wording, on its own data only. */
class BenchDatagenCommandTest {
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

    @Test
    void generates_a_suite_that_bench_run_scores_per_template_and_per_wording() throws Exception {
        CliHarness.assumeOffline();
        Path suite = home.resolve("gen.yaml");
        CliHarness.Result g = ok("bench", "datagen", "--dataset", "bank", "--out", suite.toString(), "--n", "24", "--seed", "3");
        assertThat(g.out()).startsWith("Wrote " + suite + ": ").contains("Run it: ./sift bench run --suite " + suite);
        Path out = home.resolve("out");
        CliHarness.Result r = ok("bench", "run", "--suite", suite.toString(), "--out", out.toString());
        assertThat(r.out()).contains("  by template      total answered correct precision coverage")
                .contains("  by wording       total answered correct precision coverage").contains("  plain ")
                .contains("  reordered ").contains("  synonyms ");
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertThat(json.get("by_wording").get("plain").get("total").asInt()).isPositive();
        assertThat(json.get("by_template").fieldNames()).toIterable().contains("count");
    }

    @Test
    void the_round_trip_stage_without_a_model_is_refused_before_anything_is_written() {
        CliHarness.assumeOffline();
        Path suite = home.resolve("rt.yaml");
        assertThat(usageError("bench", "datagen", "--dataset", "bank", "--out", suite.toString(), "--round-trip"))
                .isEqualTo("sift: error: --round-trip asks a model to answer each question from its gold result, but no"
                        + " model is configured: configure one (docs/configuration.md) or leave --round-trip out");
        assertThat(Files.exists(suite)).isFalse();
    }

    @Test
    void a_generated_suite_is_refused_on_a_dataset_with_another_fingerprint() throws Exception {
        Path suite = home.resolve("stale.yaml");
        Files.writeString(suite, """
                suite: stale
                dataset: bank
                fingerprint: "bank-generator-v0;seed=1"
                items:
                  - {id: a1, tier: analytic, question: "How many loans are there?", gold_sql: "SELECT count(*) FROM loan"}
                """);
        assertThat(usageError("bench", "run", "--suite", suite.toString())).startsWith("sift: error: " + suite
                + " was generated from dataset 'bank' with fingerprint bank-generator-v0;seed=1, but 'bank' now has fingerprint ")
                .endsWith(": its gold answers may no longer hold. Generate it again: ./sift bench datagen --dataset bank --out "
                        + suite);
    }

    @Test
    void datagen_names_a_missing_dataset_and_a_too_small_n() {
        assertThat(usageError("bench", "datagen", "--dataset", "nope", "--out", home.resolve("x.yaml").toString()))
                .startsWith("sift: error: no dataset 'nope' in ").endsWith("; build it first (./sift load nope FILE…) or list"
                        + " them with ./sift datasets");
        assertThat(usageError("bench", "datagen", "--dataset", "bank", "--out", home.resolve("x.yaml").toString(), "--n", "3"))
                .isEqualTo("sift: error: --n must be at least 12 (three wordings of four questions), got 3");
        assertThat(Files.exists(home.resolve("x.yaml"))).isFalse();
    }
}
