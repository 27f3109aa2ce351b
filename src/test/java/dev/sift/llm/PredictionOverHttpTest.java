package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Step;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The north-star prediction with a model as planner, through the real OpenAI-compatible client over HTTP: the model
 * is shown the knowledge graph's prediction task, builds its frames with prediction_frames, and its model reaches the
 * offline planner's cross-validated AUC, on the same curated features.
 */
class PredictionOverHttpTest {
    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    static final String QUESTION = "For loans currently being repaid, which are likely to default? Show me the top 10"
            + " highest-risk loans and tell me why.";
    private static final Pattern AUC = Pattern.compile("Quality: AUC ([0-9.]+)");
    @TempDir
    Path home;

    private Sift sift(String baseUrl) {
        LlmConfig config = new LlmConfig("openai", baseUrl, "test-model", "test-key", Duration.ofSeconds(10), 0, null);
        return new Sift(home, LlmClients.fromConfig(config).orElseThrow(), Workspace.Limits.defaults());
    }

    private static String call(String tool, String args) {
        return FakeLlmServer.openAiCompletion("{\"thought\":\"next\",\"tool\":\"" + tool + "\",\"args\":" + args + "}",
                1000, 40);
    }

    static double auc(AgentRun run) {
        Step train = run.steps().stream().filter(s -> "train_model".equals(s.tool())).findFirst().orElseThrow();
        Matcher m = AUC.matcher(train.observation());
        assertThat(m.find()).as(train.observation()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void a_model_planner_using_the_task_tool_reaches_the_offline_auc() throws Exception {
        AgentRun offline = new Sift(home, null, Workspace.Limits.defaults()).ask(QUESTION, TestDatasets.bank(),
                AgentConfig.defaults()).run();
        assertThat(offline.kind()).as(offline.answer()).isEqualTo(AnswerKind.ANSWER);
        assertThat(offline.steps()).extracting(Step::tool).first().isEqualTo("prediction_frames");

        FakeLlmServer server = llm.server();
        server.enqueueJson(200, call("prediction_frames", "{\"task\":\"loan_default\"}"));
        server.enqueueJson(200, call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\","
                + "\"entity\":\"loan_id\"}"));
        server.enqueueJson(200, call("predict", "{\"source\":\"loan_default_current\",\"top_k\":10}"));
        server.enqueueJson(200, call("explain_prediction", "{\"top_k\":10}"));
        server.enqueueJson(200, FakeLlmServer.openAiCompletion("{\"thought\":\"done\",\"final_answer\":\"The running"
                + " loans most at risk are ranked in frame predictions, with their drivers in frame explanations.\"}",
                1000, 40));
        AgentRun run = sift(server.baseUrl()).ask(QUESTION, TestDatasets.bank(), AgentConfig.defaults()).run();

        assertThat(run.steps()).extracting(Step::tool).containsExactly("prediction_frames", "train_model", "predict",
                "explain_prediction");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
        assertThat(auc(run)).isCloseTo(auc(offline), within(0.02));

        // The model was shown the task and the tool that builds it.
        JsonNode first = server.requests().get(0).json().get("messages");
        String shown = first.get(0).get("content").asText() + "\n" + first.get(1).get("content").asText(); // facts, then the question's part
        assertThat(shown).contains("- prediction task loan_default: ")
                .contains("build both frames with prediction_frames(task=\"loan_default\"")
                .contains("- prediction_frames(task, filter?, history_filter?)");
        assertThat(run.toolsShown().shown()).filteredOn(s -> s.tool().equals("prediction_frames")).singleElement()
                .satisfies(s -> assertThat(s.why()).isEqualTo(
                        "the question triggers the knowledge graph's prediction task loan_default"));
    }

    /** Characters of every prompt a run sent: the size of what the model read, all steps together. */
    static long promptChars(FakeLlmServer server) {
        long n = 0;
        for (FakeLlmServer.Recorded r : server.requests()) {
            for (JsonNode m : r.json().get("messages")) {
                n += m.get("content").asText().length();
            }
        }
        return n;
    }

    @Test
    void the_task_tool_costs_fewer_prompt_tokens_than_hand_written_feature_sql() throws Exception {
        String features = "WITH b AS (SELECT account_id, avg(balance) AS avg_balance, min(balance) AS min_balance,"
                + " count(*) AS n_trans FROM trans GROUP BY account_id) SELECT l.loan_id, l.amount, l.duration,"
                + " l.payments, b.avg_balance, b.min_balance, b.n_trans%s FROM loan l JOIN b ON b.account_id ="
                + " l.account_id WHERE l.status IN (%s)";
        String history = String.format(features, ", CASE WHEN l.status = 'B' THEN 1 ELSE 0 END AS is_default", "'A', 'B'");
        String current = String.format(features, "", "'C', 'D'");
        List<String> byHand = List.of(
                call("run_sql", "{\"sql\":" + FakeLlmServer.quote(history) + ",\"label\":\"context\"}"),
                call("run_sql", "{\"sql\":" + FakeLlmServer.quote(current) + ",\"label\":\"to_score\"}"),
                call("train_model", "{\"source\":\"context\",\"target\":\"is_default\",\"entity\":\"loan_id\"}"),
                call("predict", "{\"source\":\"to_score\",\"top_k\":10}"),
                call("explain_prediction", "{\"top_k\":10}"));
        List<String> withTask = List.of(
                call("prediction_frames", "{\"task\":\"loan_default\"}"),
                call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\",\"entity\":\"loan_id\"}"),
                call("predict", "{\"source\":\"loan_default_current\",\"top_k\":10}"),
                call("explain_prediction", "{\"top_k\":10}"));
        long[] chars = new long[2];
        int i = 0;
        for (List<String> plan : List.of(byHand, withTask)) {
            FakeLlmServer server = llm.server();
            server.reset(); // each plan is measured on its own requests
            plan.forEach(reply -> server.enqueueJson(200, reply));
            server.enqueueJson(200, FakeLlmServer.openAiCompletion("{\"thought\":\"done\",\"final_answer\":\"Ranked"
                    + " in frame predictions.\"}", 1000, 40));
            AgentRun run = sift(server.baseUrl()).ask(QUESTION, TestDatasets.bank(), AgentConfig.defaults()).run();
            assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.observation()).isTrue());
            chars[i++] = promptChars(server);
        }
        org.slf4j.LoggerFactory.getLogger(PredictionOverHttpTest.class).info(
                "prompt characters per predictive question: hand-written SQL {}, prediction_frames {}", chars[0], chars[1]);
        assertThat(chars[1]).isLessThan(chars[0]);
    }
}
