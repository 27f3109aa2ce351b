package dev.sift.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Names as a sample question says them. */
class SampleWordsTest {
    @Test
    void identifiers_split_on_underscores_spaces_case_and_digits() {
        assertThat(SampleWords.words("Miles_per_Gallon")).isEqualTo("miles per gallon");
        assertThat(SampleWords.words("homeTeam")).isEqualTo("home team");
        assertThat(SampleWords.words("IMDBRating")).isEqualTo("imdb rating");
        assertThat(SampleWords.words("Phase of flight")).isEqualTo("phase of flight");
        assertThat(SampleWords.words("sales.order_items")).isEqualTo("order items");
    }

    @Test
    void a_unit_suffix_is_left_out_but_never_the_whole_name_or_an_ambiguous_min() {
        assertThat(SampleWords.plain("Weight_in_lbs")).isEqualTo("weight");
        assertThat(SampleWords.plain("Body Mass (g)")).isEqualTo("body mass");
        assertThat(SampleWords.plain("habitat_yearround_pct")).isEqualTo("habitat yearround");
        assertThat(SampleWords.plain("Distance_km")).isEqualTo("distance");
        assertThat(SampleWords.plain("temp_min")).isEqualTo("temp min");
        assertThat(SampleWords.plain("pct")).isEqualTo("pct");
        assertThat(SampleWords.plain("Deaths")).isEqualTo("deaths");
    }

    @Test
    void table_names_lose_size_and_version_suffixes() {
        assertThat(SampleWords.table("flights_20k")).isEqualTo("flights");
        assertThat(SampleWords.table("flights_3m")).isEqualTo("flights");
        assertThat(SampleWords.table("sales_v2")).isEqualTo("sales");
        assertThat(SampleWords.table("fleet_log_2024")).isEqualTo("fleet log");
        assertThat(SampleWords.table("seattle_weather")).isEqualTo("seattle weather");
    }

    @Test
    void only_names_already_plural_name_rows_and_columns_are_made_plural_for_a_top_five() {
        assertThat(SampleWords.plural("la riots")).isTrue();
        assertThat(SampleWords.plural("seattle weather")).isFalse();
        assertThat(SampleWords.plural("class")).isFalse();
        assertThat(SampleWords.pluralise("country")).isEqualTo("countries");
        assertThat(SampleWords.pluralise("home team")).isEqualTo("home teams");
        assertThat(SampleWords.pluralise("class")).isEqualTo("classes");
        assertThat(SampleWords.readable("a2")).isFalse();
        assertThat(SampleWords.readable("net generation")).isTrue();
    }
}
