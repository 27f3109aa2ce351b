package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.sift.cli.CliHarness.count;
import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift models}: a model trained by one 'ask' is listed, shown and scored by later processes; damage is refused. */
class ModelsCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void trainOne() {
        CliHarness.assumeOffline();
        CliHarness.useHome(home);
        ok("load", "bank", "--scale", "0.2"); // enough finished loans of both outcomes to train on
        assertThat(ok("ask", "Which running loans are likely to default? Top 5 and why").out()).contains("I trained a classifier of defaulted");
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    /** Runs {@code sift ARGS} in a new JVM on this test's class path, with this test's home. */
    private static String newProcess(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "-Dsift.home=" + home, "-Dsift.llm.provider=none",
                "dev.sift.cli.Main"));
        command.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void a_model_trained_by_ask_is_listed_by_a_new_process() throws Exception {
        String out = newProcess("models", "list");
        assertThat(out).startsWith("bank:\n  m1  classification of defaulted on loan_default_history, 18 columns, AUC ").contains(" positives), baseline ");
    }

    @Test
    void show_prints_the_card_with_the_frame_definition_and_the_features() throws Exception {
        JsonNode card = new ObjectMapper().readTree(ok("models", "show", "m1").out());
        assertThat(card.get("dataset").asText()).isEqualTo("bank");
        assertThat(card.get("prediction_task").asText()).isEqualTo("loan_default");
        assertThat(card.get("source_sql").asText()).startsWith("SELECT f.*, CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END"
                + " AS defaulted FROM (SELECT loan.loan_id, loan.amount").endsWith("WHERE loan.status IN ('A', 'B') ORDER BY f.loan_id");
        assertThat(card.get("features").get(0).get("column").asText()).isEqualTo("amount");
        assertThat(card.get("model_file").asText()).isEqualTo("model.ubj");
        assertThat(card.get("train_rows").asLong())
                .isEqualTo(count(home, "bank", "SELECT count(*) FROM loan WHERE status IN ('A', 'B')"));
        assertThat(card.get("evaluation").get("positives").asLong())
                .isEqualTo(count(home, "bank", "SELECT count(*) FROM loan WHERE status = 'B'"));
    }

    @Test
    void score_scores_the_prediction_tasks_current_rows() throws Exception {
        CliHarness.Result r = ok("models", "score", "m1", "--max-rows", "3");
        long running = count(home, "bank", "SELECT count(*) FROM loan WHERE status IN ('C', 'D')");
        assertThat(r.out()).startsWith("Scored " + running + " rows of loan_default_current with model m1 (probability of"
                + " defaulted = 1; ");
        assertThat(r.out().lines().skip(1).findFirst().orElseThrow()).isEqualTo("loan_id | prediction | probability");
    }

    @Test
    void a_truncated_model_is_listed_as_damaged_refused_with_one_error_and_removable() throws Exception {
        Path m1 = home.resolve("models/bank/m1");
        Path m2 = Files.createDirectories(home.resolve("models/bank/m2"));
        byte[] model = Files.readAllBytes(m1.resolve("model.ubj"));
        Files.write(m2.resolve("model.ubj"), Arrays.copyOf(model, 1000));
        Files.writeString(m2.resolve("card.json"), Files.readString(m1.resolve("card.json"))
                .replace("\"id\" : \"m1\"", "\"id\" : \"m2\""));
        String problem = "its model file model.ubj is damaged (1000 bytes, the card says " + model.length + "): it was"
                + " truncated or changed after it was saved";
        assertThat(ok("models", "list", "--dataset", "bank").out()).contains("\n  m2  damaged, not used: " + problem + "\n");
        String error = "sift: error: Saved model m2 of dataset 'bank' cannot be used: " + problem + ". It is not used;"
                + " remove it with 'sift models rm m2 --dataset bank' and train again.";
        assertThat(usageError("models", "show", "m2")).isEqualTo(error);
        assertThat(usageError("models", "score", "m2")).isEqualTo(error);
        assertThat(ok("models", "rm", "m2").out()).isEqualTo("Removed model m2 of dataset 'bank'.\n");
        assertThat(m2).doesNotExist();
        assertThat(usageError("models", "rm", "m2")).startsWith("sift: error: No saved model 'm2' for dataset 'bank'."
                + " Saved models: m1 (classification of defaulted).");
    }
}
