package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * monitor_performance on the demo bank: a loan_default model trained on the loans granted before 1996 is measured on
 * the finished loans granted after, per year; each figure equals one the test computes in SQL from predict's scores.
 */
class MonitorPerformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ToolRegistry tools = Sift.defaultTools();
    private Workspace ws;
    private ToolContext ctx;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.fullBank(), Workspace.Limits.defaults());
        ctx = new ToolContext(ws, null, "q");
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolResult call(String tool, String args) throws Exception {
        return tools.run(tools.prepare(tool, JSON.readTree(args), ws), ctx);
    }

    private void trainBefore1996() throws Exception {
        assertThat(call("prediction_frames", "{\"task\":\"loan_default\",\"history_filter\":\"loan.date < DATE '1996-01-01'\"}")
                .ok()).isTrue();
        ToolResult t = call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\",\"entity\":\"loan_id\"}");
        assertThat(t.ok()).as(t.error()).isTrue();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    @Test
    void a_model_of_older_loans_is_measured_per_year_on_newer_ones_with_drift_and_a_verdict() throws Exception {
        trainBefore1996();
        String through = String.valueOf(ws.query("SELECT max(date) FROM loan WHERE status IN ('A', 'B')"
                + " AND date < DATE '1996-01-01'").scalar());
        ToolResult r = call("monitor_performance", "{}");
        assertThat(r.ok()).as(r.error()).isTrue();

        // independently: predict's scores on every finished loan, and the figures in SQL per year of the loan's date
        assertThat(call("prediction_frames", "{\"task\":\"loan_default\"}").ok()).isTrue();
        assertThat(call("predict", "{\"model\":\"m1\",\"source\":\"loan_default_history\",\"label\":\"check\"}").ok()).isTrue();
        String scored = "WITH s AS (SELECT c.probability AS p, CAST(c.defaulted AS INTEGER) AS y, CAST(year(l.date) AS VARCHAR)"
                + " AS yr FROM frames.check c JOIN loan l USING (loan_id) WHERE l.date > DATE '" + through + "'), ";
        List<List<Object>> expected = ws.query(scored + "pairs AS (SELECT a.yr, avg(CASE WHEN a.p > b.p THEN 1.0 WHEN a.p = b.p"
                + " THEN 0.5 ELSE 0.0 END) AS auc FROM s a JOIN s b ON a.yr = b.yr AND a.y = 1 AND b.y = 0 GROUP BY a.yr)"
                + " SELECT s.yr, count(*), sum(s.y), any_value(pairs.auc), avg(pow(s.p - s.y, 2)), avg(s.p), avg(s.y)"
                + " FROM s LEFT JOIN pairs USING (yr) GROUP BY s.yr ORDER BY s.yr").rows();
        List<List<Object>> got = ws.query("SELECT period, rows, positives, auc, brier, mean_probability, positive_rate"
                + " FROM frames.monitor_performance ORDER BY period").rows();
        assertThat(got).extracting(row -> row.get(0)).containsExactly(expected.stream().map(row -> row.get(0)).toArray());
        assertThat(got).extracting(row -> row.get(0)).containsExactly("1996", "1997");
        for (int i = 0; i < got.size(); i++) {
            assertThat(((Number) got.get(i).get(1)).longValue()).isEqualTo(((Number) expected.get(i).get(1)).longValue());
            assertThat(((Number) got.get(i).get(2)).longValue()).isEqualTo(((Number) expected.get(i).get(2)).longValue());
            for (int j = 3; j < 7; j++) {
                assertThat(((Number) got.get(i).get(j)).doubleValue())
                        .isCloseTo(((Number) expected.get(i).get(j)).doubleValue(), within(1e-9));
            }
        }

        // the verdict: all newer loans' AUC against the cross-validated one, with Hanley–McNeil's standard error
        List<Object> all = ws.query(scored + "pairs AS (SELECT avg(CASE WHEN a.p > b.p THEN 1.0 WHEN a.p = b.p THEN 0.5"
                + " ELSE 0.0 END) AS auc FROM s a JOIN s b ON a.y = 1 AND b.y = 0) SELECT (SELECT auc FROM pairs), count(*),"
                + " sum(y) FROM s").rows().get(0);
        double auc = ((Number) all.get(0)).doubleValue();
        long n = ((Number) all.get(1)).longValue();
        long pos = ((Number) all.get(2)).longValue();
        long neg = n - pos;
        double q1 = auc / (2 - auc);
        double q2 = 2 * auc * auc / (1 + auc);
        double se = Math.sqrt((auc * (1 - auc) + (pos - 1) * (q1 - auc * auc) + (neg - 1) * (q2 - auc * auc)) / (pos * neg));
        TrainedModel m = ctx.models().resolve("m1");
        double cv = m.provenance().evaluation().mean("auc");
        boolean degrading = auc + 2 * se < cv;
        assertThat(r.summary()).startsWith("Model m1 (defaulted, trained on rows through " + through + "): "
                + (degrading ? "DEGRADING" : "HOLDING") + ".\n- AUC " + f(auc) + " on the " + n + " newer rows (" + pos
                + " positives; standard error " + f(se) + ") against " + f(cv) + " cross-validated at training: "
                + (degrading ? "lower by more than" : "within") + " twice its standard error.\n- ");
        assertThat(((Map<?, ?>) r.payload()).get("verdict")).isEqualTo(degrading ? "degrading" : "holding");

        // the drift evidence is check_drift's on the training loans and the newer ones, over the model's columns
        ws.saveFrame("ref", "SELECT h.* FROM frames.loan_default_history h JOIN loan l USING (loan_id)"
                + " WHERE l.date <= DATE '" + through + "'");
        ws.saveFrame("cur", "SELECT h.* FROM frames.loan_default_history h JOIN loan l USING (loan_id)"
                + " WHERE l.date > DATE '" + through + "'");
        ToolResult drift = call("check_drift", "{\"reference\":\"ref\",\"current\":\"cur\",\"columns\":"
                + JSON.writeValueAsString(m.encoder().columnNames()) + "}");
        long flagged = ((Number) drift.meta().get("flagged")).longValue();
        assertThat(r.summary()).contains("\n- " + flagged + " of " + m.encoder().columns().size() + " inputs drifted from"
                + " the training rows to the newer ones (PSI ≥ 0.2, or KS p < 0.01 with D ≥ 0.1)");
    }

    @Test
    void a_model_trained_on_every_labelled_row_has_nothing_newer_to_be_measured_on() throws Exception {
        assertThat(call("prediction_frames", "{\"task\":\"loan_default\"}").ok()).isTrue();
        assertThat(call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\"}").ok()).isTrue();
        String through = String.valueOf(ws.query("SELECT max(date) FROM loan WHERE status IN ('A', 'B')").scalar());
        ToolResult r = call("monitor_performance", "{}");
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(r.summary()).startsWith("Model m1 cannot be monitored yet: loan_default_labelled has no labelled row"
                + " dated after " + through + ", the day its training rows end, so every labelled row is one it learnt"
                + " from. Its quality is what training measured: AUC ");
    }

    @Test
    void bad_periods_days_and_undated_models_are_refused_with_what_to_give() throws Exception {
        trainBefore1996();
        assertThat(call("monitor_performance", "{\"period\":\"week\"}").error())
                .contains("period 'week' is not one of month, quarter, year.");
        assertThat(call("monitor_performance", "{\"after\":\"last spring\"}").error())
                .contains("after 'last spring' is not a day: write it as YYYY-MM-DD, e.g. 1997-01-01.");
        ws.saveFrame("plain", "SELECT * FROM frames.loan_default_history");
        assertThat(call("train_model", "{\"source\":\"plain\",\"target\":\"defaulted\"}").ok()).isTrue();
        assertThat(call("monitor_performance", "{\"model\":\"m2\"}").error()).contains("Model m2's training rows (plain)"
                + " carry no date, so rows newer than them cannot be told apart: give after (YYYY-MM-DD, the day the"
                + " training rows end), and source and date_column for labelled rows with a date.");
        assertThat(call("monitor_performance", "{\"model\":\"m2\",\"after\":\"1996-01-01\"}").error())
                .contains("plain has no date column to date its rows by. It has no DATE column: give source, a table or"
                        + " frame of labelled rows with the model's columns and a date column, and date_column.");
    }
}
