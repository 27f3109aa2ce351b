package dev.sift.tool.ml;

import dev.sift.ml.FeatureEncoder;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** similar_cases on the bundled bank's loan_default model: its neighbours equal a nearest-neighbour search in SQL. */
class SimilarCasesTest extends OnLoanModel {
    /** The k nearest labelled loans to {@code loan}, by SQL: each column scaled over the other labelled rows. */
    private List<List<Object>> nearestBySql(TrainedModel m, String loan, int k) throws Exception {
        List<String> stats = new ArrayList<>();
        List<String> terms = new ArrayList<>();
        for (FeatureEncoder.ColumnPlan c : m.encoder().columns()) {
            assertThat(c.kind()).isEqualTo(FeatureEncoder.Kind.NUMERIC);
            String col = "\"" + c.column() + "\"";
            stats.add("avg(CAST(" + col + " AS DOUBLE)) AS \"m_" + c.column() + "\", stddev_pop(CAST(" + col
                    + " AS DOUBLE)) AS \"s_" + c.column() + "\"");
            String z = "(CAST(%s." + col + " AS DOUBLE) - st.\"m_" + c.column() + "\") / st.\"s_" + c.column() + "\"";
            terms.add("CASE WHEN st.\"s_" + c.column() + "\" > 0 THEN pow(coalesce(" + z.formatted("c") + ", 0) - coalesce("
                    + z.formatted("lab") + ", 0), 2) ELSE 0 END");
        }
        String sql = "WITH lab AS (SELECT * FROM frames.loan_default_history WHERE defaulted IS NOT NULL AND loan_id <> "
                + loan + "), st AS (SELECT " + String.join(", ", stats) + " FROM lab),"
                + " c AS (SELECT * FROM frames.loan_default_current WHERE loan_id = " + loan + ")"
                + " SELECT CAST(lab.loan_id AS VARCHAR), sqrt(" + String.join(" + ", terms) + ") AS d,"
                + " CAST(lab.defaulted AS VARCHAR) FROM lab, st, c ORDER BY d, lab.loan_id LIMIT " + k;
        return ws.query(sql).rows();
    }

    @Test
    void a_running_loans_nearest_finished_loans_equal_a_search_in_sql_with_their_outcomes() throws Exception {
        String loan = String.valueOf(ws.query("SELECT min(loan_id) FROM frames.loan_default_current").scalar());
        ToolResult r = call("similar_cases", "{\"case_id\":\"" + loan + "\",\"k\":4}");
        assertThat(r.ok()).as(r.error()).isTrue();
        TrainedModel m = ctx.models().resolve("m1");
        List<List<Object>> expected = nearestBySql(m, loan, 4);
        List<List<Object>> got = ws.query("SELECT loan_id, distance, defaulted FROM frames.similar_cases ORDER BY rank").rows();
        assertThat(got).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(got.get(i).get(0)).isEqualTo(expected.get(i).get(0));
            assertThat((Double) got.get(i).get(1)).isCloseTo((Double) expected.get(i).get(1), within(1e-4));
            assertThat(got.get(i).get(2)).isEqualTo(expected.get(i).get(2));
        }
        long unpaid = expected.stream().filter(row -> "1".equals(row.get(2))).count();
        long labelled = ((Number) ws.query("SELECT count(*) FROM frames.loan_default_history").scalar()).longValue();
        long positives = ((Number) ws.query("SELECT count(*) FROM frames.loan_default_history WHERE defaulted = 1").scalar())
                .longValue();
        ToolResult p = call("predict", "{\"source\":\"loan_default_current\",\"label\":\"check\"}");
        assertThat(p.ok()).as(p.error()).isTrue();
        double score = ((Number) ws.query("SELECT probability FROM frames.check WHERE loan_id = " + loan).scalar()).doubleValue();
        assertThat(r.summary()).startsWith("The 4 labelled cases of loan_default_history most like loan " + loan
                + " in model m1's " + m.encoder().columns().size() + " columns (each scaled to standard deviation 1 over the "
                + labelled + " labelled rows; Euclidean distance): " + unpaid + " of 4 have defaulted = 1 ("
                + String.format(java.util.Locale.ROOT, "%.1f", 100.0 * positives / labelled) + " % of all labelled rows do)."
                + " Model m1 gives loan " + loan + " probability " + String.format(java.util.Locale.ROOT, "%.3f", score)
                + " of defaulted = 1.\n1. loan_id " + expected.get(0).get(0) + ": distance ");
    }

    @Test
    void a_finished_loan_is_not_its_own_neighbour() throws Exception {
        String loan = String.valueOf(ws.query("SELECT min(loan_id) FROM frames.loan_default_history").scalar());
        ToolResult r = call("similar_cases", "{\"case_id\":\"" + loan + "\"}");
        assertThat(r.ok()).as(r.error()).isTrue();
        assertThat(ws.query("SELECT count(*), count(*) FILTER (WHERE CAST(loan_id AS VARCHAR) = '" + loan + "')"
                + " FROM frames.similar_cases").rows()).containsExactly(List.of(5L, 0L));
    }

    @Test
    void a_bad_k_or_an_unknown_case_is_refused_with_what_to_give() throws Exception {
        assertThat(call("similar_cases", "{\"case_id\":\"1\",\"k\":0}").error())
                .contains("k is 0: give a number of similar cases from 1 to 50.");
        assertThat(call("similar_cases", "{\"case_id\":\"999999\"}").error())
                .contains("Case '999999' (loan_id) is not in loan_default_history or loan_default_current.");
        assertThatThrownBy(() -> call("similar_cases", "{}")).hasMessage("similar_cases needs argument 'case_id'"
                + " (id of the case: its value of the model's entity column). Arguments: case_id (string, required), k (integer),"
                + " source (string), model (string).");
    }
}
