package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Calibrated probabilities, the reliability table and the capacity search, on data whose truth is known. */
class CalibrationTest {

    private static double logit(double p) {
        return Math.log(p / (1 - p));
    }

    @Test
    void the_reliability_table_of_a_calibrated_predictor_matches_the_observed_rates() {
        Random r = new Random(7);
        int n = 50_000;
        double[] p = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = r.nextDouble();
            y[i] = r.nextDouble() < p[i] ? 1 : 0;
        }
        List<Calibration.Bin> table = Calibration.reliability(y, p);
        assertThat(table).hasSize(10);
        for (Calibration.Bin b : table) {
            assertThat(b.rows()).isBetween(4_500, 5_500);
            assertThat(b.predicted()).isBetween(b.from(), b.to());
            assertThat(b.observed()).as("bin %s–%s", b.from(), b.to()).isCloseTo(b.predicted(), within(0.02));
        }
    }

    @Test
    void the_reliability_table_shows_an_overconfident_predictor() {
        Random r = new Random(8);
        int n = 50_000;
        double[] p = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double truth = r.nextDouble();
            y[i] = r.nextDouble() < truth ? 1 : 0;
            p[i] = Calibration.sigmoid(3 * logit(truth)); // says 0.96 where the truth is 0.75
        }
        Calibration.Bin top = Calibration.reliability(y, p).get(9);
        assertThat(top.predicted()).isGreaterThan(0.97);
        assertThat(top.observed()).isLessThan(0.9);
    }

    @Test
    void platt_scaling_recovers_the_scale_of_an_overconfident_score_and_isotonic_stays_monotone() {
        Random r = new Random(9);
        int n = 20_000;
        double[] margin = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double z = r.nextGaussian() * 1.5 - 1;
            y[i] = r.nextDouble() < Calibration.sigmoid(z) ? 1 : 0;
            margin[i] = 3 * z;
        }
        Calibration.Calibrator platt = Calibration.platt(margin, y);
        assertThat(platt.a()).isCloseTo(1 / 3.0, within(0.03));
        assertThat(platt.b()).isCloseTo(0, within(0.1)); // the offset is inside the margin already
        Calibration.Calibrator iso = Calibration.isotonic(margin, y);
        double last = 0;
        for (double m = -15; m <= 15; m += 0.25) {
            double v = iso.apply(m);
            assertThat(v).isGreaterThanOrEqualTo(last).isBetween(Calibration.ISOTONIC_FLOOR, 1 - Calibration.ISOTONIC_FLOOR);
            last = v;
        }
        assertThat(iso.apply(3 * 1.0)).isCloseTo(Calibration.sigmoid(1.0), within(0.05));
    }

    @Test
    void a_model_trained_on_data_of_known_calibration_gives_calibrated_probabilities() throws Exception {
        Random r = new Random(11);
        int n = 800;
        float[] x = new float[2 * n];
        String[] label = new String[n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = (float) r.nextGaussian();
            x[2 * i + 1] = (float) r.nextGaussian(); // noise
            label[i] = r.nextDouble() < Calibration.sigmoid(2 * x[2 * i] - 1.5) ? "1" : "0";
        }
        FeatureEncoder enc = new FeatureEncoder(List.of(
                new FeatureEncoder.ColumnPlan("signal", "DOUBLE", FeatureEncoder.Kind.NUMERIC, List.of(), 0),
                new FeatureEncoder.ColumnPlan("noise", "DOUBLE", FeatureEncoder.Kind.NUMERIC, List.of(), 0)), List.of(), null);
        MlData d = new MlData(n, 2, x, Entities.of(new ArrayList<>(Collections.nCopies(n, (Object) null))), label,
                new long[n], null);
        TrainedModel m = Trainer.train("m1", TaskType.CLASSIFICATION, "t", "y", null, enc, d,
                Trainer.classLabels("y", label), Map.of());
        Evaluation e = m.provenance().evaluation();
        assertThat(e.calibration().beatsBaseRate()).isTrue();
        assertThat(e.calibration().brierSkill()).isGreaterThan(0.1);
        for (Calibration.Bin b : e.calibration().reliability()) {
            if (b.rows() >= 100) {
                assertThat(b.observed()).as("bin %s–%s", b.from(), b.to()).isCloseTo(b.predicted(), within(0.08));
            }
        }
        assertThat(e.capacity().tried()).hasSize(3);
        assertThat(e.capacity().render()).contains("chosen by inner cross-validation (inner 5-fold log loss: depth 2 ");
        assertThat(m.provenance().rounds()).isEqualTo(e.capacity().rounds());
        // the served probabilities are calibrated: against the true probability on fresh rows
        int fresh = 4000;
        float[] fx = new float[2 * fresh];
        double[] truth = new double[fresh];
        for (int i = 0; i < fresh; i++) {
            fx[2 * i] = (float) r.nextGaussian();
            fx[2 * i + 1] = (float) r.nextGaussian();
            truth[i] = Calibration.sigmoid(2 * fx[2 * i] - 1.5);
        }
        double[] p = Predictions.predict(m, fx, fresh);
        double gap = 0;
        for (int i = 0; i < fresh; i++) {
            gap += Math.abs(p[i] - truth[i]) / fresh;
        }
        assertThat(gap).isLessThan(0.06);
        assertThat(Metrics.mean(p)).isCloseTo(Metrics.mean(truth), within(0.03));
    }

    @Test
    void above_the_search_sample_each_candidate_is_capped_in_tree_levels_and_the_choice_says_so() throws Exception {
        // an additive signal that depth 2 keeps learning for about 300 rounds when nothing caps it
        int n = CapacitySearch.MAX_ROWS + 1000;
        int w = 3;
        Random r = new Random(11);
        float[] x = new float[n * w];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < w; j++) {
                x[i * w + j] = r.nextFloat();
            }
            y[i] = 2 * x[i * w] - 1.5f * x[i * w + 1] + 0.5f * x[i * w + 2] + r.nextFloat() > 1.1 ? 1 : 0;
        }
        long[] ids = new long[n];
        MlData d = new MlData(n, w, x, Entities.numbers(ids, new java.util.BitSet()), new String[n], ids, null);
        Map<String, Object> params = Trainer.params(TaskType.CLASSIFICATION, Map.of(), Trainer.DEFAULT_SEED);
        params.remove("num_round");
        params.put("nthread", 1); // thousands of short rounds: one thread spares OpenMP's hand-offs on a busy machine
        CapacitySearch.Capacity c = CapacitySearch.run(d, y, params, true, Trainer.DEFAULT_SEED);
        assertThat(c.tried()).hasSize(3).allSatisfy(t -> assertThat(t.rounds() * t.maxDepth())
                .isLessThanOrEqualTo(CapacitySearch.LARGE_LEVELS));
        assertThat(c.tried().get(0).rounds()).isEqualTo(CapacitySearch.LARGE_LEVELS / 2); // depth 2 reached its cap
        assertThat(c.render()).endsWith("the simplest within the folds' spread of the best, each candidate at most 400"
                + " tree levels (rounds × depth) since the final model trains on more rows than the search's sample");
    }

    @Test
    void the_simplest_candidate_within_the_folds_spread_of_the_best_is_chosen() {
        CapacitySearch.Candidate simple = new CapacitySearch.Candidate("depth 2", 2, 1, 1, 40,
                new CrossValidation.Spread(0.400, 0.030));
        CapacitySearch.Candidate deep = new CapacitySearch.Candidate("depth 4", 4, 0.1, 1, 90,
                new CrossValidation.Spread(0.380, 0.025));
        assertThat(CapacitySearch.choose(List.of(simple, deep))).isEqualTo(simple); // loses by 0.020 < 0.025
        CapacitySearch.Candidate much = new CapacitySearch.Candidate("depth 4", 4, 0.1, 1, 90,
                new CrossValidation.Spread(0.300, 0.025));
        assertThat(CapacitySearch.choose(List.of(simple, much))).isEqualTo(much); // loses by 0.100 > 0.025
        assertThat(CapacitySearch.loss("[12]\tv-logloss:0.41235")).isEqualTo(0.41235);
    }
}
