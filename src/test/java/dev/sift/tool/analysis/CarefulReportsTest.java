package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.NegativeValues;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The tools that report on data state exact distinct counts, flag future dates and judge negatives by one rule. */
class CarefulReportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();

    private static ToolResult call(Workspace ws, String tool, String args) throws Exception {
        return TOOLS.run(TOOLS.prepare(tool, JSON.readTree(args), ws), new ToolContext(ws, null, "q"));
    }

    /** 1,461 days from 2012-01-01, a day each, with weather columns: temperatures below zero on a tenth of them. */
    private static Dataset weather() throws Exception {
        StringBuilder csv = new StringBuilder("date,temp_min,Cost Repair,wind\n");
        java.time.LocalDate d = java.time.LocalDate.of(2012, 1, 1);
        for (int i = 0; i < 1461; i++) {
            csv.append(d.plusDays(i)).append(',').append(i % 10 == 0 ? -3.5 : 8.5).append(',')
                    .append(i == 5 ? -100 : 250 + i).append(',').append(i == 9 ? -1 : 3 + i % 4).append('\n');
        }
        csv.append("2046-05-01,9.0,300,4\n");
        return TestDatasets.csv("careful_weather", Map.of("weather.csv", csv.toString()));
    }

    @Test
    void inspect_data_gives_exact_distinct_counts() throws Exception {
        try (Workspace ws = Workspace.open(weather(), Workspace.Limits.defaults())) {
            String out = call(ws, "inspect_data", "{\"table\":\"weather\"}").summary();
            assertThat(out).contains("- date DATE: 0 nulls, 1,462 distinct");
            assertThat(call(ws, "profile_data", "{\"source\":\"weather\"}").summary()).contains("date DATE: no nulls, 1,462 distinct");
        }
    }

    @Test
    void data_quality_flags_future_dates_and_negatives_by_the_same_rule_as_the_column_facts() throws Exception {
        try (Workspace ws = Workspace.open(weather(), Workspace.Limits.defaults())) {
            DataQualityReport.Report r = (DataQualityReport.Report) call(ws, "data_quality_report", "{\"source\":\"weather\"}")
                    .payload();
            assertThat(r.findings()).filteredOn(f -> f.check().equals("out-of-range values"))
                    .extracting(f -> f.column() + "|" + f.count() + "|" + f.example()).containsExactlyInAnyOrder(
                            "date|1|2046-05-01", "Cost Repair|1|-100", "wind|1|-1");
            var weather = ws.table("weather").orElseThrow();
            assertThat(weather.column("Cost Repair").orElseThrow().facts().negatives()).isEqualTo(1); // by its name
            assertThat(weather.column("wind").orElseThrow().facts().negatives()).isEqualTo(1); // one in 1,462: rare
            assertThat(weather.column("temp_min").orElseThrow().facts().negatives()).isZero(); // a tenth: ordinary
        }
    }

    @Test
    void the_negative_rule_reads_names_however_they_are_written() {
        assertThat(NegativeValues.quantityName("Cost Repair")).isTrue();
        assertThat(NegativeValues.quantityName("unitPrice")).isTrue();
        assertThat(NegativeValues.quantityName("Body Mass (g)")).isTrue();
        assertThat(NegativeValues.quantityName("temp_min")).isFalse();
        assertThat(NegativeValues.quantityName("Accountage")).isFalse();
        assertThat(NegativeValues.suspect("balance", 30, 70)).isFalse();
        assertThat(NegativeValues.suspect("balance", 1, 200)).isTrue();
        assertThat(NegativeValues.suspect("price", 30, 70)).isTrue();
        assertThat(NegativeValues.suspect("price", 0, 70)).isFalse();
    }
}
