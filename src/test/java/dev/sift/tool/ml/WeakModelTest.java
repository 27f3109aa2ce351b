package dev.sift.tool.ml;

import dev.sift.OnBankWorkspace;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model no better than chance, through the real loop: train_model and predict warn, explain_prediction labels
 * its drivers unreliable, and the final answer carries the warning even when the planner's answer leaves it out.
 */
class WeakModelTest extends OnBankWorkspace {
    /** 400 rows whose target is a hash unrelated to the features: any model of it is a coin toss. */
    static final String NOISE = "SELECT i AS case_id, (i % 97) / 97.0 AS f1, ((i * 37) % 101) / 101.0 AS f2,"
            + " CASE WHEN hash(i * 7919) % 2 = 0 THEN 1 ELSE 0 END AS y FROM range(400) t(i)";
    private AgentRun run(String finalAnswer) throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                PredictiveFlowTest.call("run_sql", "{\"sql\":\"" + NOISE + "\",\"label\":\"noise\"}"),
                PredictiveFlowTest.call("train_model", "{\"source\":\"noise\",\"target\":\"y\",\"entity\":\"case_id\"}"),
                PredictiveFlowTest.call("predict", "{\"source\":\"noise\",\"top_k\":5}"),
                PredictiveFlowTest.call("explain_prediction", "{\"top_k\":3}"),
                "{\"thought\":\"done\",\"final_answer\":\"" + finalAnswer + "\"}");
        return new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, AgentConfig.defaults())
                .run("Which cases are likely to have y and why?");
    }

    @Test
    void a_weak_model_is_flagged_in_every_observation_and_the_answer_carries_the_warning() throws Exception {
        AgentRun run = run("Cases 12, 40 and 7 are most likely; high f1 raises the risk.");
        assertThat(run.steps()).extracting(Step::tool).containsExactly("run_sql", "train_model", "predict",
                "explain_prediction");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
        String train = run.steps().get(1).observation();
        assertThat(train).containsPattern("\nWarning: model m1 is weak \\(cross-validated AUC 0\\.\\d{3} ± 0\\.\\d{3} over 5 folds[^)]* ≤ 0\\.6, (no|barely)"
                + " better than chance[^)]*\\): its predictions and drivers are unreliable and must not be presented as"
                + " meaningful\\. Say so in the answer").contains("\nNext: predict(");
        assertThat(run.steps().get(2).observation()).contains("\nWarning: model m1 is weak (");
        assertThat(run.steps().get(3).observation()).startsWith("UNRELIABLE explanation: Warning: model m1 is weak (")
                .contains("The drivers below may be noise.\nExplained 3 cases of model m1");
        String warning = train.lines().filter(l -> l.startsWith("Warning: ")).findFirst().orElseThrow();
        String stated = warning.substring(0, warning.indexOf(" Say so"));
        assertThat(run.answer()).isEqualTo(stated + "\n\nCases 12, 40 and 7 are most likely; high f1 raises the risk.");
        assertThat(run.notes()).contains(stated,
                "The answer did not say that its model is weak; Sift put the warning in front of it.");
    }

    @Test
    void an_answer_that_states_the_weakness_itself_is_kept_as_written() throws Exception {
        String answer = "The model is no better than chance, so I cannot say which cases are likely.";
        AgentRun run = run(answer);
        assertThat(run.answer()).isEqualTo(answer);
        assertThat(run.notes()).anySatisfy(n -> assertThat(n).startsWith("Warning: model m1 is weak ("))
                .noneSatisfy(n -> assertThat(n).contains("put the warning in front"));
    }
}
