package dev.sift.tool.ml;

import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** what_if on the bundled bank's loan_default model: its numbers equal predict on a frame the test changes itself. */
class WhatIfTest extends OnLoanModel {
    private double predicted(String frame, String loan) throws Exception {
        ToolResult p = call("predict", "{\"source\":\"" + frame + "\",\"label\":\"check\"}");
        assertThat(p.ok()).as(p.error()).isTrue();
        return ((Number) ws.query("SELECT probability FROM frames.check WHERE loan_id = " + loan).scalar()).doubleValue();
    }

    @Test
    void changing_a_loans_duration_gives_the_models_prediction_for_the_changed_row_with_shap_before_and_after() throws Exception {
        String loan = String.valueOf(ws.query("SELECT min(loan_id) FROM frames.loan_default_history WHERE duration <> 24").scalar());
        long was = ((Number) ws.query("SELECT duration FROM frames.loan_default_history WHERE loan_id = " + loan).scalar()).longValue();
        ToolResult r = call("what_if", "{\"case_id\":\"" + loan + "\",\"changes\":{\"duration\":24}}");
        assertThat(r.ok()).as(r.error()).isTrue();

        // independently: the same row with duration 24, built by the test and scored by predict
        ws.saveFrame("changed", "SELECT * EXCLUDE (duration), 24 AS duration FROM frames.loan_default_history"
                + " WHERE loan_id = " + loan);
        double after = predicted("changed", loan);
        double before = predicted("loan_default_history", loan);
        WhatIf.Scored a = (WhatIf.Scored) ((java.util.Map<?, ?>) r.payload()).get("after");
        WhatIf.Scored b = (WhatIf.Scored) ((java.util.Map<?, ?>) r.payload()).get("before");
        assertThat(a.prediction()).isCloseTo(after, within(1e-9));
        assertThat(b.prediction()).isCloseTo(before, within(1e-9));
        // each side's SHAP values and bias sum to the model's margin, which the calibration maps to the probability
        var calibrator = ctx.models().resolve(null).calibrator();
        assertThat(calibrator.apply(a.bias() + java.util.Arrays.stream(a.shap()).sum())).isCloseTo(after, within(1e-4));
        assertThat(calibrator.apply(b.bias() + java.util.Arrays.stream(b.shap()).sum())).isCloseTo(before, within(1e-4));
        assertThat(r.summary()).startsWith("What if loan " + loan + " had duration 24 (was " + was + "), with model m1:"
                + " probability of defaulted = 1 " + String.format(java.util.Locale.ROOT, "%.3f", before) + " → "
                + String.format(java.util.Locale.ROOT, "%.3f", after) + " (")
                .contains("\nSHAP by column (log-odds, before → after):\n- duration = 24: ");
        assertThat(ws.query("SELECT value_before, value_after FROM frames.what_if WHERE column_name = 'duration'").rows())
                .containsExactly(List.of(String.valueOf(was), "24"));
    }

    @Test
    void a_new_case_given_as_values_is_scored_and_unknown_columns_are_refused() throws Exception {
        ToolResult r = call("what_if", "{\"values\":{\"amount\":100000,\"duration\":24}}");
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(r.summary()).startsWith("A new case scored with model m1: probability of defaulted = 1 ")
                .contains(" Missing (the model treats them as unknown): payments, ");
        ToolResult bad = call("what_if", "{\"values\":{\"colour\":1}}");
        assertThat(bad.error()).contains("'colour' is not a column of model m1: its columns are amount, duration, payments,");
        ToolResult neither = call("what_if", "{}");
        assertThat(neither.error()).contains("Give case_id (an existing case, with changes) or values (a new case), not neither.");
        ToolResult missing = call("what_if", "{\"case_id\":\"999999\",\"changes\":{\"duration\":24}}");
        assertThat(missing.error()).contains("Case '999999' (loan_id) is not in loan_default_history or loan_default_current.");
    }
}
