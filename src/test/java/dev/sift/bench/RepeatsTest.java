package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.bench.BenchRunner.ItemResult;
import dev.sift.bench.BenchRunner.Outcome;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RepeatsTest {
    private static final Suite.Item A = new Suite.Item("a", Suite.Tier.ANALYTIC, "q", "SELECT 1", null, Suite.Scoring.ROW_SET, 0, null);
    private static final Suite.Item B = new Suite.Item("b", Suite.Tier.ANALYTIC, "q", "SELECT 1", null, Suite.Scoring.ROW_SET, 0, null);
    private static final Suite SUITE = new Suite("s", "bank", null, null, Path.of("s.yaml"), Map.of(), List.of(A, B));

    private static BenchReport run(Outcome a, Outcome b) {
        return new BenchReport(SUITE, "bank", "offline", "now", List.of(
                new ItemResult(A, a, null, "answer", "x", List.of(), 0.1, 1), new ItemResult(B, b, null, "answer", "x", List.of(), 0.1, 1)));
    }

    @Test
    void pass_at_1_is_the_mean_accuracy_with_its_spread_and_pass_hat_k_counts_items_right_every_time() {
        Repeats r = new Repeats(List.of(run(Outcome.CORRECT, Outcome.CORRECT), run(Outcome.CORRECT, Outcome.WRONG),
                run(Outcome.CORRECT, Outcome.ABSTAINED)));
        assertThat(r.accuracies()).containsExactly(1.0, 0.5, 0.5);
        assertThat(r.passAt1()).isCloseTo(2.0 / 3, within(1e-9));
        assertThat(r.spread()).isCloseTo(Math.sqrt((1.0 / 9 + 2.0 / 36) / 2), within(1e-9));
        assertThat(r.passHatK()).isEqualTo(0.5);
        assertThat(r.correctRuns()).containsExactly(Map.entry("a", 3), Map.entry("b", 1));
        StringWriter out = new StringWriter();
        r.print(new PrintWriter(out));
        assertThat(out.toString()).isEqualTo("Repeated 3 runs: pass@1 0.667 ± 0.289 (accuracy per run: 1.000, 0.500, 0.500),"
                + " pass^3 0.500\n  correct in some runs only: b 1/3\n");
    }

    @Test
    void one_run_has_no_spread() {
        Repeats r = new Repeats(List.of(run(Outcome.CORRECT, Outcome.WRONG)));
        assertThat(r.spread()).isZero();
        assertThat(r.passHatK()).isEqualTo(0.5);
    }
}
