package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How names as exports write them are read: words, units, abbreviations, word order, table suffixes. */
class NameWordsTest {

    @Test
    void a_name_is_split_on_spaces_underscores_case_changes_and_digits() {
        assertThat(NameWords.split("IMDB Rating")).containsExactly("imdb", "rating");
        assertThat(NameWords.split("Weight_in_lbs")).containsExactly("weight", "in", "lbs");
        assertThat(NameWords.split("bodyMassG")).containsExactly("body", "mass", "g");
        assertThat(NameWords.split("IMDBRating2")).containsExactly("imdb", "rating", "2");
        assertThat(NameWords.split("Body Mass (g)")).containsExactly("body", "mass", "g");
    }

    @Test
    void a_unit_at_the_end_of_a_name_is_read_as_a_unit_and_not_needed_in_a_question() {
        assertThat(NameWords.column("Body Mass (g)").orElseThrow()).isEqualTo(new NameWords.Read(List.of("body", "mass"), "grams"));
        assertThat(NameWords.column("Weight_in_lbs").orElseThrow()).isEqualTo(new NameWords.Read(List.of("weight"), "pounds"));
        assertThat(NameWords.column("Speed IAS in knots").orElseThrow().unit()).isEqualTo("knots");
        assertThat(NameWords.column("Running Time min").orElseThrow()).isEqualTo(new NameWords.Read(List.of("running", "time"), "minutes"));
        assertThat(NameWords.column("price_usd").orElseThrow().unit()).isEqualTo("US dollars");
        assertThat(NameWords.columnPhrases("Weight_in_lbs")).contains("weight in lbs", "weight");
    }

    @Test
    void min_is_minutes_only_after_a_word_of_time_and_otherwise_the_minimum() {
        assertThat(NameWords.column("temp_min").orElseThrow()).isEqualTo(new NameWords.Read(List.of("temp", "min"), null));
        assertThat(NameWords.columnPhrases("temp_min")).contains("minimum temperature", "min temp", "temperature minimum");
        assertThat(NameWords.column("delay_min").orElseThrow().unit()).isEqualTo("minutes");
    }

    @Test
    void abbreviations_read_both_ways_and_two_word_names_in_either_order() {
        assertThat(NameWords.columnPhrases("temp_max")).contains("temp max", "maximum temperature", "max temp");
        assertThat(NameWords.columnPhrases("Miles_per_Gallon")).contains("miles per gallon", "mpg");
        assertThat(NameWords.columnPhrases("Cost Repair")).contains("cost repair", "repair cost");
        assertThat(NameWords.columnPhrases("avg_qty")).contains("average quantity");
    }

    @Test
    void a_code_name_has_no_phrases_and_a_head_word_is_read_only_for_names_of_several_words() {
        assertThat(NameWords.columnPhrases("A12")).isEmpty();
        assertThat(NameWords.column("x1")).isEmpty();
        assertThat(NameWords.head("IMDB Rating")).contains("rating");
        assertThat(NameWords.head("Worldwide Gross")).contains("gross");
        assertThat(NameWords.head("status")).isEmpty();
        assertThat(NameWords.head("temp_max")).isEmpty();
    }

    @Test
    void sole_words_runs_share_phrases_and_record_keeping_dates() {
        assertThat(NameWords.soleWord("habitat")).isTrue();
        assertThat(NameWords.soleWord("owed")).isFalse(); // a verb form
        assertThat(NameWords.soleWord("ending")).isFalse();
        assertThat(NameWords.soleWord("pct")).isFalse(); // an abbreviation and a unit
        assertThat(NameWords.runs(List.of("total", "individual", "contributions"))).containsExactly("total individual",
                "individual contributions");
        assertThat(NameWords.runs(List.of("refunds", "to", "individuals"))).isEmpty(); // no run begins or ends in "to"
        assertThat(NameWords.columnPhrases("habitat_yearround_pct")).contains("habitat yearround share");
        assertThat(NameWords.soleForms("habitat_yearround_pct", "habitat")).contains("habitat", "habitat share");
        assertThat(NameWords.soleForms("Debts_Owed_By", "debts")).containsExactly("debts");
        assertThat(NameWords.bookkeeping("earthquakes.updated")).isTrue();
        assertThat(NameWords.bookkeeping("earthquakes.time")).isFalse();
    }

    @Test
    void a_table_drops_its_size_or_version_suffix_and_only_a_two_word_names_words_name_it() {
        assertThat(NameWords.tablePhrases("flights_20k")).contains("flights");
        assertThat(NameWords.tablePhrases("flights_3m")).contains("flights");
        assertThat(NameWords.tablePhrases("sales_v2")).contains("sales");
        assertThat(NameWords.tablePhrases("orders_2024")).contains("orders");
        assertThat(NameWords.tablePhrases("seattle_weather")).contains("seattle weather");
        assertThat(NameWords.tableWords("seattle_weather")).containsExactly("seattle", "weather");
        assertThat(NameWords.tableWords("us_employment")).containsExactly("employment"); // "us" is too short to be a name
        assertThat(NameWords.tableWords("flights_20k")).isEmpty();
        assertThat(NameWords.tableWords("unemployment_across_industries")).isEmpty();
        assertThat(NameWords.tableWords("loan")).isEmpty();
    }
}
