package dev.sift.text;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class AutoChartTest {
    private static Evidence ev(List<String> cols, List<List<Object>> rows) {
        return new Evidence("SELECT 1", cols, rows, rows.size(), null);
    }

    @Test
    void a_result_grouped_by_year_is_a_line_over_ordinal_years() {
        ObjectNode spec = AutoChart.of(ev(List.of("year", "loan_count"),
                List.of(List.of(1993, 17L), List.of(1994, 81L), List.of(1995, 112L)))).orElseThrow();
        assertThat(spec.path("mark").path("type").asText()).isEqualTo("line");
        assertThat(spec.at("/encoding/x/type").asText()).isEqualTo("ordinal");
        assertThat(spec.at("/data/values/0/year").asText()).isEqualTo("1993");
    }

    @Test
    void monthly_dates_are_a_temporal_line() {
        ObjectNode spec = AutoChart.of(ev(List.of("month", "total"),
                List.of(List.of("1995-01-01", 10.5), List.of("1995-02-01", 12.0)))).orElseThrow();
        assertThat(spec.path("mark").path("type").asText()).isEqualTo("line");
        assertThat(spec.at("/encoding/x/type").asText()).isEqualTo("temporal");
    }

    @Test
    void a_measure_per_category_is_a_bar_chart_largest_first_with_the_given_titles() {
        ObjectNode spec = AutoChart.of(ev(List.of("A3", "average_salary"),
                List.of(List.of("Prague", 12595.0), List.of("east Bohemia", 8862.7))), c -> c.equals("A3") ? "Region" : c).orElseThrow();
        assertThat(spec.path("mark").path("type").asText()).isEqualTo("bar");
        assertThat(spec.at("/encoding/x/sort").asText()).isEqualTo("-y");
        assertThat(spec.at("/encoding/x/title").asText()).isEqualTo("Region");
        assertThat(spec.path("title").asText()).isEqualTo("average_salary by region");
    }

    @Test
    void shares_are_bars_in_percent() {
        ObjectNode spec = AutoChart.of(ev(List.of("region", "default_rate"),
                List.of(List.of("Prague", 0.022), List.of("north Bohemia", 0.214)))).orElseThrow();
        assertThat(spec.at("/encoding/y/axis/format").asText()).isEqualTo(".0%");
        assertThat(spec.at("/encoding/y/title").asText()).isEqualTo("default_rate (%)");
    }

    @Test
    void two_numeric_columns_are_a_scatter() {
        ObjectNode spec = AutoChart.of(ev(List.of("amount", "duration_months"),
                List.of(List.of(1000.5, 12.5), List.of(2000.5, 24.5), List.of(3000.5, 36.5)))).orElseThrow();
        assertThat(spec.path("mark").path("type").asText()).isEqualTo("point");
    }

    @Test
    void nothing_is_suggested_for_one_row_a_truncated_result_or_ids_alone() {
        assertThat(AutoChart.of(ev(List.of("status", "n"), List.<List<Object>>of(List.of("A", 3L))))).isEmpty();
        Evidence truncated = new Evidence("SELECT 1", List.of("status", "n"), List.of(List.of("A", 3L), List.of("B", 4L)), 99, null);
        assertThat(AutoChart.of(truncated)).isEmpty();
        Optional<ObjectNode> ids = AutoChart.of(ev(List.of("loan_id", "account_id"), List.of(List.of(1L, 2L), List.of(3L, 4L))));
        assertThat(ids).isEmpty();
    }
}
