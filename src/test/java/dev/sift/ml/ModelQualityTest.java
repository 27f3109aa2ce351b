package dev.sift.ml;

import dev.sift.ml.CrossValidation.Spread;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ModelQualityTest {

    private static Evaluation cls(double auc, double single, int positives) {
        return new Evaluation(5, 1, 400, 400, positives, Map.of("auc", new Spread(auc, 0.05)),
                Map.of("feature_auc", new Spread(single, 0.04)), "amount", 10, null, null);
    }

    @Test
    void a_good_classifier_has_no_warning() {
        assertThat(ModelQuality.reasons(cls(0.89, 0.7, 40))).isEmpty();
    }

    @Test
    void each_weakness_of_a_classifier_is_named_with_its_cross_validated_figures() {
        assertThat(ModelQuality.reasons(cls(0.403, 0.55, 10))).containsExactly(
                "cross-validated AUC 0.403 ± 0.050 over 5 folds ≤ 0.6, no better than chance",
                "only 10 positives to learn from and test on (fewer than 20)");
        assertThat(ModelQuality.reasons(cls(0.58, 0.52, 100))).containsExactly(
                "cross-validated AUC 0.580 ± 0.050 over 5 folds ≤ 0.6, barely better than chance");
        assertThat(ModelQuality.reasons(cls(Double.NaN, 0.5, 0))).containsExactly(
                "cross-validated AUC undefined: the test folds have one class only",
                "only 0 positives to learn from and test on (fewer than 20)");
        assertThat(ModelQuality.reasons(cls(0.61, 0.6, 19))).containsExactly(
                "only 19 positives to learn from and test on (fewer than 20)");
    }

    @Test
    void a_classifier_no_better_than_its_best_single_feature_is_weak() {
        assertThat(ModelQuality.reasons(cls(0.70, 0.72, 40))).containsExactly(
                "cross-validated AUC 0.700 ± 0.050 over 5 folds is no higher than amount alone (0.720)");
    }

    @Test
    void a_regression_no_better_than_the_mean_is_weak() {
        Evaluation bad = new Evaluation(5, 1, 50, 50, 0, Map.of("rmse", new Spread(3, 1), "r2", new Spread(-0.2, 0.1)),
                Map.of("mean_rmse", new Spread(2.9, 1)), null, 1, null, null);
        assertThat(ModelQuality.reasons(bad)).containsExactly(
                "cross-validated R² -0.200 over 5 folds ≤ 0, no better than predicting the mean");
        Evaluation good = new Evaluation(5, 1, 50, 50, 0, Map.of("rmse", new Spread(1, 1), "r2", new Spread(0.4, 0.1)),
                Map.of("mean_rmse", new Spread(2.9, 1)), null, 1, null, null);
        assertThat(ModelQuality.reasons(good)).isEmpty();
    }
}
