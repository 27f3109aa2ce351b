package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CrossValidationTest {

    @Test
    void folds_are_stratified_and_cover_every_row_once() {
        float[] y = new float[103];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 10 == 0 ? 1 : 0; // 11 positives
        }
        int[] fold = CrossValidation.folds(y, true, 5, 42);
        int[] positives = new int[5];
        int[] rows = new int[5];
        for (int i = 0; i < y.length; i++) {
            rows[fold[i]]++;
            positives[fold[i]] += (int) y[i];
        }
        for (int f = 0; f < 5; f++) {
            assertThat(positives[f]).isBetween(2, 3);
            assertThat(rows[f]).isBetween(20, 21);
        }
        assertThat(CrossValidation.folds(y, true, 5, 42)).containsExactly(fold); // seeded
    }

    @Test
    void fewer_folds_when_a_class_is_smaller_than_five() {
        assertThat(CrossValidation.foldCount(new float[] {1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, true)).isEqualTo(3);
        assertThat(CrossValidation.foldCount(new float[40], false)).isEqualTo(5);
    }

    @Test
    void average_precision_and_brier_match_hand_computed_values() {
        double[] truth = {1, 0, 1, 0};
        double[] p = {0.9, 0.8, 0.7, 0.1};
        // ranked: 1 (P=1/1), 0, 1 (P=2/3), 0 -> AP = (1 + 2/3) / 2
        assertThat(Metrics.averagePrecision(truth, p)).isCloseTo((1 + 2.0 / 3) / 2, within(1e-12));
        assertThat(Metrics.brier(truth, p)).isCloseTo((0.01 + 0.64 + 0.09 + 0.01) / 4, within(1e-12));
    }

    /** A signal in one column and noise in another: the model and the single-feature baseline both find it. */
    @Test
    void cross_validation_reports_spread_positives_and_the_baselines_on_the_same_folds() throws Exception {
        Random r = new Random(7);
        int n = 400;
        float[] x = new float[n * 2];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextDouble() < 0.2 ? 1 : 0;
            x[2 * i] = (float) (y[i] + r.nextGaussian());
            x[2 * i + 1] = (float) r.nextGaussian();
        }
        MlData d = new MlData(n, 2, x, Entities.of(new java.util.ArrayList<>(java.util.Collections.nCopies(n, (Object) null))), new String[n], new long[n], null);
        Map<String, Object> params = Trainer.params(TaskType.CLASSIFICATION, Map.of("num_round", 20), 42);
        params.remove("num_round");
        CrossValidation.Result run = CrossValidation.run(d, y, new CrossValidation.Setup(params, 20, 42, true),
                List.of("signal", "noise"));
        Evaluation e = run.evaluation();
        assertThat(run.foldModels()).hasSize(5); // the first repeat's fold models, to check explanations against
        assertThat(e.folds()).isEqualTo(5);
        assertThat(e.repeats()).isEqualTo(1); // 80-odd positives are not few
        assertThat(e.positives()).isEqualTo((int) CrossValidation.positives(y));
        assertThat(e.baselineFeature()).isEqualTo("signal");
        assertThat(e.baselineMean("feature_auc")).isBetween(0.70, 0.85); // d' = 1: AUC ≈ 0.76
        assertThat(e.mean("auc")).isBetween(0.65, 0.85);
        assertThat(e.metrics().get("auc").sd()).isGreaterThan(0);
        assertThat(e.baselineMean("prior_pr_auc")).isCloseTo(e.positives() / 400.0, within(1e-9));
        assertThat(e.headline()).matches("AUC 0\\.\\d{3} ± 0\\.\\d{3} over 5 folds \\(\\d+ positives\\), baseline"
                + " 0\\.\\d{3} \\(signal alone\\)");
        // the calibrated probabilities beat the base rate, and the metrics are theirs
        Calibration c = e.calibration();
        assertThat(c.beatsBaseRate()).isTrue();
        assertThat(e.mean("brier")).isCloseTo(c.brier().mean(), within(1e-9));
        assertThat(c.baseBrier().mean()).isCloseTo(e.baselineMean("prior_brier"), within(1e-9));
        assertThat(c.baseLogLoss().mean()).isCloseTo(e.baselineMean("prior_log_loss"), within(1e-9));
        assertThat(e.render()).contains("Calibration: Brier ").contains("(probabilities beat the base rate)")
                .contains("Reliability (out-of-fold, by predicted probability): 0.0–0.1: ");
    }

    @Test
    void few_positives_repeat_the_folds() throws Exception {
        Random r = new Random(3);
        int n = 200;
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 10 == 0 ? 1 : 0; // 20 positives
            x[i] = (float) (2 * y[i] + r.nextGaussian());
        }
        MlData d = new MlData(n, 1, x, Entities.of(new java.util.ArrayList<>(java.util.Collections.nCopies(n, (Object) null))), new String[n], new long[n], null);
        Map<String, Object> params = Trainer.params(TaskType.CLASSIFICATION, Map.of(), 42);
        Evaluation e = CrossValidation.run(d, y, new CrossValidation.Setup(params, 10, 42, true), List.of("x")).evaluation();
        assertThat(e.repeats()).isEqualTo(CrossValidation.REPEATS);
        assertThat(e.scheme()).isEqualTo("5 folds × 3 repeats");
    }
}
