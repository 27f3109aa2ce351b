package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Metrics against values computed by hand on tiny data. */
class MetricsTest {
    private static final double[] TRUTH = {1, 0, 1, 0};
    private static final double[] P = {0.9, 0.4, 0.35, 0.1};

    @Test
    void classification_metrics_match_hand_computed_values() {
        Map<String, Double> m = Metrics.classification(TRUTH, P);
        // pairs (pos, neg): (0.9,0.4) (0.9,0.1) (0.35,0.1) ranked right, (0.35,0.4) wrong -> 3/4
        assertThat(m.get("auc")).isEqualTo(0.75);
        // -(ln 0.9 + ln 0.6 + ln 0.35 + ln 0.9) / 4
        assertThat(m.get("log_loss")).isCloseTo(0.4428422, within(1e-7));
        // predicted 1,0,0,0 at 0.5: three right
        assertThat(m.get("accuracy")).isEqualTo(0.75);
        // tp 1, fp 0, fn 1 -> 2 / (2 + 0 + 1)
        assertThat(m.get("f1")).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(m.get("positive_rate")).isEqualTo(0.5);
    }

    @Test
    void auc_averages_ties_and_is_undefined_with_one_class() {
        assertThat(Metrics.auc(new double[] {1, 0}, new double[] {0.5, 0.5})).isEqualTo(0.5);
        assertThat(Metrics.auc(new double[] {1, 0, 1}, new double[] {0.7, 0.7, 0.9})).isEqualTo(0.75);
        assertThat(Metrics.auc(new double[] {1, 1}, new double[] {0.2, 0.9})).isNaN();
        assertThat(Metrics.render(Map.of("auc", Double.NaN))).isEqualTo("auc n/a");
    }

    @Test
    void log_loss_is_finite_for_certain_wrong_predictions() {
        assertThat(Metrics.logLoss(new double[] {1}, new double[] {0})).isCloseTo(-Math.log(1e-15), within(1e-9));
    }

    @Test
    void regression_metrics_match_hand_computed_values() {
        Map<String, Double> m = Metrics.regression(new double[] {1, 2, 3, 4}, new double[] {1, 2, 3, 6});
        assertThat(m.get("rmse")).isEqualTo(1.0);      // sqrt(4 / 4)
        assertThat(m.get("mae")).isEqualTo(0.5);       // 2 / 4
        assertThat(m.get("r2")).isCloseTo(0.2, within(1e-12)); // 1 - 4 / 5
    }
}
