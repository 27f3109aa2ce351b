package dev.sift.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The bench suites added with the knowledge graph, through the command line. */
class BenchCommandTest {

    @Test
    void bench_tools_prints_coverage_and_tokens_saved() {
        CliHarness.Result r = CliHarness.ok("bench", "tools");
        assertThat(r.out()).containsPattern("^Tool selection over a catalogue of \\d+ tools \\(\\d+ core\\), 20 questions\n")
                .contains("  needed tools shown       : 20/20 questions\n")
                .containsPattern("catalogue tokens         : all \\d+, shown \\d+ on average; saved \\d+ \\(\\d+%\\)");
    }

    @Test
    void an_unknown_suite_lists_the_suites() {
        assertThat(CliHarness.usageError("bench", "speed")).isEqualTo("sift: error: Unknown bench 'speed'."
                + " Benches: overhead, ml, analysis, linking, tools, serve, mcp, startup, engine, grounding, prompt-tokens, run --suite FILE.");
    }

    @Test
    void bench_prompt_tokens_needs_a_suite() {
        assertThat(CliHarness.usageError("bench", "prompt-tokens")).isEqualTo("sift: error: bench prompt-tokens needs"
                + " --suite FILE, e.g. --suite bench/bank.yaml");
    }
}
