package dev.sift.planner;

import dev.sift.OnBankWorkspace;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Step;
import dev.sift.data.QueryResult;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.PredictionTask;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;
import dev.sift.tool.data.InspectData;
import dev.sift.tool.data.SampleValues;
import dev.sift.tool.ml.ExplainPrediction;
import dev.sift.tool.sql.RunSql;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The offline planner runs the ML flow for a prediction the knowledge graph names (loan_default on the bank). */
class PredictivePlanTest extends OnBankWorkspace {
    /** One store for the class: the dataset's knowledge is built once, as the application does. */
    private static final KnowledgeStore KNOWLEDGE = new KnowledgeStore();
    private AgentRun ask(ToolRegistry tools, String q) throws Exception {
        return new AgentLoop(new RulePlanner(), tools, ws, null, AgentConfig.defaults()).knowledge(KNOWLEDGE).run(q);
    }

    @Test
    void running_loans_likely_to_default_run_the_ml_flow_and_the_answer_cites_its_results() throws Exception {
        AgentRun run = ask(Sift.defaultTools(), "Which running loans are likely to default? Top 5 and why");
        PredictionTask task = Knowledge.load(ws).graph().predictions().get(0);

        assertThat(run.steps()).extracting(Step::tool).containsExactly("prediction_frames", "train_model", "predict",
                "explain_prediction");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
        assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.status()).isEqualTo(AgentRun.Status.RULE_BASED);
        assertThat(run.steps().get(0).args().toString()).isEqualTo("{\"task\":\"" + task.name() + "\"}");
        assertThat(run.steps().get(0).observation()).contains("\nSaved as frame frames.loan_default_history: ")
                .contains("\nSaved as frame frames.loan_default_current: ");
        assertThat(run.steps().get(1).args().toString()).isEqualTo("{\"source\":\"loan_default_history\",\"target\":"
                + "\"defaulted\",\"task_type\":\"classification\",\"entity\":\"loan_id\"}");
        assertThat(run.steps().get(3).args().get("top_k").asInt()).isEqualTo(5);

        // Frames: history of finished loans with the label, current = running loans, one prediction per running loan.
        assertThat(ws.query("SELECT count(*) FROM frames.loan_default_history").scalar())
                .isEqualTo(ws.query("SELECT count(*) FROM loan WHERE status IN ('A', 'B')").scalar());
        assertThat(ws.query("SELECT count(*) FROM frames.predictions p JOIN loan l ON l.loan_id = p.loan_id"
                + " WHERE l.status IN ('C', 'D')").scalar())
                .isEqualTo(ws.query("SELECT count(*) FROM loan WHERE status IN ('C', 'D')").scalar())
                .isEqualTo(ws.query("SELECT count(*) FROM frames.predictions").scalar());
        assertThat(run.evidence()).extracting(e -> e.frame()).contains("loan_default_history", "loan_default_current",
                "predictions", "explanations");

        String answer = run.answer();
        assertThat(answer).startsWith("I read the question as: 'default' → the knowledge graph's prediction loan_default"
                + " (probability that a running loan ends unpaid (status B), learnt from finished loans; unlike the"
                + " default_rate metric and the defaulted_loan concept (status B or D), a running loan in debt (D) is not a"
                + " default here, since it has not ended); 'loans' → table"
                + " loan; 'running' → running loans (C OK so far, D in debt): loan.status IN ('C', 'D'); the 5 highest"
                + " probabilities are listed ('top 5').");
        // On the small test bank the calibrated probabilities do not beat the base rate: the answer says so and lists a
        // ranking, with no probabilities (on the full demo bank they do: DemoBankSignalTest).
        String calibration = run.steps().get(1).observation().lines().filter(l -> l.startsWith("Calibration: Brier "))
                .findFirst().orElseThrow();
        assertThat(calibration).contains("(probabilities do NOT beat the base rate: read the scores as a ranking of risk,"
                + " not as probabilities)");
        assertThat(answer).contains("\nTop 5 by predicted risk of defaulted = 1 (a ranking: the model's probabilities do"
                + " not beat the base rate, so none is given):\n1. loan ")
                .contains("\nCalibration — " + calibration.substring("Calibration: ".length()))
                .contains("\nReliability (out-of-fold, by predicted probability): ")
                .contains("\nModel capacity — max_depth ");
        // The listed ids are the top of frames.predictions, in order.
        QueryResult top = ws.query("SELECT loan_id, probability FROM frames.predictions ORDER BY probability DESC, loan_id"
                + " LIMIT 5");
        List<String> lines = answer.lines().filter(l -> l.matches("\\d+\\. loan .*")).toList();
        assertThat(lines).hasSize(top.rows().size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).matches(java.util.regex.Pattern.quote((i + 1) + ". loan " + top.rows().get(i).get(0))
                    + "( — .*)?").doesNotContain("probability");
        }
        // Drivers, metrics and the caveat come from the tools' observations.
        String overall = run.steps().get(3).observation().lines().filter(l -> l.startsWith("Overall importance"))
                .findFirst().orElseThrow();
        String metrics = run.steps().get(1).observation().lines().filter(l -> l.startsWith("Quality: AUC "))
                .findFirst().orElseThrow();
        assertThat(answer).contains("\nMain drivers overall — o" + overall.substring(1))
                .contains("\nModel quality — cross-validated " + metrics.substring("Quality: ".length()))
                .contains("\nPoint in time: features use only rows dated strictly before loan.date (the moment the prediction is"
                        + " made), so no feature sees what happened after it.")
                .doesNotContain("near the median").doesNotContain("not as calibrated forecasts");
    }

    @Test
    void a_failing_step_ends_in_a_decline_that_says_what_failed() throws Exception {
        Tool<ExplainPrediction.Args> broken = new Tool<>() {
            public ToolSpec spec() {
                return new ExplainPrediction().spec();
            }

            public ToolResult run(ExplainPrediction.Args args, ToolContext ctx) throws ToolCallException {
                throw new ToolCallException("SHAP values could not be computed.");
            }
        };
        List<Tool<?>> tools = new ArrayList<>(Sift.defaultTools().tools().stream()
                .filter(t -> !t.spec().name().equals("explain_prediction")).toList());
        tools.add(broken);
        AgentRun run = ask(new ToolRegistry(tools), "Which running loans are likely to default?");
        assertThat(run.steps()).extracting(Step::tool).containsExactly("prediction_frames", "train_model", "predict",
                "explain_prediction");
        assertThat(run.kind()).isEqualTo(AnswerKind.DECLINED);
        assertThat(run.answer()).startsWith("I could not answer this prediction (loan_default) offline: explaining the"
                + " predictions failed: ").contains("SHAP values could not be computed.");
    }

    @Test
    void without_the_ml_tools_or_a_matching_prediction_it_keeps_the_clarification() throws Exception {
        AgentRun noMl = ask(new ToolRegistry(List.of(new InspectData(), new SampleValues(), new RunSql())),
                "Which running loans are likely to default?");
        assertThat(noMl.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(noMl.steps()).isEmpty();
        assertThat(noMl.answer()).startsWith("This asks for a prediction. The knowledge graph names the target: loan"
                + " default (").contains("Offline, that needs the tools train_model, predict, which are not available here");

        AgentRun other = ask(Sift.defaultTools(), "Which accounts without a loan are likely to take one?");
        assertThat(other.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(other.steps()).isEmpty();
        assertThat(other.answer()).startsWith("This asks for a prediction.").contains("The offline planner does not yet"
                + " plan train_model / predict steps on its own");
    }

    @Test
    void a_narrower_population_than_the_task_scores_is_clarified_not_answered() throws Exception {
        AgentRun run = ask(Sift.defaultTools(), "Which running loans of accounts in Prague are likely to default?");
        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.steps()).isEmpty();
        assertThat(run.answer()).startsWith("This asks for the prediction loan_default of the knowledge graph, which scores"
                + " running loans (C OK so far, D in debt) with a model learnt from finished loans (A paid, B not paid;"
                + " defaulted = status B). I could not fit 'account', 'prague' into it");
        AgentRun longer = ask(Sift.defaultTools(), "Which running loans with a duration of 60 months will probably not be"
                + " repaid?");
        assertThat(longer.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(longer.steps()).isEmpty();
        assertThat(longer.answer()).contains("I could not fit 'duration', '60', 'month' into it");
    }

    @Test
    void natural_phrasings_of_the_task_run_the_ml_flow() throws Exception {
        for (String q : List.of("For loans currently being repaid, which are likely to default? Show me the top 10"
                        + " highest-risk loans and tell me why.",
                "Of the loans that are still open, which ones will probably default?",
                "Which active loans look most likely to go bad? Explain.")) {
            AgentRun run = ask(Sift.defaultTools(), q);
            assertThat(run.steps()).as(q + ": " + run.answer()).extracting(Step::tool).containsExactly("prediction_frames",
                    "train_model", "predict", "explain_prediction");
            assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
        }
        AgentRun north = ask(Sift.defaultTools(), "For loans currently being repaid, which are likely to default? Show me"
                + " the top 10 highest-risk loans and tell me why.");
        assertThat(north.steps().get(3).args().get("top_k").asInt()).isEqualTo(10);
        assertThat(north.answer()).contains("'currently being repaid' → running loans (C OK so far, D in debt)");
    }

    @Test
    void why_questions_about_the_task_get_its_explanation() throws Exception {
        for (String q : List.of("Why do loans default?", "Which factors predict default?")) {
            AgentRun run = ask(Sift.defaultTools(), q);
            assertThat(run.steps()).as(q + ": " + run.answer()).extracting(Step::tool).containsExactly("prediction_frames",
                    "train_model", "predict", "explain_prediction");
            assertThat(run.answer()).contains("the question asks why: the task explains its model on the only set it"
                    + " scores, running loans (C OK so far, D in debt)").contains("\nMain drivers overall — ");
        }
    }
}
