package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift bench dab}: its bounds and selections are checked before anything is folded in or run. */
class BenchDabCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void useHome() {
        CliHarness.useHome(home);
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void a_step_budget_or_iteration_count_out_of_range_is_refused_with_the_flag_and_its_range() throws Exception {
        Path root = Files.createDirectories(home.resolve("dab"));
        assertThat(usageError("bench", "dab", "--root", root.toString(), "--max-steps", "0"))
                .isEqualTo("sift: error: --max-steps must be between 1 and 100, got 0");
        assertThat(usageError("bench", "dab", "--root", root.toString(), "--max-steps", "101"))
                .isEqualTo("sift: error: --max-steps must be between 1 and 100, got 101");
        assertThat(usageError("bench", "dab", "--root", root.toString(), "--iterations", "0"))
                .isEqualTo("sift: error: --iterations must be between 1 and 100, got 0");
    }

    @Test
    void all_and_named_datasets_together_or_an_empty_root_are_refused() throws Exception {
        Path root = Files.createDirectories(home.resolve("empty"));
        assertThat(usageError("bench", "dab", "--root", root.toString(), "--all", "--dataset", "yelp"))
                .isEqualTo("sift: error: Give --all or --dataset, not both.");
        assertThat(usageError("bench", "dab", "--root", root.toString(), "--all"))
                .isEqualTo("sift: error: No DataAgentBench datasets under " + root + " (no <dataset>/db_config.yaml).");
    }
}
