package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stand-in model that answers without calling any tool: its numbers stay unsupported after the repair turn, so
 * the answer leads with a plain warning wherever it is shown (the CLI, {@code ask --json}'s {@code answer}, the app
 * and the report all print {@link AgentRun#answer}); an answer of any length is cut at a stated point.
 */
class UnsupportedAnswerTest {
    private Workspace ws;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private AgentRun run(ScriptedLlm llm, String question) throws Exception {
        return new AgentLoop(new LlmPlanner(llm), Sift.defaultTools(), ws, llm, AgentConfig.defaults()).run(question);
    }

    private static String answer(String text) {
        return "{\"thought\":\"done\",\"final_answer\":\"" + text + "\"}";
    }

    @Test
    void an_answer_whose_numbers_stay_unsupported_leads_with_a_plain_warning() throws Exception {
        String bare = answer("There are exactly 4,812 loans.");
        AgentRun run = run(new ScriptedLlm(bare, bare), "How many loans are there?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.UNGROUNDED);
        String warning = "Warning: no query result supports 4,812, even after a repair turn: this answer is not"
                + " checked against the data; do not rely on its numbers.";
        assertThat(run.answer()).isEqualTo(warning + "\n\nThere are exactly 4,812 loans.");
        JsonNode json = RunJson.of(run, null);
        assertThat(json.get("answer").asText()).startsWith(warning);
        assertThat(json.get("warning").asText()).isEqualTo(warning);
        assertThat(json.get("status").asText()).isEqualTo("ungrounded");
    }

    @Test
    void a_grounded_answer_carries_no_warning() throws Exception {
        String count = "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM loan\"}}";
        long loans = TestDatasets.bank().rows("loan");
        AgentRun run = run(new ScriptedLlm(count, answer("There are " + loans + " loans.")), "How many loans are there?");

        assertThat(run.answer()).isEqualTo("There are " + loans + " loans.");
        assertThat(RunJson.of(run, null).get("warning").isNull()).isTrue();
    }

    @Test
    void a_200000_character_answer_is_cut_with_a_stated_cut() throws Exception {
        String huge = answer("Loans. " + "word ".repeat(40_000).trim());
        AgentRun run = run(new ScriptedLlm(huge, huge), "Describe the loans.");

        assertThat(run.answer().length()).isLessThan(FinalAnswers.MAX_ANSWER_CHARS + 200);
        assertThat(run.answer()).startsWith("Loans. word word")
                .endsWith("… (answer cut at 20,000 of 200,006 characters)");
    }
}
