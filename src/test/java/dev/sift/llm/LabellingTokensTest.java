package dev.sift.llm;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.agent.StepListener;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolResult;
import dev.sift.tool.analysis.ClassifyRows;
import dev.sift.tool.analysis.KeywordModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What labelling 300 ticket bodies costs a planner two ways, counted the same way (ScriptedLlm: a token per 4
 * characters of every message sent and received): paging through the bodies with show_frame and typing the billing
 * tickets' ids back into SQL, as a model does without a labelling tool, against classify_rows (planner turns plus the
 * tool's own batches).
 */
class LabellingTokensTest {
    private static final String QUESTION = "Classify the support tickets by topic: how many are about billing?";
    private static final int ROWS = 300;
    @TempDir
    Path home;

    private static String call(String tool, String args) {
        return "{\"thought\":\"next\",\"tool\":\"" + tool + "\",\"args\":" + args + "}";
    }

    private static String make() {
        return call("run_sql", "{\"sql\":\"" + KeywordModel.ticketsSql(ROWS).replace("\"", "\\\"") + "\",\"label\":\"tickets\"}");
    }

    private long run(Deque<String> planner, List<Long> toolTokens) throws Exception {
        ScriptedLlm llm = new ScriptedLlm(r -> {
            String system = r.messages().get(0).content();
            if (KeywordModel.isRowRequest(system)) {
                return KeywordModel.reply(system, r.messages().get(1).content());
            }
            String next = planner.poll();
            if (next == null) { // paging: keep reading pages until the last one said there are no more rows
                throw new AssertionError("planner script ran out");
            }
            return next;
        });
        StepListener listener = (Step step, ToolResult result) -> {
            if (result != null && result.payload() instanceof ClassifyRows.Result r) {
                toolTokens.add(r.tokens());
            }
        };
        AgentRun run = new Sift(home, llm, Workspace.Limits.defaults()).ask(QUESTION, TestDatasets.bank(),
                AgentConfig.defaults().withMaxSteps(40), listener).run();
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
        assertThat(run.answer()).contains("75");
        return run.tokens().input() + run.tokens().output();
    }

    @Test
    void classify_rows_costs_about_a_third_of_the_tokens_of_paging_through_the_rows() throws Exception {
        Deque<String> paging = new ArrayDeque<>(List.of(make()));
        for (int offset = 0; offset < ROWS; offset += 25) {
            paging.add(call("show_frame", "{\"frame\":\"tickets\",\"offset\":" + offset + ",\"limit\":25,\"columns\":"
                    + "[\"ticket_id\",\"body\"]}"));
        }
        List<String> billing = new ArrayList<>();
        for (int i = 0; i < ROWS; i += 4) {
            billing.add(String.valueOf(i));
        }
        paging.add(call("run_sql", "{\"sql\":\"SELECT count(*) AS billing FROM tickets WHERE ticket_id IN ("
                + String.join(", ", billing) + ")\"}"));
        paging.add("{\"thought\":\"done\",\"final_answer\":\"75 of the 300 tickets are about billing (read from each"
                + " ticket's text by the model).\"}");
        long paged = run(paging, new ArrayList<>());

        Deque<String> tool = new ArrayDeque<>(List.of(make(), call("classify_rows", "{\"source\":\"tickets\",\"columns\":"
                + "[\"body\"],\"labels\":{\"billing\":\"charges, invoices, refunds\",\"bug\":\"crashes, errors\","
                + "\"feature\":\"asks for something new\",\"account\":\"logging in, passwords\"}}"),
                "{\"thought\":\"done\",\"final_answer\":\"75 of the 300 tickets are about billing (labelled by the model"
                        + " from each ticket's text).\"}"));
        List<Long> toolTokens = new ArrayList<>();
        long planner = run(tool, toolTokens);
        long labelled = planner + toolTokens.get(0);
        System.out.printf("labelling %d tickets: paging %,d tokens; classify_rows %,d (planner %,d + tool %,d)%n", ROWS,
                paged, labelled, planner, toolTokens.get(0));
        // Measured 19,107 against 54,586 (35.0 %): paging became cheaper once older results are shortened in later
        // requests (to their first 300 characters), so the "a third" is missed here; the bound keeps the
        // tool's cost where it is against paging as it is now.
        assertThat(labelled * 100).isLessThanOrEqualTo(paged * 36);
    }
}
