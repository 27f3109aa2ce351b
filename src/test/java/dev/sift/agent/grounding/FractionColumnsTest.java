package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A result column is a computed fraction only when its query shows a ratio or a condition's average, unscaled. */
class FractionColumnsTest {
    private static final List<List<Object>> SHARE = List.of(List.<Object>of(0.11, 0.5));

    @Test
    void the_expression_is_read_back_from_its_alias() {
        String sql = "SELECT district, round(count_if(status IN ('B', 'D')) / count(*), 3) AS bad_share FROM loan";
        assertThat(FractionColumns.expression(sql, "bad_share")).isEqualTo("round(count_if(status IN ('B', 'D')) /"
                + " count(*), 3)");
        assertThat(FractionColumns.expression("SELECT \"a\" / b AS \"Share\" FROM t", "Share")).isEqualTo("\"a\" / b");
        assertThat(FractionColumns.expression("WITH x AS (SELECT a / b AS r FROM t) SELECT r FROM x", "r"))
                .isEqualTo("a / b");
        assertThat(FractionColumns.expression("SELECT (a / b) FROM t", "(a / b)")).isEqualTo("(a / b)");
        assertThat(FractionColumns.expression("SELECT A12 FROM district", "A12")).isNull();
    }

    @Test
    void ratios_and_condition_averages_without_a_factor_100_are_fractions() {
        assertThat(FractionColumns.computedFraction("SELECT sum(a) / sum(b) AS r, 1 AS x FROM t", "r", SHARE, 0)).isTrue();
        assertThat(FractionColumns.computedFraction("SELECT avg(CASE WHEN s = 'D' THEN 1 ELSE 0 END) AS r FROM t", "r",
                SHARE, 0)).isTrue();
        assertThat(FractionColumns.computedFraction("SELECT avg(s = 'D') AS r FROM t", "r", SHARE, 0)).isTrue();
    }

    @Test
    void scaled_named_stored_or_large_values_are_not() {
        assertThat(FractionColumns.computedFraction("SELECT 100.0 * a / b AS r FROM t", "r", SHARE, 0)).isFalse();
        assertThat(FractionColumns.computedFraction("SELECT a / b AS r_pct FROM t", "r_pct", SHARE, 0)).isFalse();
        assertThat(FractionColumns.computedFraction("SELECT avg(A12) AS r FROM district", "r", SHARE, 0)).isFalse();
        assertThat(FractionColumns.computedFraction("SELECT A12 AS r FROM district", "r", SHARE, 0)).isFalse();
        assertThat(FractionColumns.computedFraction("SELECT a / b AS r FROM t", "r", List.of(List.<Object>of(1.5)), 0))
                .isFalse();
        assertThat(FractionColumns.computedFraction("SELECT a / b AS r FROM t", "r", List.of(List.<Object>of(1L)), 0))
                .as("whole numbers only: no fraction shown").isFalse();
    }
}
