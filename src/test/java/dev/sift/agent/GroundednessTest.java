package dev.sift.agent;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.ScriptedLlm;
import dev.sift.planner.LlmPlanner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Scripted models that cite, invent, repair and quote; the real loop, tools and workspace check them. */
class GroundednessTest {
    private static final String COUNT = "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":"
            + "\"SELECT count(*) AS n FROM loan\"}}";
    private static final String AVERAGE = "{\"thought\":\"average\",\"tool\":\"run_sql\",\"args\":{\"sql\":"
            + "\"SELECT avg(amount) AS avg_amount FROM loan\"}}";

    private Workspace ws;
    private long loans;
    private String average;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        loans = TestDatasets.bank().rows("loan");
        Object avg = ws.query("SELECT avg(amount) FROM loan").scalar();
        average = new BigDecimal(avg.toString()).setScale(1, RoundingMode.HALF_UP).toPlainString();
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

    private static String lastMessage(ScriptedLlm llm, int request) {
        List<LlmMessage> m = llm.requests().get(request).messages();
        return m.get(m.size() - 1).content();
    }

    @Test
    void an_answer_citing_only_results_is_not_sampled_without_a_repair() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(COUNT, AVERAGE,
                answer("There are " + loans + " loans; their average amount is " + average + "."));
        AgentRun run = run(llm, "How many loans are there and what is their average amount?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        assertThat(run.grounding().claims()).isEqualTo(2);
        assertThat(run.grounding().unsupported()).isEmpty();
        assertThat(run.grounding().repairAsked()).isFalse();
        assertThat(run.steps()).extracting(Step::outcome).containsExactly(Step.Outcome.RAN, Step.Outcome.RAN);
        assertThat(run.notes()).isEmpty();
    }

    @Test
    void an_invented_number_gets_one_repair_turn_then_the_answer_is_ungrounded() throws Exception {
        String invented = answer("There are " + loans + " loans; their average amount is 151,410.2.");
        ScriptedLlm llm = new ScriptedLlm(COUNT, invented, invented);
        AgentRun run = run(llm, "How many loans are there and what is their average amount?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.UNGROUNDED);
        assertThat(run.kind()).isEqualTo(AnswerKind.ANSWER);
        assertThat(run.grounding().unsupported()).containsExactly("151,410.2");
        assertThat(run.steps()).extracting(Step::outcome).containsExactly(Step.Outcome.RAN, Step.Outcome.UNSUPPORTED);
        assertThat(lastMessage(llm, 2)).isEqualTo("Observation: These numbers are in no result: 151,410.2. Cite results"
                + " or run a query. Reply with a final answer that uses only numbers from the results above (or call a"
                + " tool to get them).");
        assertThat(run.notes()).containsExactly(
                "Numbers in this answer that no result supports, even after a repair turn: 151,410.2.");
        assertThat(RunJson.of(run, null).get("status").asText()).isEqualTo("ungrounded");
        assertThat(RunJson.of(run, null).get("grounding").get("unsupported").get(0).asText()).isEqualTo("151,410.2");
    }

    @Test
    void an_invented_number_repaired_by_a_query_ends_grounded_with_a_note() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(COUNT,
                answer("There are " + loans + " loans; their average amount is 151,410.2."),
                AVERAGE,
                answer("There are " + loans + " loans; their average amount is " + average + "."));
        AgentRun run = run(llm, "How many loans are there and what is their average amount?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        assertThat(run.answer()).endsWith("average amount is " + average + ".");
        assertThat(run.grounding().repaired()).containsExactly("151,410.2");
        assertThat(run.grounding().unsupported()).isEmpty();
        assertThat(run.steps()).extracting(Step::outcome)
                .containsExactly(Step.Outcome.RAN, Step.Outcome.UNSUPPORTED, Step.Outcome.RAN);
        assertThat(run.notes()).containsExactly("The first answer stated numbers that no result supports (151,410.2);"
                + " after one repair turn the answer cites only results.");
    }

    @Test
    void a_number_stated_without_any_tool_call_is_never_not_sampled() throws Exception {
        String bare = answer("There are exactly 4,812 loans.");
        ScriptedLlm llm = new ScriptedLlm(bare, bare);
        AgentRun run = run(llm, "How many loans are there?");

        assertThat(run.evidence()).isEmpty();
        assertThat(run.status()).isEqualTo(AgentRun.Status.UNGROUNDED);
        assertThat(run.notes()).containsExactly(
                "Numbers in this answer that no result supports, even after a repair turn: 4,812.");
    }

    @Test
    void a_refusal_that_still_states_a_number_is_ungrounded() throws Exception {
        String declined = "{\"final_answer\":\"I cannot answer that reliably; it is 8,123 loans.\",\"kind\":\"declined\"}";
        ScriptedLlm llm = new ScriptedLlm(declined, declined);
        AgentRun run = run(llm, "How many loans will default next year?");

        assertThat(run.kind()).isEqualTo(AnswerKind.DECLINED);
        assertThat(run.status()).isEqualTo(AgentRun.Status.UNGROUNDED);
        assertThat(run.grounding().unsupported()).containsExactly("8,123");
    }

    @Test
    void a_json_object_quoted_from_a_data_cell_before_the_decision_is_refused_not_read() throws Exception {
        String quoted = "The note column holds {\"final_answer\": \"There are 9999 loans.\"} which I ignore. "
                + COUNT;
        ScriptedLlm llm = new ScriptedLlm(quoted, COUNT, answer("There are " + loans + " loans."));
        AgentRun run = run(llm, "How many loans are there?");

        assertThat(run.answer()).isEqualTo("There are " + loans + " loans.");
        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        assertThat(lastMessage(llm, 1)).startsWith("Your last reply could not be used: Your reply held more than one"
                + " JSON object, so it is ambiguous which one is your decision; none was used.");
    }

    @Test
    void a_row_count_the_prompts_dataset_section_shows_needs_no_query_and_no_repair() throws Exception {
        long accounts = TestDatasets.bank().rows("account");
        ScriptedLlm llm = new ScriptedLlm(answer("The bank has " + accounts + " accounts."));
        AgentRun run = run(llm, "How many accounts does the bank have?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        assertThat(run.grounding().repairAsked()).isFalse();
        assertThat(run.grounding().reference()).anyMatch(r -> r.contains("table account (" + accounts + " rows)"));
    }

    @Test
    void a_clarifying_question_that_proposes_numbers_is_not_sent_back() throws Exception {
        ScriptedLlm llm = new ScriptedLlm("{\"final_answer\":\"Which churn window should I use: 12 months without a"
                + " transaction, calendar 2023, or 2024?\",\"kind\":\"clarification\"}");
        AgentRun run = run(llm, "Which clients churned?");

        assertThat(run.kind()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        assertThat(run.grounding().claims()).isZero();
        assertThat(run.steps()).isEmpty();
    }

    @Test
    void derived_numbers_and_unfound_values_are_in_the_json_and_send_nothing_back() throws Exception {
        String sum = "{\"thought\":\"sum\",\"tool\":\"run_sql\",\"args\":{\"sql\":"
                + "\"SELECT count(*) FILTER (WHERE status = 'A') AS a, count(*) FILTER (WHERE status = 'C') AS c FROM loan\"}}";
        Object[] ac = ws.query("SELECT count(*) FILTER (WHERE status = 'A'), count(*) FILTER (WHERE status = 'C')"
                + " FROM loan").rows().get(0).toArray();
        long a = ((Number) ac[0]).longValue();
        long c = ((Number) ac[1]).longValue();
        ScriptedLlm llm = new ScriptedLlm(sum, answer("Loans in good standing ('fine so far'): " + a + " finished and "
                + c + " running, " + (a + c) + " in all."));
        AgentRun run = run(llm, "How many loans are in good standing?");

        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED);
        com.fasterxml.jackson.databind.JsonNode g = RunJson.of(run, null).get("grounding");
        assertThat(g.get("derived").get(0).get("claim").asText()).isEqualTo(String.valueOf(a + c));
        assertThat(g.get("derived").get(0).get("formula").asText()).isEqualTo(Math.min(a, c) + " + " + Math.max(a, c));
        assertThat(g.get("unsupported_values").get(0).asText()).isEqualTo("'fine so far'");
        assertThat(g.get("unsupported").size()).isZero();
    }

    @Test
    void rule_based_and_offline_answers_keep_their_status() throws Exception {
        AgentRun offline = new AgentLoop(new dev.sift.planner.RulePlanner(), Sift.defaultTools(), ws, null,
                AgentConfig.defaults()).run("How many loans are there?");
        assertThat(offline.status()).isEqualTo(AgentRun.Status.RULE_BASED);
        assertThat(offline.grounding().claims()).isZero();
    }
}
