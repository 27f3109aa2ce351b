package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ModelQualityTest {

    private static Map<String, Double> cls(double auc, double f1, double positiveRate, double rows) {
        return Map.of("auc", auc, "f1", f1, "positive_rate", positiveRate, "rows", rows);
    }

    @Test
    void a_good_classifier_has_no_warning() {
        assertThat(ModelQuality.reasons(TaskType.CLASSIFICATION, cls(0.89, 0.55, 0.2, 200))).isEmpty();
    }

    @Test
    void each_weakness_of_a_classifier_is_named() {
        assertThat(ModelQuality.reasons(TaskType.CLASSIFICATION, cls(0.403, 0.0, 0.1, 100))).containsExactly(
                "held-out AUC 0.403 ≤ 0.6, no better than chance",
                "F1 0.000: it never predicts the positive class at threshold 0.5",
                "only 10 positives held out (fewer than 20)");
        assertThat(ModelQuality.reasons(TaskType.CLASSIFICATION, cls(0.58, 0.3, 0.5, 100))).containsExactly(
                "held-out AUC 0.580 ≤ 0.6, barely better than chance");
        assertThat(ModelQuality.reasons(TaskType.CLASSIFICATION, cls(Double.NaN, 0.3, 0.0, 40))).containsExactly(
                "held-out AUC undefined: the held-out rows have one class only", "only 0 positives held out (fewer than 20)");
        assertThat(ModelQuality.reasons(TaskType.CLASSIFICATION, cls(0.61, 0.3, 0.19, 100))).containsExactly(
                "only 19 positives held out (fewer than 20)");
    }

    @Test
    void a_regression_no_better_than_the_mean_is_weak() {
        assertThat(ModelQuality.reasons(TaskType.REGRESSION, Map.of("r2", -0.2, "rows", 50.0))).containsExactly(
                "held-out R² -0.200 ≤ 0, no better than predicting the mean");
        assertThat(ModelQuality.reasons(TaskType.REGRESSION, Map.of("r2", 0.4, "rows", 50.0))).isEmpty();
    }
}
