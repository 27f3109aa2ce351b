package dev.sift.planner;

import dev.sift.OnBankWorkspace;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Step;
import dev.sift.ml.ModelRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Offline, questions about one case or a model's health reach similar_cases, what_if and monitor_performance through
 * the real loop and tools on the bundled bank; the answer is the reading followed by the tool's own observation.
 */
class OfflineCaseQuestionsTest extends OnBankWorkspace {
    private final ModelRegistry models = new ModelRegistry();

    private AgentRun ask(String q) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults(), models).run(q);
    }

    private static List<String> tools(AgentRun run) {
        return run.steps().stream().map(Step::tool).toList();
    }

    /** The task's description as the bundled knowledge file words it. */
    private String description() throws Exception {
        return new dev.sift.knowledge.KnowledgeStore(1).lazy(ws).get().graph().predictions().stream()
                .filter(t -> t.name().equals("loan_default")).findFirst().orElseThrow().description();
    }

    private String runningLoan() throws Exception {
        return String.valueOf(ws.query("SELECT min(loan_id) FROM loan WHERE status IN ('C', 'D')").scalar());
    }

    @Test
    void which_loans_are_most_like_a_loan_trains_the_tasks_model_then_finds_its_neighbours() throws Exception {
        String loan = runningLoan();
        AgentRun run = ask("Which loans are most like loan " + loan + "?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(tools(run)).containsExactly("prediction_frames", "train_model", "similar_cases");
        assertThat(run.steps().get(2).args().toString()).isEqualTo("{\"case_id\":\"" + loan + "\"}");
        assertThat(run.answer()).contains("I read the question as: 'most like' about loan " + loan + " → similar_cases"
                + " with the model of prediction loan_default (" + description() + ").\n" + run.steps().get(2).observation());
    }

    @Test
    void what_if_a_loan_were_24_months_changes_its_duration_and_a_change_it_cannot_read_is_asked_about() throws Exception {
        String loan = runningLoan();
        AgentRun run = ask("What if loan " + loan + " were 24 months?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(tools(run)).containsExactly("prediction_frames", "train_model", "what_if");
        assertThat(run.steps().get(2).args().toString()).isEqualTo("{\"case_id\":\"" + loan + "\",\"changes\":{\"duration\":24}}");
        assertThat(run.answer()).contains("; '24 months' → loan.duration = 24.\nWhat if loan " + loan + " had duration 24 (was ");
        AgentRun amount = ask("What if loan " + loan + " had amount 100000?");
        assertThat(amount.steps().get(2).args().toString()).isEqualTo("{\"case_id\":\"" + loan + "\",\"changes\":{\"amount\":100000}}");
        AgentRun vague = ask("What if loan " + loan + " were paid earlier?");
        assertThat(vague.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(vague.answer()).startsWith("This asks what model loan_default would say for loan " + loan + " with"
                + " something changed, but I could not tell which column of loan changes to what. Name it with its new"
                + " value, e.g. 'what if loan " + loan + " were 24 months?' or 'what if loan " + loan + " had amount 100000?'.");
    }

    @Test
    void is_the_model_still_good_monitors_the_latest_model_and_says_when_there_is_none() throws Exception {
        AgentRun none = ask("Is the default model still good?");
        assertThat(tools(none)).containsExactly("monitor_performance");
        assertThat(none.kind()).isEqualTo(AnswerKind.DECLINED);
        assertThat(none.answer()).isEqualTo("I could not answer this offline: monitor_performance failed: Error: No model has"
                + " been trained in this session yet: call train_model first.");
        ask("Which loans are most like loan " + runningLoan() + "?"); // trains m1 on every finished loan
        AgentRun run = ask("Is the default model still good?");
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.answer()).contains("I read the question as: 'still good' about a model → monitor_performance:"
                + " the model on labelled rows newer than its training data.\nModel m1 cannot be monitored yet:");
    }
}
