package dev.sift.bench.suite;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResultMatcherTest {
    private static final double TOL = Suite.ROW_SET_TOLERANCE;

    private static List<List<Object>> rows(Object[]... rows) {
        return Arrays.stream(rows).map(Arrays::asList).toList();
    }

    private static Object[] r(Object... cells) {
        return cells;
    }

    @Test
    void row_order_is_ignored() {
        var gold = rows(r("A", 195L), r("B", 33L), r("C", 419L));
        var answer = rows(r("C", 419L), r("A", 195L), r("B", 33L));
        assertThat(ResultMatcher.rowSet(gold, 2, answer, 2, TOL)).isTrue();
    }

    @Test
    void column_order_is_ignored_and_names_do_not_matter() {
        var gold = rows(r("A", 195L), r("B", 33L));
        var answer = rows(r(33, "B"), r(195, "A")); // (n, status) instead of (status, count)
        assertThat(ResultMatcher.rowSet(gold, 2, answer, 2, TOL)).isTrue();
    }

    @Test
    void rows_are_a_multiset_duplicates_count() {
        var gold = rows(r("x", 1), r("x", 1), r("y", 2));
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("x", 1), r("y", 2), r("y", 2)), 2, TOL)).isFalse();
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("y", 2), r("x", 1), r("x", 1)), 2, TOL)).isTrue();
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("x", 1), r("y", 2)), 2, TOL)).as("a row missing").isFalse();
    }

    @Test
    void cells_must_stay_together_in_their_rows() {
        // same column multisets, different pairing: not the same result
        var gold = rows(r("A", 1), r("B", 2));
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("A", 2), r("B", 1)), 2, TOL)).isFalse();
    }

    @Test
    void extra_answer_columns_are_allowed_but_missing_ones_are_not() {
        var gold = rows(r("Hl.m. Praha", 500), r("Brno - mesto", 161));
        var withIds = rows(r(1, "Hl.m. Praha", 500), r(74, "Brno - mesto", 161));
        assertThat(ResultMatcher.rowSet(gold, 2, withIds, 3, TOL)).isTrue();
        assertThat(ResultMatcher.rowSet(withIds, 3, gold, 2, TOL)).isFalse();
    }

    @Test
    void numbers_match_across_types_and_within_the_relative_tolerance() {
        assertThat(ResultMatcher.valueEquals(4.5, new BigDecimal("4.50"), TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(4.5, "4.50", TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(691L, 691, TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(new BigInteger("100242450"), 1.0024245E8, TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(145068.66859623734, 145068.6686, TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(145068.66859623734, 145068.67, 1e-9)).isFalse();
        assertThat(ResultMatcher.valueEquals(100.0, 100.05, 1e-3)).isTrue();
        assertThat(ResultMatcher.valueEquals(100.0, 100.2, 1e-4)).isFalse();
        assertThat(ResultMatcher.valueEquals(0, 0.0, TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(0, 1e-12, TOL)).isFalse();
    }

    @Test
    void text_null_and_dates_compare_exactly() {
        assertThat(ResultMatcher.valueEquals("gold", "gold", TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals("gold", "Gold", TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(null, null, TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(null, "", TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(null, 0, TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals("1993-06-08", "1993-06-08", TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(true, 1, TOL)).isFalse();
        assertThat(ResultMatcher.rowSet(rows(r(null, 1)), 2, rows(r(1, null)), 2, TOL)).isTrue();
    }

    @Test
    void row_counts_must_agree() {
        assertThat(ResultMatcher.rowSet(rows(), 1, rows(), 1, TOL)).isTrue();
        assertThat(ResultMatcher.rowSet(rows(r(1)), 1, rows(), 1, TOL)).isFalse();
        assertThat(ResultMatcher.rowSet(rows(), 1, rows(r(1)), 1, TOL)).isFalse();
    }

    @Test
    void single_value_matches_only_a_result_whose_only_cell_it_is() {
        assertThat(ResultMatcher.singleValue(691L, rows(r(691)), 1, TOL)).isTrue();
        assertThat(ResultMatcher.singleValue(4.5, rows(r("4.50")), 1, TOL)).isTrue();
        assertThat(ResultMatcher.singleValue(691L, rows(r("loan", 691)), 2, TOL)).as("a value after a name").isFalse();
        assertThat(ResultMatcher.singleValue("Hl.m. Praha", rows(r("Hl.m. Praha", 12541)), 2, TOL))
                .as("a name with the value it was ranked by").isTrue();
        assertThat(ResultMatcher.singleValue(5L, rows(r(5), r(6)), 1, TOL)).as("more than one row").isFalse();
        assertThat(ResultMatcher.singleValue(5L, rows(r(6)), 1, TOL)).isFalse();
        assertThat(ResultMatcher.singleValue(5L, rows(), 1, TOL)).isFalse();
    }

    @Test
    void a_month_number_and_its_name_agree_and_nothing_else_does() {
        var gold = rows(r(1, 78L), r(2, 83L));
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("January", 78L), r("February", 83L)), 2, TOL)).isTrue();
        assertThat(ResultMatcher.rowSet(gold, 2, rows(r("February", 78L), r("January", 83L)), 2, TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(4, "April", TOL)).isTrue();
        assertThat(ResultMatcher.valueEquals(13, "April", TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(4.5, "April", TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(4, "Apr", TOL)).isFalse();
        assertThat(ResultMatcher.valueEquals(4, "four", TOL)).isFalse();
    }
}
