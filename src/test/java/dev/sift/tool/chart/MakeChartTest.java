package dev.sift.tool.chart;

import dev.sift.OnBankWorkspace;
import dev.sift.text.AutoChart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.text.Evidence;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MakeChartTest extends OnBankWorkspace {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ToolRegistry tools = Sift.defaultTools();
    private ToolResult chart(String args) throws Exception {
        return tools.run(tools.prepare("make_chart", JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
    }

    @Test
    void bar_chart_counts_rows_per_value_in_duckdb() throws Exception {
        ws.saveFrame("cards", "SELECT * FROM card");
        ToolResult r = chart("{\"source\":\"cards\",\"kind\":\"bar\",\"x\":\"type\",\"title\":\"Cards by type\"}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        assertThat(r.meta()).containsEntry("artifact", "chart");
        JsonNode spec = (JsonNode) r.payload();
        assertThat(spec.get("$schema").asText()).isEqualTo("https://vega.github.io/schema/vega-lite/v5.json");
        assertThat(spec.get("mark").get("type").asText()).isEqualTo("bar");
        assertThat(spec.get("title").asText()).isEqualTo("Cards by type");
        assertThat(spec.at("/encoding/x/field").asText()).isEqualTo("type");
        assertThat(spec.at("/encoding/x/type").asText()).isEqualTo("nominal");
        assertThat(spec.at("/encoding/y/aggregate").asText()).isEqualTo("sum");
        long total = 0;
        for (JsonNode v : spec.at("/data/values")) {
            total += v.get("n").asLong();
        }
        assertThat(total).isEqualTo(TestDatasets.bank().rows("card"));
        long groups = (Long) ws.query("SELECT count(DISTINCT type) FROM card").scalar();
        assertThat(r.summary()).isEqualTo("Made a bar chart of cards: x = type (nominal), y = count of rows; " + groups
                + " groups. The person sees the chart; do not describe numbers you did not read from a result.");
    }

    @Test
    void every_field_is_validated_against_the_source_columns() {
        assertThatThrownBy(() -> chart("{\"source\":\"card\",\"kind\":\"bar\",\"x\":\"typ\"}"))
                .isInstanceOf(ToolCallException.class).hasMessageContaining("Did you mean 'type'?");
        assertThatThrownBy(() -> chart("{\"source\":\"card\",\"kind\":\"bar\",\"x\":\"type\",\"color\":\"colour\"}"))
                .isInstanceOf(ToolCallException.class).hasMessageContaining("colour");
    }

    @Test
    void kind_must_fit_the_column_types() throws Exception {
        assertThat(chart("{\"source\":\"card\",\"kind\":\"donut\",\"x\":\"type\"}").error())
                .isEqualTo("Unknown chart kind 'donut'. Kinds: bar, line, scatter, histogram, pie, heatmap.");
        assertThat(chart("{\"source\":\"loan\",\"kind\":\"scatter\",\"x\":\"status\",\"y\":\"amount\"}").error())
                .isEqualTo("A scatter chart needs numeric x and y; status of loan is not numeric. Numeric columns:"
                        + " loan_id, account_id, amount, duration, payments.");
        assertThat(chart("{\"source\":\"loan\",\"kind\":\"histogram\",\"x\":\"status\"}").error())
                .isEqualTo("A histogram needs a numeric x; status of loan is not numeric (use a bar chart to count its"
                        + " values). Numeric columns: loan_id, account_id, amount, duration, payments.");
        assertThat(chart("{\"source\":\"loan\",\"kind\":\"heatmap\",\"x\":\"status\"}").error())
                .isEqualTo("A heatmap needs x and y (two columns to cross); give y.");
    }

    @Test
    void raw_point_charts_refuse_large_sources_and_say_how_to_aggregate() throws Exception {
        long rows = TestDatasets.bank().rows("trans");
        assertThat(rows).isGreaterThan(MakeChart.MAX_POINTS);
        assertThat(chart("{\"source\":\"trans\",\"kind\":\"line\",\"x\":\"date\",\"y\":\"amount\"}").error())
                .isEqualTo("trans has " + rows + " rows; a line chart takes at most 5000 points. Aggregate first with"
                        + " run_sql (e.g. GROUP BY date, with a label) and chart that frame.");
    }

    @Test
    void histogram_bins_a_numeric_column_and_scatter_plots_points() throws Exception {
        JsonNode h = (JsonNode) chart("{\"source\":\"loan\",\"kind\":\"histogram\",\"x\":\"amount\"}").payload();
        assertThat(h.at("/encoding/x/bin").asBoolean()).isTrue();
        ToolResult s = chart("{\"source\":\"loan\",\"kind\":\"scatter\",\"x\":\"amount\",\"y\":\"payments\",\"color\":\"status\"}");
        JsonNode spec = (JsonNode) s.payload();
        assertThat(spec.get("mark").get("type").asText()).isEqualTo("point");
        assertThat(spec.at("/data/values")).hasSize((int) TestDatasets.bank().rows("loan"));
        assertThat(spec.at("/encoding/color/field").asText()).isEqualTo("status");
    }

    @Test
    void auto_chart_suggests_a_bar_for_a_count_per_value_only() {
        Evidence counts = new Evidence("q", List.of("value", "n"), List.of(List.of("A", 10L), List.of("B", 3L)), 2, null);
        assertThat(AutoChart.of(counts)).hasValueSatisfying(spec -> {
            assertThat(spec.at("/mark/type").asText()).isEqualTo("bar");
            assertThat(spec.at("/encoding/y/field").asText()).isEqualTo("n");
            assertThat(spec.at("/data/values/0/value").asText()).isEqualTo("A");
        });
        Evidence single = new Evidence("q", List.of("n"), List.of(List.of(5L)), 1, null);
        assertThat(AutoChart.of(single)).isEmpty();
        Evidence truncated = new Evidence("q", List.of("value", "n"), List.of(List.of("A", 1L), List.of("B", 2L)), 90, null);
        assertThat(AutoChart.of(truncated)).isEmpty();
    }

    @Test
    void axis_titles_are_the_knowledge_graphs_labels_not_column_codes() throws Exception {
        JsonNode bars = (JsonNode) chart("{\"source\":\"district\",\"kind\":\"bar\",\"x\":\"A3\",\"y\":\"A11\"}").payload();
        assertThat(bars.at("/encoding/x/title").asText()).isEqualTo("Region");
        assertThat(bars.at("/encoding/y/title").asText()).isEqualTo("Average salary");
        assertThat(bars.at("/encoding/x/field").asText()).isEqualTo("A3");

        JsonNode counts = (JsonNode) chart("{\"source\":\"loan\",\"kind\":\"bar\",\"x\":\"status\"}").payload();
        assertThat(counts.at("/encoding/y/title").asText()).isEqualTo("Number of loans");
    }

    @Test
    void a_frames_axis_titles_follow_the_query_that_made_it() throws Exception {
        String sql = "SELECT district.A3 AS A3, avg(loan.amount) AS average_loan_amount FROM loan JOIN account ON"
                + " loan.account_id = account.account_id JOIN district ON account.district_id = district.A1 GROUP BY 1";
        ws.saveFrame("by_region", sql);
        ToolContext ctx = new ToolContext(ws, null, "q");
        ctx.addEvidence(new Evidence(sql, List.of("A3", "average_loan_amount"), List.of(), 8, "by_region"));
        ToolResult r = tools.run(tools.prepare("make_chart", JSON.readTree(
                "{\"source\":\"by_region\",\"kind\":\"bar\",\"x\":\"A3\",\"y\":\"average_loan_amount\"}"), ws), ctx);
        JsonNode spec = (JsonNode) r.payload();
        assertThat(spec.at("/encoding/x/title").asText()).isEqualTo("Region");
        assertThat(spec.at("/encoding/y/title").asText()).isEqualTo("Average loan amount (CZK)");
    }
}
