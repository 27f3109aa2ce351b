package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The point-in-time rule of prediction tasks, on the bundled bank. */
class PointInTimeTest {
    private static Workspace ws;
    private static KnowledgeGraph auto;

    static final String TASK = """
            predictions:
              - name: %s
                triggers: [default]
                entity: loan.loan_id
                label: {name: defaulted, expression: "CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END"}
                history: {filter: "loan.status IN ('A', 'B')", description: finished loans}
                current: {filter: "loan.status IN ('C', 'D')", description: running loans, phrases: [running]}
                %s
                features: >-
                  SELECT loan.loan_id, loan.amount, b.min_balance FROM loan LEFT JOIN (SELECT loan.loan_id,
                  min(t.balance) AS min_balance FROM loan JOIN trans AS t ON t.account_id = loan.account_id%s
                  GROUP BY loan.loan_id) AS b ON b.loan_id = loan.loan_id
            """;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        auto = KgBuilder.build(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    static CuratedKg task(String name, String asOf, String cutOff) {
        return KgLoader.parse(TASK.formatted(name, asOf, cutOff), "kg/test.kg.yaml");
    }

    @Test
    void a_task_reading_a_time_stamped_table_without_its_cut_off_is_refused_naming_table_feature_and_fix() {
        assertThatThrownBy(() -> KgLoader.overlay(auto, task("all_time_minimum", "as_of: loan.date", ""), ws))
                .isInstanceOf(KgException.class)
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly("kg/test.kg.yaml:"
                        + " predictions[all_time_minimum]: features read the time-stamped table trans (dated by date)"
                        + " but it has no cut-off at the task's moment loan.date: add t.date < loan.date to the condition"
                        + " that reads trans (its JOIN ... ON or WHERE), so the feature min_balance may use rows from"
                        + " after the prediction is made"));
    }

    @Test
    void a_task_without_a_moment_or_with_an_inclusive_cut_off_is_refused() {
        assertThatThrownBy(() -> KgLoader.overlay(auto, task("no_moment", "", ""), ws))
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly("kg/test.kg.yaml:"
                        + " predictions[no_moment]: features read the time-stamped table trans (dated by date) but the"
                        + " task names no moment: add as_of (the entity's date, e.g. as_of: loan.date) and cut trans off"
                        + " before it with t.date < loan.date, so the feature min_balance may use rows from after the"
                        + " prediction is made"));
        assertThatThrownBy(() -> KgLoader.overlay(auto, task("same_day", "as_of: loan.date", " AND t.date <= loan.date"), ws))
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly("kg/test.kg.yaml:"
                        + " predictions[same_day]: features read the time-stamped table trans (dated by date) but its"
                        + " cut-off includes the moment itself (t.date <= loan.date): rows of that day may be the outcome;"
                        + " use t.date < loan.date, so the feature min_balance may use rows from after the prediction is"
                        + " made"));
        assertThatThrownBy(() -> KgLoader.overlay(auto, task("bad_moment", "as_of: loan.amount", " AND t.date < loan.date"), ws))
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly("kg/test.kg.yaml:"
                        + " predictions[bad_moment]: as_of 'loan.amount' must be a DATE or TIMESTAMP column of loan (it is"
                        + " INTEGER)"));
    }

    @Test
    void the_same_task_cut_off_strictly_before_the_loan_loads() throws Exception {
        KnowledgeGraph kg = KgLoader.overlay(auto, task("before_loan", "as_of: loan.date", " AND t.date < loan.date"), ws);
        assertThat(kg.predictions()).extracting(PredictionTask::name).contains("before_loan");
    }

    @Test
    void reads_and_gaps_follow_aliases_and_either_direction_of_the_comparison() {
        assertThat(PointInTime.reads("SELECT 1 FROM loan l JOIN trans AS t ON x WHERE 'FROM card' = ''"))
                .containsExactly(new PointInTime.Read("loan", "l"), new PointInTime.Read("trans", "t"));
        PredictionTask reversed = new PredictionTask("t", null, List.of("x"), "loan.loan_id", "y", "1", null, null,
                "SELECT l.loan_id FROM loan l JOIN trans t ON t.account_id = l.account_id AND l.date > t.date", "loan.date");
        assertThat(PointInTime.gaps(reversed, Map.of("trans", List.of("date"), "loan", List.of("date")))).isEmpty();
        PredictionTask dimension = new PredictionTask("t", null, List.of("x"), "loan.loan_id", "y", "1", null, null,
                "SELECT loan.loan_id, district.A11 FROM loan JOIN district ON district.A1 = loan.account_id", null);
        assertThat(PointInTime.gaps(dimension, Map.of("loan", List.of("date")))).isEmpty(); // no dated table but the entity's
    }

    /** The curated features, recomputed by independent SQL (window functions over all transactions) for every loan. */
    @Test
    void the_curated_point_in_time_features_equal_an_independent_computation() throws Exception {
        PredictionTask t = Knowledge.load(ws).graph().predictions().get(0);
        assertThat(t.asOf()).isEqualTo("loan.date");
        String independent = """
                WITH x AS (
                  SELECT l.loan_id, tr.balance, tr.amount, tr.type, tr.date,
                         row_number() OVER (PARTITION BY l.loan_id ORDER BY tr.date DESC, tr.trans_id DESC) AS recency
                  FROM loan l, trans tr
                  WHERE tr.account_id = l.account_id AND tr.date BETWEEN l.date - INTERVAL 6 MONTH AND l.date - INTERVAL 1 DAY)
                SELECT loan_id, max(balance) FILTER (WHERE recency = 1) AS balance_before, min(balance) AS min_balance_6m,
                       sum(amount) FILTER (WHERE type = 'PRIJEM') AS inflow_6m, count(*) AS n
                FROM x GROUP BY loan_id""";
        String compare = "SELECT count(*), count(*) FILTER (WHERE f.balance_before IS DISTINCT FROM i.balance_before"
                + " OR f.min_balance_6m IS DISTINCT FROM i.min_balance_6m OR abs(coalesce(f.inflow_6m, 0)"
                + " - coalesce(i.inflow_6m, 0)) > 0.005 OR f.n_trans_6m <> coalesce(i.n, 0)),"
                + " count(*) FILTER (WHERE i.loan_id IS NOT NULL) FROM (" + t.features() + ") f LEFT JOIN ("
                + independent + ") i ON i.loan_id = f.loan_id";
        List<Object> r = ws.query(compare).rows().get(0);
        assertThat(r.get(0)).isEqualTo(ws.query("SELECT count(*) FROM loan").scalar());
        assertThat(r.get(1)).as("loans whose features differ").isEqualTo(0L);
        assertThat(((Number) r.get(2)).longValue()).as("loans with transactions before them")
                .isGreaterThan(((Number) r.get(0)).longValue() / 2);
        // deleting every transaction on or after the account's loan date changes no feature of any loan
        String before = "WITH trans AS (SELECT trans.* FROM trans JOIN loan ON loan.account_id = trans.account_id"
                + " WHERE trans.date < loan.date) ";
        String cols = "amount, duration, payments, account_age_days, balance_before, avg_balance_3m, avg_balance_6m,"
                + " min_balance_3m, min_balance_6m, balance_trend_3m, inflow_6m, outflow_6m, cash_withdrawals_6m,"
                + " n_trans_6m, payment_to_inflow, avg_salary, unemployment_1996, entrepreneurs_per_1000";
        cols = java.util.Arrays.stream(cols.split(",\\s*")).map(c -> "round(" + c + ", 4)") // sums in another order
                .collect(java.util.stream.Collectors.joining(", "));
        assertThat(ws.query("SELECT count(*) FROM (SELECT loan_id, " + cols + " FROM (" + t.features() + ") EXCEPT"
                + " SELECT loan_id, " + cols + " FROM (" + before + t.features() + "))").scalar()).isEqualTo(0L);
        assertThat(ws.query("SELECT count(*) FROM loan WHERE (SELECT count(*) FROM loan l2 WHERE l2.account_id ="
                + " loan.account_id) > 1").scalar()).as("one loan per account, so the cut above is per loan").isEqualTo(0L);
    }
}
