package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

/** The analysis tools on the test bank, checked against plain SQL on the same data. */
class BankAnalysisTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolRegistry TOOLS = Sift.defaultTools();
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolResult call(String tool, String args) throws Exception {
        return call(new ToolContext(ws, null, "q"), tool, args);
    }

    private static ToolResult call(ToolContext ctx, String tool, String args) throws Exception {
        ToolRegistry.PreparedCall prepared = TOOLS.prepare(tool, JSON.readTree(args), ws);
        ToolResult r = TOOLS.run(prepared, ctx);
        assertThat(r.summary().length()).isLessThanOrEqualTo(((Tool<?>) prepared.tool()).summaryCap() + 30);
        return r;
    }

    private static Object sql(String sql) throws Exception {
        return ws.query(sql).scalar();
    }

    @Test
    void profile_of_loan_matches_sql_and_is_kept_as_a_frame() throws Exception {
        ProfileData.Profile p = (ProfileData.Profile) call("profile_data", "{\"table\":\"loan\"}").payload();
        assertThat(p.rows()).isEqualTo(TestDatasets.bank().rows("loan"));
        assertThat(p.columns()).extracting(ProfileData.ColumnProfile::name)
                .containsExactly("loan_id", "account_id", "date", "amount", "duration", "payments", "status");
        ProfileData.ColumnProfile amount = p.columns().get(3);
        assertThat(amount.mean()).isCloseTo(((Number) sql("SELECT avg(amount) FROM loan")).doubleValue(), within(1e-6));
        assertThat(amount.min()).isEqualTo(String.valueOf(sql("SELECT min(amount) FROM loan")));
        ProfileData.ColumnProfile status = p.columns().get(6);
        assertThat(status.top().get(0).rows()).isEqualTo(sql("SELECT count(*) FROM loan GROUP BY status ORDER BY 1 DESC LIMIT 1"));
        assertThat(sql("SELECT count(*) FROM frames.profile_loan")).isEqualTo(7L);
    }

    @Test
    void data_quality_of_trans_checks_orphans_along_inferred_joins_and_says_so() throws Exception {
        ToolContext ctx = new ToolContext(ws, null, "q");
        DataQualityReport.Report r = (DataQualityReport.Report) call(ctx, "data_quality_report", "{\"source\":\"trans\"}").payload();
        assertThat(r.key()).isEqualTo("trans_id");
        assertThat(r.checks()).contains("orphans along trans.account_id = account.account_id (approved join in the"
                + " knowledge graph)", "exact duplicate rows (none possible: trans_id is unique)");
        assertThat(r.findings()).noneMatch(f -> f.check().equals("orphan foreign keys")); // the bank has full integrity
        long nullSymbols = ((Number) sql("SELECT count(*) FROM trans WHERE k_symbol IS NULL")).longValue();
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.check() + " " + f.column()).isEqualTo("missing values k_symbol");
            assertThat(f.count()).isEqualTo(nullSymbols);
        });
        assertThat(ctx.evidence()).singleElement().satisfies(e -> assertThat(e.frame()).isEqualTo("dq_trans"));
        DataQualityReport.Report client = (DataQualityReport.Report) call("data_quality_report", "{\"source\":\"client\"}").payload();
        // a join no column name reveals: the knowledge graph knows client.district_id points to district.A1
        assertThat(client.checks()).contains("orphans along client.district_id = district.A1 (approved join in the"
                + " knowledge graph)");
    }

    @Test
    void correlations_of_loan_match_sql_corr() throws Exception {
        ToolResult res = call("correlation_analysis", "{\"source\":\"loan\",\"target\":\"amount\"}");
        CorrelationAnalysis.Result r = (CorrelationAnalysis.Result) res.payload();
        assertThat(r.numeric()).containsExactly("amount", "duration", "payments"); // ids are left out
        double expected = ((Number) sql("SELECT corr(amount, payments) FROM loan")).doubleValue();
        assertThat(r.pairs()).anySatisfy(p -> {
            assertThat(p.a() + "~" + p.b()).isEqualTo("amount~payments");
            assertThat(p.value()).isCloseTo(expected, within(1e-9));
        });
        assertThat(r.strongest().get(0).a() + r.strongest().get(0).b()).contains("amount");
        assertThat(JSON.valueToTree(r.chart()).at("/layer/0/mark").asText()).isEqualTo("rect");
    }

    @Test
    void trend_and_forecast_charts_are_titled_in_the_knowledge_graphs_words() throws Exception {
        JsonNode trend = JSON.valueToTree(((TrendAnalysis.Result) call("trend_analysis",
                "{\"source\":\"loan\",\"date\":\"date\",\"measure\":\"amount\",\"agg\":\"sum\",\"grain\":\"quarter\"}")
                .payload()).chart());
        assertThat(trend.at("/title").asText()).isEqualTo("Quarterly total loan amount (CZK)");
        assertThat(trend.at("/layer/0/encoding/y/title").asText()).isEqualTo("Total loan amount (CZK)");
        ToolResult forecast = call("forecast", "{\"source\":\"loan\",\"date\":\"date\",\"grain\":\"quarter\",\"horizon\":4}");
        JsonNode chart = forecast.chart().orElseThrow();
        assertThat(chart.at("/title").asText()).isEqualTo("Forecast of quarterly number of loans");
        assertThat(chart.at("/layer/0/encoding/y/title").asText()).isEqualTo("Number of loans");
    }

    @Test
    void forecast_intervals_are_as_wide_as_the_backtest_errors_and_cover_the_backtest() throws Exception {
        ToolResult res = call("forecast", "{\"source\":\"trans\",\"date\":\"date\",\"measure\":\"amount\","
                + "\"agg\":\"sum\",\"horizon\":6}");
        Forecast.Result r = (Forecast.Result) res.payload();
        assertThat(r.coverageChecked()).isGreaterThanOrEqualTo(30);
        assertThat(r.intervalCoverage()).isBetween(0.8, 1.0);
        Forecast.Point first = r.forecast().get(0);
        assertThat(first.upper() - first.forecast()).isGreaterThanOrEqualTo(1.5 * r.mae());
        assertThat(first.forecast() - first.lower()).isGreaterThanOrEqualTo(1.5 * r.mae());
        for (int k = 1; k < r.forecast().size(); k++) { // no narrower further ahead
            Forecast.Point p = r.forecast().get(k);
            assertThat(p.upper() - p.forecast()).isGreaterThanOrEqualTo(first.upper() - first.forecast() - 1e-6);
        }
        assertThat(res.summary()).contains("The 95% intervals are as wide as the backtest's errors at each horizon"
                + " (rolling origins): they covered ").contains("backtest forecasts, each checked against an interval"
                + " built without its origin.");
    }

    @Test
    void monthly_trend_of_trans_adds_up_to_the_table() throws Exception {
        TrendAnalysis.Result r = (TrendAnalysis.Result) call("trend_analysis",
                "{\"source\":\"trans\",\"date\":\"date\",\"grain\":\"quarter\"}").payload();
        double total = r.series().stream().mapToDouble(TrendAnalysis.Point::value).sum();
        assertThat(total).isEqualTo(((Number) sql("SELECT count(*) FROM trans")).doubleValue());
        assertThat(r.grain()).isEqualTo("quarter");
        assertThat(sql("SELECT count(*) FROM frames.trend_trans_count")).isEqualTo((long) r.series().size());
    }

    @Test
    void trend_and_forecast_explain_wrong_columns() throws Exception {
        assertThat(call("trend_analysis", "{\"source\":\"client\",\"date\":\"birth_number\"}").error())
                .isEqualTo("Column client.birth_number is VARCHAR, not a DATE or TIMESTAMP. Date columns of client:"
                        + " birth_date. To use text dates, make a date column first with transform_column, e.g."
                        + " expression \"strptime(birth_number, '%d.%m.%Y')::DATE\".");
        assertThat(call("forecast", "{\"source\":\"loan\",\"date\":\"date\",\"measure\":\"status\"}").error())
                .isEqualTo("Column loan.status is VARCHAR, not numeric, so it cannot be sum-aggregated. Numeric columns"
                        + " of loan: loan_id, account_id, amount, duration, payments. Use agg 'count' to count its"
                        + " non-null values.");
        assertThat(call("trend_analysis", "{\"source\":\"loan\",\"date\":\"date\",\"agg\":\"avg\"}").error())
                .isEqualTo("agg 'avg' needs a measure column; omit agg (or use agg 'count') to count rows.");
        assertThat(catchThrowable(() -> TOOLS.prepare("trend_analysis",
                JSON.readTree("{\"source\":\"loan\",\"date\":\"date\",\"grain\":\"hour\"}"), ws)))
                .isInstanceOf(ToolCallException.class)
                .hasMessage("trend_analysis: grain must be one of day, week, month, quarter, year; got 'hour'.");
        assertThat(catchThrowable(() -> TOOLS.prepare("trend_analysis",
                JSON.readTree("{\"source\":\"loan\",\"date\":\"day\"}"), ws)))
                .hasMessage("Table loan has no column 'day'. Table loan has columns: loan_id, account_id, date, amount,"
                        + " duration, payments, status. Did you mean 'date'?");
    }

    @Test
    void auto_insights_ranks_findings_that_each_carry_evidence() throws Exception {
        ToolContext ctx = new ToolContext(ws, null, "q");
        ToolResult res = call(ctx, "auto_insights", "{\"source\":\"trans\"}");
        AutoInsights.Result r = (AutoInsights.Result) res.payload();
        assertThat(r.insights()).isNotEmpty().hasSizeLessThanOrEqualTo(AutoInsights.DEFAULT_LIMIT);
        assertThat(r.insights()).extracting(AutoInsights.Insight::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(r.insights()).allSatisfy(i -> {
            assertThat(i.evidence()).isNotBlank();
            assertThat(Set.of("profile_data", "data_quality_report", "correlation_analysis", "trend_analysis")).contains(i.tool());
            assertThat(ws.table(i.frame())).isPresent();
        });
        assertThat(r.insights()).anySatisfy(i -> assertThat(i.text()).startsWith("Monthly count of rows by date is rising"));
        assertThat(r.millis()).containsOnlyKeys("profile_data", "data_quality_report", "correlation_analysis", "trend_analysis");
        assertThat(res.summary()).startsWith("Most notable of ");
        assertThat(ctx.evidence()).hasSizeGreaterThanOrEqualTo(4);
        ToolResult none = call("auto_insights", "{\"source\":\"district\",\"limit\":3}");
        assertThat(((AutoInsights.Result) none.payload()).notes()).contains("no DATE or TIMESTAMP column, so no trends");
    }

    @Test
    void id_columns_are_not_correlated_unless_named() throws Exception {
        assertThat(call("correlation_analysis", "{\"source\":\"account\"}").error()).isEqualTo("correlation_analysis"
                + " needs at least two columns to compare, one of them numeric; account gives numeric: none; categorical:"
                + " frequency. Numeric columns of account: account_id, district_id. Id columns are left out unless named"
                + " in 'columns'.");
        assertThat(call("correlation_analysis", "{\"source\":\"account\",\"columns\":[\"account_id\",\"district_id\"]}")
                .ok()).isTrue();
    }

    @Test
    void birth_numbers_are_numbers_stored_as_text_that_are_partly_dates() throws Exception {
        DataQualityReport.Report r = (DataQualityReport.Report) call("data_quality_report", "{\"source\":\"client\"}").payload();
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.check() + " " + f.column()).isEqualTo("numbers stored as text birth_number");
            assertThat(f.detail()).matches("100% of values are numbers in a VARCHAR column; [\\d.]+% also read as YYMMDD dates");
        });
    }

    @Test
    void the_table_level_tools_run_on_every_table_of_the_bank() throws Exception {
        for (String table : List.of("account", "card", "client", "disp", "district", "loan", "order", "trans")) {
            for (String tool : List.of("profile_data", "data_quality_report", "sample_rows")) {
                ToolResult r = call(tool, "{\"source\":\"" + table + "\"}");
                assertThat(r.ok()).as(tool + " on " + table + ": " + r.error()).isTrue();
            }
        }
        assertThat(ws.table("frames.profile_order")).isPresent();
    }
}
