package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift bench analysis} on a small bank: one timed line per analysis tool. */
class BenchAnalysisCommandTest {
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
    void prints_the_time_of_each_analysis_tool_on_trans() {
        List<String> lines = ok("bench", "analysis", "--repeat", "1").out().lines().toList();
        assertThat(lines.get(1)).matches("Analysis tools on trans \\([\\d,]+ rows\\), 2 DuckDB threads, median of 1 run\\(s\\)"
                + " each, after one warm-up:");
        for (String tool : List.of("profile_data", "data_quality_report", "correlation_analysis",
                "correlation_analysis spearman", "trend_analysis", "pivot", "forecast", "transform_column", "sample_rows",
                "auto_insights")) {
            assertThat(lines).anySatisfy(l -> assertThat(l).matches("  " + tool + " +[\\d.]+ ms  \\(cpu +-?[\\d.]+ ms;"
                    + " target <= [\\d,]+ ms(, MISSED)?\\)  .*"));
        }
        assertThat(lines.get(lines.size() - 1)).matches("All analysis tools within their targets\\.|Over target: .*\\.");
    }

    @Test
    void an_unknown_suite_lists_the_suites() {
        assertThat(usageError("bench", "nope")).isEqualTo("sift: error: Unknown bench 'nope'. Benches: overhead, ml, analysis, linking, tools, serve, mcp, startup, engine, grounding, prompt-tokens, run --suite FILE.");
    }
}
