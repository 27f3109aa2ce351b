package dev.sift.tool.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The shared math on series with known answers. */
class AnalysisMathTest {

    @Test
    void ols_recovers_an_exact_line_with_certainty() {
        double[] y = new double[24];
        for (int i = 0; i < y.length; i++) {
            y[i] = 7 + 2.5 * i;
        }
        OlsTrend t = OlsTrend.fit(y);
        assertThat(t.slope()).isCloseTo(2.5, within(1e-12));
        assertThat(t.intercept()).isCloseTo(7, within(1e-12));
        assertThat(t.r2()).isCloseTo(1, within(1e-12));
        assertThat(t.pValue()).isZero();
    }

    @Test
    void student_t_p_values_match_the_tables() {
        // two-sided critical values: t(10) = 2.228 at 5%, t(30) = 2.750 at 1%, t(5) = 2.015 at 10%
        assertThat(OlsTrend.StudentT.twoSidedP(2.228, 10)).isCloseTo(0.05, within(2e-4));
        assertThat(OlsTrend.StudentT.twoSidedP(2.750, 30)).isCloseTo(0.01, within(2e-4));
        assertThat(OlsTrend.StudentT.twoSidedP(-2.015, 5)).isCloseTo(0.10, within(2e-4));
        assertThat(OlsTrend.StudentT.twoSidedP(0, 7)).isCloseTo(1, within(1e-12));
    }

    @Test
    void a_flat_noisy_series_has_no_significant_trend() {
        double[] y = {5, 7, 4, 6, 5, 7, 4, 6, 5, 7, 4, 6};
        OlsTrend t = OlsTrend.fit(y);
        assertThat(t.pValue()).isGreaterThan(0.5);
    }

    @Test
    void ols_needs_three_points() {
        assertThatThrownBy(() -> OlsTrend.fit(new double[] {1, 2}))
                .hasMessage("A linear trend needs at least 3 points, got 2.");
    }

    /** 200 + 2t + 30 sin(2πt/12) plus a small deterministic wobble. */
    static double seasonal(int t, boolean noise) {
        return 200 + 2 * t + 30 * Math.sin(2 * Math.PI * t / 12) + (noise ? ((t * 37) % 11 - 5) * 0.4 : 0);
    }

    @Test
    void holt_winters_forecasts_a_seasonal_series_within_two_percent() {
        double[] y = new double[60];
        for (int t = 0; t < y.length; t++) {
            y[t] = seasonal(t, true);
        }
        HoltWinters hw = HoltWinters.fit(y, 12);
        double[] f = hw.forecast(12);
        double ape = 0;
        for (int k = 0; k < 12; k++) {
            ape += Math.abs(f[k] - seasonal(60 + k, false)) / seasonal(60 + k, false);
        }
        assertThat(ape / 12).isLessThan(0.02);
        // without its season the same series is forecast far worse: the seasonal terms do the work
        double[] g = HoltWinters.fit(y, 0).forecast(12);
        double apeHolt = 0;
        for (int k = 0; k < 12; k++) {
            apeHolt += Math.abs(g[k] - seasonal(60 + k, false)) / seasonal(60 + k, false);
        }
        assertThat(apeHolt / 12).isGreaterThan(3 * ape / 12);
        assertThat(hw.halfWidth(12, 1.96)).isGreaterThan(hw.halfWidth(1, 1.96)).isPositive();
    }

    @Test
    void holt_winters_states_how_much_history_it_needs() {
        assertThatThrownBy(() -> HoltWinters.fit(new double[20], 12))
                .hasMessage("Exponential smoothing with a season of 12 needs at least 24 points, got 20.");
        assertThatThrownBy(() -> HoltWinters.fit(new double[3], 0))
                .hasMessage("Exponential smoothing needs at least 4 points, got 3.");
    }

    @Test
    void correlation_ratio_is_one_when_categories_explain_everything_and_zero_when_nothing() {
        assertThat(CorrelationRatio.eta(List.of(new CorrelationRatio.Group(10, 1, 0), new CorrelationRatio.Group(5, 3, 0))))
                .isCloseTo(1, within(1e-12));
        assertThat(CorrelationRatio.eta(List.of(new CorrelationRatio.Group(10, 2, 4), new CorrelationRatio.Group(5, 2, 1))))
                .isCloseTo(0, within(1e-12));
        // between = 10·1² + 10·1² = 20; within = 10·1 + 10·1 = 20 → η² = 0.5
        assertThat(CorrelationRatio.eta(List.of(new CorrelationRatio.Group(10, 1, 1), new CorrelationRatio.Group(10, 3, 1))))
                .isCloseTo(Math.sqrt(0.5), within(1e-12));
    }

    @Test
    void seasonality_hint_finds_the_peak_month() {
        double[] y = new double[48];
        for (int t = 0; t < y.length; t++) {
            y[t] = seasonal(t, false);
        }
        Seasonality s = Seasonality.of(y, 12);
        assertThat(s.strength()).isEqualTo("strong");
        assertThat(s.peak()).isEqualTo(3); // sin peaks at t = 3 (of 12)
        assertThat(s.trough()).isEqualTo(9);
        assertThat(Seasonality.of(new double[20], 12)).isNull();
    }

    @Test
    void expression_check_keeps_a_fragment_a_fragment() {
        assertThat(ExpressionCheck.problem("amount / nullif(duration, 0)")).isNull();
        assertThat(ExpressionCheck.problem("status = 'A;B' AND \"weird)name\" > 1")).isNull();
        assertThat(ExpressionCheck.problem("1; DROP TABLE loan")).isEqualTo("contains ';' (only one expression may be given, not statements)");
        assertThat(ExpressionCheck.problem("amount) AS a FROM account --")).isEqualTo("closes a parenthesis it did not open");
        assertThat(ExpressionCheck.problem("amount -- rest")).isEqualTo("contains a comment");
        assertThat(ExpressionCheck.problem("amount /* x */")).isEqualTo("contains a comment");
        assertThat(ExpressionCheck.problem("(amount")).isEqualTo("has an unclosed parenthesis");
        assertThat(ExpressionCheck.problem("'abc")).isEqualTo("has an unterminated string literal");
        assertThat(ExpressionCheck.problem(" ")).isEqualTo("is empty");
    }
}
