package dev.sift.data;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static dev.sift.data.Numbers.Kind.AMOUNT;
import static dev.sift.data.Numbers.Kind.COUNT;
import static dev.sift.data.Numbers.Kind.ID;
import static dev.sift.data.Numbers.Kind.NUMBER;
import static dev.sift.data.Numbers.Kind.RATE;
import static dev.sift.data.Numbers.Kind.TEXT;
import static dev.sift.data.Numbers.Kind.YEAR;
import static org.assertj.core.api.Assertions.assertThat;

class NumbersTest {
    @Test
    void identifiers_and_years_are_never_grouped() {
        assertThat(Numbers.format(4960L, ID)).isEqualTo("4960");
        assertThat(Numbers.format(1997, YEAR)).isEqualTo("1997");
        assertThat(Numbers.format(4960.0, ID)).isEqualTo("4960");
    }

    @Test
    void counts_are_whole_and_grouped() {
        assertThat(Numbers.format(1029342L, COUNT)).isEqualTo("1,029,342");
        assertThat(Numbers.format(691, COUNT)).isEqualTo("691");
        assertThat(Numbers.count(691, "loan", "loans")).isEqualTo("691 loans");
        assertThat(Numbers.count(1, "loan", "loans")).isEqualTo("1 loan");
    }

    @Test
    void amounts_are_grouped_with_at_most_two_decimals() {
        assertThat(Numbers.format(145068.6686, AMOUNT)).isEqualTo("145,068.67");
        assertThat(Numbers.format(111719.09999999999, AMOUNT)).isEqualTo("111,719.1");
        assertThat(Numbers.format(new BigDecimal("1200.00"), AMOUNT)).isEqualTo("1,200");
        assertThat(Numbers.format(-36324.71, AMOUNT)).isEqualTo("-36,324.71");
    }

    @Test
    void rates_are_percentages_with_one_or_two_decimals() {
        assertThat(Numbers.format(0.0223880597, RATE)).isEqualTo("2.24%");
        assertThat(Numbers.format(0.1114327062, RATE)).isEqualTo("11.1%");
        assertThat(Numbers.format(1.0, RATE)).isEqualTo("100%");
        assertThat(Numbers.format(0.00001, RATE)).isEqualTo("< 0.01%");
        assertThat(Numbers.format(0, RATE)).isEqualTo("0%");
    }

    @Test
    void other_numbers_keep_four_significant_digits_and_their_whole_part() {
        assertThat(Numbers.number(6.367583213)).isEqualTo("6.368");
        assertThat(Numbers.number(111719.09999999999)).isEqualTo("111,719");
        assertThat(Numbers.number(0.000123456)).isEqualTo("0.0001235");
        assertThat(Numbers.number(Double.NaN)).isEqualTo("n/a");
        assertThat(Numbers.number(12L)).isEqualTo("12");
    }

    @Test
    void text_and_null_are_written_as_they_are() {
        assertThat(Numbers.format("Prague", TEXT)).isEqualTo("Prague");
        assertThat(Numbers.format(null, COUNT)).isEqualTo("NULL");
    }

    @Test
    void reads_what_a_column_holds_from_its_name_and_values() {
        assertThat(Numbers.kindOf("loan_id", List.of(4960L, 5001L))).isEqualTo(ID);
        assertThat(Numbers.kindOf("id", List.of(1L))).isEqualTo(ID);
        assertThat(Numbers.kindOf("year", List.of(1993, 1994))).isEqualTo(YEAR);
        assertThat(Numbers.kindOf("default_rate", List.of(0.02, 0.2))).isEqualTo(RATE);
        assertThat(Numbers.kindOf("probability", List.of(0.99, 0.5))).isEqualTo(RATE);
        assertThat(Numbers.kindOf("loan_count", List.of(17L, 81L))).isEqualTo(COUNT);
        assertThat(Numbers.kindOf("n", List.of(17L))).isEqualTo(COUNT);
        assertThat(Numbers.kindOf("average_loan_amount", List.of(85374.69))).isEqualTo(AMOUNT);
        assertThat(Numbers.kindOf("r2", List.of(0.5, 1.7))).isEqualTo(NUMBER);
        assertThat(Numbers.kindOf("status", List.of("A", "B"))).isEqualTo(TEXT);
    }

    @Test
    void a_rate_named_column_outside_zero_to_one_is_not_a_percentage() {
        assertThat(Numbers.kindOf("unemployment_rate", List.of(3.5, 7.2))).isEqualTo(NUMBER);
        assertThat(Numbers.kindOf("year", List.of(1993.5))).isNotEqualTo(YEAR);
    }
}
