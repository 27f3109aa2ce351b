package dev.sift.tool.ml;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.knowledge.CuratedKg;
import dev.sift.knowledge.KgBuilder;
import dev.sift.knowledge.KgException;
import dev.sift.knowledge.KgLoader;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An all-time minimum balance, which includes the months after a loan went bad, on the bundled demo bank (full
 * scale): as a prediction task it is refused by the point-in-time check; as a frame a model writes itself, the
 * model trains and its observation and the answer's notes carry the leakage warning.
 */
class LeakyFeatureTest {
    static final String LEAKY = "SELECT loan.loan_id, loan.amount, b.min_balance FROM loan LEFT JOIN (SELECT"
            + " loan.loan_id, min(t.balance) AS min_balance FROM loan JOIN trans AS t ON t.account_id = loan.account_id"
            + " GROUP BY loan.loan_id) AS b ON b.loan_id = loan.loan_id";
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.fullBank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    @Test
    void an_all_time_minimum_is_refused_by_kg_check_and_warned_about_on_a_model_written_frame() throws Exception {
        CuratedKg task = KgLoader.parse("""
                predictions:
                  - name: leaky_default
                    triggers: [default]
                    entity: loan.loan_id
                    as_of: loan.date
                    label: {name: defaulted, expression: "CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END"}
                    history: {filter: "loan.status IN ('A', 'B')", description: finished loans}
                    current: {filter: "loan.status IN ('C', 'D')", description: running loans, phrases: [running]}
                    features: "%s"
                """.formatted(LEAKY), "kg/leaky.kg.yaml");
        assertThatThrownBy(() -> KgLoader.overlay(KgBuilder.build(ws), task, ws))
                .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly("kg/leaky.kg.yaml:"
                        + " predictions[leaky_default]: features read the time-stamped table trans (dated by date) but it"
                        + " has no cut-off at the task's moment loan.date: add t.date < loan.date to the condition that"
                        + " reads trans (its JOIN ... ON or WHERE), so the feature min_balance may use rows from after the"
                        + " prediction is made"));

        String frame = "SELECT f.*, CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END AS defaulted FROM (" + LEAKY + ") f"
                + " JOIN loan USING (loan_id) WHERE loan.status IN ('A', 'B')";
        String answer = "Loans whose account went deeply negative default most.";
        ScriptedLlm llm = new ScriptedLlm(
                PredictiveFlowTest.call("run_sql", "{\"sql\":\"" + frame.replace("\"", "\\\"") + "\",\"label\":\"leaky\"}"),
                PredictiveFlowTest.call("train_model", "{\"source\":\"leaky\",\"target\":\"defaulted\",\"entity\":\"loan_id\"}"),
                "{\"thought\":\"done\",\"final_answer\":\"" + answer + "\"}");
        AgentRun run = new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, AgentConfig.defaults())
                .run("Which loans are likely to default?");
        String trained = run.steps().get(1).observation();
        String warning = trained.lines().filter(l -> l.contains(" alone separates the classes")).findFirst().orElseThrow();
        assertThat(warning).matches("Leakage warning: feature 'min_balance' alone separates the classes \\(AUC 0\\.(8[5-9]|9\\d)\\d"
                + " over the test folds\\): check that it is known before the moment the prediction is made \\(not"
                + " computed from rows after it, such as an all-time minimum that includes the months after the"
                + " outcome\\); if not, rebuild the frame with rows strictly before that moment\\.");
        // the model that adds nothing over that one feature is also flagged weak; both reach the notes and the answer
        assertThat(trained).contains("\nWarning: model m1 is weak (cross-validated AUC ");
        assertThat(run.notes()).anySatisfy(n -> assertThat(n).contains(warning));
        assertThat(run.answer()).contains(warning).endsWith("\n\n" + answer);

        // the frame's SQL reads trans with no cut-off at each loan's date: min_balance (not amount) is named
        String dated = "Leakage warning: feature 'min_balance' of leaky reads rows of trans (dated by date) with no"
                + " cut-off before loan.date, the moment each loan is predicted, so it may include rows from after it"
                + " (an all-time aggregate includes the outcome's aftermath). Check the frame's SQL: keep only rows dated"
                + " before that moment (add t.date < loan.date where it reads trans) and train again.";
        assertThat(trained).contains("\n" + dated);
        assertThat(run.notes()).anySatisfy(n -> assertThat(n).contains(dated));
    }

    @Test
    void a_frame_cut_off_before_each_loans_date_draws_no_date_warning() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                PredictiveFlowTest.call("prediction_frames", "{\"task\":\"loan_default\"}"),
                PredictiveFlowTest.call("run_sql", "{\"sql\":\"SELECT * FROM frames.loan_default_history\",\"label\":\"copy\"}"),
                PredictiveFlowTest.call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\",\"entity\":\"loan_id\"}"),
                "{\"thought\":\"done\",\"final_answer\":\"ok\"}");
        AgentRun run = new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, AgentConfig.defaults())
                .run("Which loans are likely to default?");
        assertThat(run.steps().get(2).ok()).as(run.steps().get(2).observation()).isTrue();
        assertThat(run.steps().get(2).observation()).doesNotContain("Leakage warning");
    }
}
