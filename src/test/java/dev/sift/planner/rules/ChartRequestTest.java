package dev.sift.planner.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChartRequestTest {
    @Test
    void the_request_words_are_taken_out_and_what_is_left_is_the_question() {
        assertThat(ChartRequest.read("Show me a chart of the average loan amount by status").orElseThrow())
                .isEqualTo(new ChartRequest("average loan amount by status", null));
        assertThat(ChartRequest.read("plot the total transaction amount per year").orElseThrow().question())
                .isEqualTo("total transaction amount per year");
    }

    @Test
    void a_chart_of_rows_with_no_measure_counts_them() {
        assertThat(ChartRequest.read("Show me a chart of loans per year").orElseThrow().question())
                .isEqualTo("number of loans per year");
    }

    @Test
    void the_kind_asked_for_is_kept_wherever_the_request_stands() {
        assertThat(ChartRequest.read("visualize the default rate by region as a bar chart").orElseThrow())
                .isEqualTo(new ChartRequest("default rate by region", "bar"));
        assertThat(ChartRequest.read("draw a pie chart of the number of cards by type").orElseThrow())
                .isEqualTo(new ChartRequest("number of cards by type", "pie"));
    }

    @Test
    void a_question_without_a_chart_word_is_no_request() {
        assertThat(ChartRequest.read("How many loans are there?")).isEmpty();
    }

    @Test
    void draw_is_a_request_only_where_a_request_starts_and_a_result_anywhere_else() {
        assertThat(ChartRequest.read("What percentage of matches ended in a draw?")).isEmpty();
        assertThat(ChartRequest.read("How many matches were draws?")).isEmpty();
        assertThat(ChartRequest.read("Please draw the number of matches by division").orElseThrow().question())
                .isEqualTo("number of matches by division");
    }
}
