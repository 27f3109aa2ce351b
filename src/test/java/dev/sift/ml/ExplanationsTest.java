package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How an explanation words a driver's value against the column's median. */
class ExplanationsTest {
    private static FeatureEncoder.ColumnPlan numeric(String column, double median) {
        return new FeatureEncoder.ColumnPlan(column, "DOUBLE", FeatureEncoder.Kind.NUMERIC, List.of(), median);
    }

    @Test
    void a_value_close_to_the_median_is_near_it_not_low() {
        assertThat(Explanations.comparison(numeric("min_balance", 202.3), "200"))
                .isEqualTo("near the median (200 vs median 202.3)");
    }

    @Test
    void a_value_far_from_the_median_is_high_or_low() {
        assertThat(Explanations.comparison(numeric("amount", 40100), "12,345")).isEqualTo("low (12,345 vs median 40,100)");
        assertThat(Explanations.comparison(numeric("amount", 40100), "90000")).isEqualTo("high (90000 vs median 40,100)");
        assertThat(Explanations.comparison(numeric("amount", 0.5), "0")).isEqualTo("low (0 vs median 0.5)");
        assertThat(Explanations.comparison(numeric("amount", 3), "3")).isEqualTo("typical (3 vs median 3)");
    }
}
