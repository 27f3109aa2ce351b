package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.agent.StepListener;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolResult;
import dev.sift.tool.analysis.KeywordModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model planner labels 1,000 support tickets with classify_rows through the real OpenAI-compatible client: the same
 * fake server plays the planner (scripted turns) and the model reading the rows (it answers each batch from the rows
 * sent). Counts the labelling requests, checks the answer against the label frame, the progress reports, and that a
 * second run is served from the disk cache under the Sift home.
 */
class ClassifyRowsOverHttpTest {
    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();
    private static final String QUESTION = "Classify the support tickets by topic: how many are about billing?";

    @TempDir
    Path home;

    private static String call(String tool, String args) {
        return FakeLlmServer.openAiCompletion("{\"thought\":\"next\",\"tool\":\"" + tool + "\",\"args\":" + args + "}",
                1000, 40);
    }

    private static String rowsSql() {
        return KeywordModel.ticketsSql(1000).replace("\"", "\\\"");
    }

    /** Queues the planner's turns; row requests are answered from their rows. Returns the count of row requests. */
    private static List<Integer> serve(FakeLlmServer server) {
        Deque<String> planner = new ArrayDeque<>(List.of(
                call("run_sql", "{\"sql\":\"" + rowsSql() + "\",\"label\":\"tickets\"}"),
                call("classify_rows", "{\"source\":\"tickets\",\"columns\":[\"body\"],\"labels\":{\"billing\":\"charges,"
                        + " invoices, refunds\",\"bug\":\"crashes, errors\",\"feature\":\"asks for something new\","
                        + "\"account\":\"logging in, passwords\"}}"),
                FakeLlmServer.openAiCompletion("{\"thought\":\"done\",\"final_answer\":\"250 of the 1,000 tickets are"
                        + " about billing (labelled by the model from each ticket's text).\"}", 1000, 40)));
        List<Integer> rowRequests = new ArrayList<>(List.of(0));
        server.respond(rec -> {
            JsonNode messages = rec.json().get("messages");
            String system = messages.get(0).get("content").asText();
            if (KeywordModel.isRowRequest(system)) {
                rowRequests.set(0, rowRequests.get(0) + 1);
                return FakeLlmServer.Reply.json(200, FakeLlmServer.openAiCompletion(
                        KeywordModel.reply(system, messages.get(1).get("content").asText()), 3000, 900));
            }
            return FakeLlmServer.Reply.json(200, planner.poll());
        });
        return rowRequests;
    }

    @Test
    void a_model_planner_labels_a_thousand_tickets_in_at_most_twenty_requests_and_a_rerun_makes_none() throws Exception {
        LlmConfig config = new LlmConfig("openai", llm.server().baseUrl(), "test-model", "test-key", Duration.ofSeconds(10),
                0, null);
        Sift sift = new Sift(home, LlmClients.fromConfig(config).orElseThrow(), Workspace.Limits.defaults());
        List<Integer> rowRequests = serve(llm.server());
        List<long[]> progress = new ArrayList<>();
        StepListener listener = new StepListener() {
            @Override
            public void onStep(Step step, ToolResult result) { }

            @Override
            public void progress(String stage, long done, long total) {
                progress.add(new long[] {done, total});
            }
        };
        AgentRun run = sift.ask(QUESTION, TestDatasets.bank(), AgentConfig.defaults(), listener).run();

        assertThat(run.steps()).extracting(Step::tool).containsExactly("run_sql", "classify_rows");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
        assertThat(rowRequests.get(0)).isBetween(2, 20);
        assertThat(run.status()).isEqualTo(AgentRun.Status.NOT_SAMPLED); // 250 is in the label frame's counts
        assertThat(run.answer()).startsWith("250 of the 1,000 tickets"); // it says the model labelled them: no caveat put first
        assertThat(run.notes()).anySatisfy(n -> assertThat(n).contains("labels came from the language model"));
        // the estimate (0 of 1,000), each batch of 60 rows, then the 20 rows of the consistency check
        assertThat(progress).extracting(p -> p[0] + "/" + p[1]).startsWith("0/1000", "60/1000", "120/1000")
                .contains("1000/1000").endsWith("20/20");

        int before = rowRequests.get(0);
        List<Integer> again = serve(llm.server());
        AgentRun rerun = new Sift(home, LlmClients.fromConfig(config).orElseThrow(), Workspace.Limits.defaults())
                .ask(QUESTION, TestDatasets.bank(), AgentConfig.defaults()).run();
        assertThat(rerun.steps()).extracting(Step::tool).containsExactly("run_sql", "classify_rows");
        assertThat(again.get(0)).as("rows already labelled by this model (first run: " + before + " requests)").isZero();
        assertThat(rerun.steps().get(1).observation()).contains("1,000 rows from the cache");
    }
}
