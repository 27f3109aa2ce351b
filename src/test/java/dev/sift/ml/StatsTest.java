package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Drift, clustering and anomaly scores on data whose answer is known (fixed seeds). */
class StatsTest {

    private static double[] normal(int n, double mean, long seed) {
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = mean + r.nextGaussian();
        }
        return v;
    }

    @Test
    void same_distribution_is_not_flagged_and_a_shift_is() {
        Drift.ColumnDrift same = Drift.numeric("x", normal(2000, 0, 1), normal(2000, 0, 2));
        assertThat(same.flagged()).isFalse();
        assertThat(same.psi()).isLessThan(0.05);
        assertThat(same.ksP()).isGreaterThan(0.01);

        Drift.ColumnDrift shifted = Drift.numeric("x", normal(2000, 0, 1), normal(2000, 1, 2));
        assertThat(shifted.flagged()).isTrue();
        assertThat(shifted.psi()).isGreaterThan(Drift.PSI_FLAG);
        assertThat(shifted.ks()).isCloseTo(0.38, within(0.05)); // Phi(0.5) - Phi(-0.5) for a one-SD shift
        assertThat(shifted.ksP()).isLessThan(1e-6);
    }

    @Test
    void ks_and_psi_match_hand_computed_values() {
        assertThat(Drift.ks(new double[] {1, 2, 3, 4}, new double[] {3, 4, 5, 6})).isEqualTo(0.5);
        // shares 0.5/0.5 vs 0.25/0.75: (0.25-0.5) ln(0.5) + (0.75-0.5) ln(1.5)
        assertThat(Drift.psi(new double[] {2, 2}, new double[] {1, 3}, 4, 4))
                .isCloseTo(-0.25 * Math.log(0.5) + 0.25 * Math.log(1.5), within(1e-12));
        assertThat(Drift.ksPValue(0, 100)).isEqualTo(1.0);
    }

    @Test
    void categorical_drift_names_the_category_that_moved() {
        String[] ref = new String[100];
        String[] cur = new String[100];
        for (int i = 0; i < 100; i++) {
            ref[i] = i < 50 ? "a" : "b";
            cur[i] = i < 90 ? "a" : "b";
        }
        Drift.ColumnDrift d = Drift.categorical("kind", ref, cur);
        assertThat(d.flagged()).isTrue();
        assertThat(d.detail()).isEqualTo("'a' 50.0% → 90.0%");
    }

    @Test
    void kmeans_finds_three_separable_blobs_by_silhouette() {
        Random r = new Random(7);
        double[][] rows = new double[150][2];
        double[][] centres = {{0, 0}, {10, 10}, {0, 10}};
        for (int i = 0; i < rows.length; i++) {
            double[] c = centres[i % 3];
            rows[i] = new double[] {c[0] + 0.5 * r.nextGaussian(), c[1] + 0.5 * r.nextGaussian()};
        }
        KMeans.Result result = KMeans.fit(rows, null, 42);
        assertThat(result.k()).isEqualTo(3);
        assertThat(result.silhouette()).isGreaterThan(0.8);
        for (int i = 3; i < rows.length; i++) { // every point is with the others of its blob
            assertThat(result.assignment()[i]).isEqualTo(result.assignment()[i % 3]);
        }
        assertThat(result.assignment()[0]).isNotEqualTo(result.assignment()[1]).isNotEqualTo(result.assignment()[2]);
        assertThat(result.assignment()[1]).isNotEqualTo(result.assignment()[2]);
    }

    @Test
    void anomaly_scan_flags_the_outlier_and_says_why() {
        double[] amount = {10, 11, 12, 13, 14, 15, 16, 17, 18, 100};
        double[] constant = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
        Anomalies.Result r = Anomalies.scan(java.util.List.of("amount", "fee"), new double[][] {amount, constant}, 3.5);
        assertThat(r.flagged()).singleElement().satisfies(f -> {
            assertThat(f.row()).isEqualTo(9);
            // median 14.5; |deviations| median 2.5 -> scale 2.5 / 0.6745 = 3.7064; 85.5 / 3.7064 = 23.07
            assertThat(f.score()).isCloseTo(23.068, within(0.001));
            // Q1 12.25, Q3 16.75, IQR 4.5 -> fences 12.25 - 6.75 and 16.75 + 6.75
            assertThat(f.reasons()).containsExactly("amount = 100 is 23.1 robust SDs above the median 14.5"
                    + " (IQR fences 5.5 to 23.5)");
        });
        assertThat(r.skipped()).containsExactly("fee (no spread)");
    }
}
