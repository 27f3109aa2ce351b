package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.RunJson;
import dev.sift.agent.Usage;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Provider prompt caching on each wire protocol: Anthropic's cache marks on the stable prefix and on the conversation
 * so far, and the cached prompt tokens each provider reports read back into the reply, the run's tokens and its JSON.
 */
class PromptCacheOverHttpTest {
    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    @TempDir
    Path home;

    private static final List<LlmMessage> CONVERSATION = List.of(
            LlmMessage.system("Rules and the dataset's facts."),
            LlmMessage.user("Tables for this question.\nQuestion: how many?"),
            LlmMessage.assistant("{\"tool\":\"run_sql\"}"),
            LlmMessage.user("Observation: 42"));

    static String openAiCached(String text, int prompt, int cached, int completion) {
        return """
                {"id":"chatcmpl-c","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini-2024-07-18",
                 "choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,
                          "prompt_tokens_details":{"cached_tokens":%d,"audio_tokens":0}}}
                """.formatted(FakeLlmServer.quote(text), prompt, completion, prompt + completion, cached);
    }

    @Test
    void an_openai_compatible_reply_reports_the_prompt_tokens_its_cache_held() throws Exception {
        llm.server().enqueueJson(200, openAiCached("Forty-two.", 2006, 1536, 7));
        LlmResponse r = new OpenAiCompatibleLlm(llm.server().baseUrl(), "k", "gpt-4o-mini", Duration.ofSeconds(5))
                .complete(LlmRequest.of(CONVERSATION));
        assertThat(r.inputTokens()).isEqualTo(2006);
        assertThat(r.cachedTokens()).isEqualTo(1536);
        assertThat(r.outputTokens()).isEqualTo(7);
        // OpenAI caches a prefix by itself: nothing is marked on the wire, and the stable system prompt goes first
        JsonNode body = llm.server().onlyRequest().json();
        assertThat(body.toString()).doesNotContain("cache_control");
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
    }

    @Test
    void a_reply_without_cache_details_reports_no_cached_tokens() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("Forty-two.", 900, 7));
        LlmResponse r = new OpenAiCompatibleLlm(llm.server().baseUrl(), "k", "m", Duration.ofSeconds(5))
                .complete(LlmRequest.of(CONVERSATION));
        assertThat(r.inputTokens()).isEqualTo(900);
        assertThat(r.cachedTokens()).isZero();
    }

    @Test
    void anthropic_marks_the_system_prompt_and_the_last_turn_and_counts_cache_reads_and_writes_in_the_prompt()
            throws Exception {
        llm.server().enqueueJson(200, """
                {"id":"msg_c","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022",
                 "content":[{"type":"text","text":"Forty-two."}],"stop_reason":"end_turn","stop_sequence":null,
                 "usage":{"input_tokens":50,"cache_creation_input_tokens":200,"cache_read_input_tokens":1800,
                          "output_tokens":9}}
                """);
        LlmResponse r = new AnthropicLlm(llm.server().baseUrl(), "k", "claude-3-5-haiku-latest", Duration.ofSeconds(5))
                .complete(LlmRequest.of(CONVERSATION));
        // input_tokens counts only what follows the last cache mark: the prompt is all three
        assertThat(r.inputTokens()).isEqualTo(2050);
        assertThat(r.cachedTokens()).isEqualTo(1800);
        assertThat(r.outputTokens()).isEqualTo(9);

        JsonNode body = llm.server().onlyRequest().json();
        assertThat(body.path("system")).hasSize(1);
        assertThat(body.path("system").get(0).path("text").asText()).isEqualTo("Rules and the dataset's facts.");
        assertThat(body.path("system").get(0).path("cache_control").toString()).isEqualTo("{\"type\":\"ephemeral\"}");
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(3);
        // the question's turn and the model's reply are not marked; the last turn is, so the next step reads it all
        assertThat(messages.get(0).toString()).doesNotContain("cache_control");
        assertThat(messages.get(1).toString()).doesNotContain("cache_control");
        JsonNode last = messages.get(2).path("content");
        assertThat(last.get(last.size() - 1).path("text").asText()).isEqualTo("Observation: 42");
        assertThat(last.get(last.size() - 1).path("cache_control").toString()).isEqualTo("{\"type\":\"ephemeral\"}");
        assertThat(body.toString().split("cache_control", -1)).hasSize(3); // two marks of the four a request may carry
    }

    @Test
    void gemini_reports_the_implicitly_cached_prompt_tokens() throws Exception {
        llm.server().enqueueJson(200, """
                {"candidates":[{"content":{"role":"model","parts":[{"text":"Forty-two."}]},"finishReason":"STOP","index":0}],
                 "usageMetadata":{"promptTokenCount":1300,"candidatesTokenCount":5,"totalTokenCount":1305,
                                  "cachedContentTokenCount":1024},
                 "modelVersion":"gemini-2.5-flash-001"}
                """);
        LlmResponse r = new GeminiLlm(llm.server().baseUrl(), "k", "gemini-2.5-flash", Duration.ofSeconds(5))
                .complete(LlmRequest.of(CONVERSATION));
        assertThat(r.inputTokens()).isEqualTo(1300);
        assertThat(r.cachedTokens()).isEqualTo(1024);
        assertThat(llm.server().onlyRequest().json().toString()).doesNotContain("cache_control");
    }

    @Test
    void a_run_adds_up_the_cached_tokens_of_its_steps_in_its_tokens_and_its_json() throws Exception {
        long loans = TestDatasets.bank().rows("loan");
        FakeLlmServer server = llm.server();
        server.enqueueJson(200, openAiCached(
                "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM loan\"}}", 1900, 0, 30));
        server.enqueueJson(200, openAiCached("{\"thought\":\"done\",\"final_answer\":\"There are " + loans + " loans.\"}",
                1950, 1792, 20));
        LlmConfig config = new LlmConfig("openai", server.baseUrl(), "test-model", "test-key", Duration.ofSeconds(5), 0, null);
        Sift.Answered a = new Sift(home, LlmClients.fromConfig(config).orElseThrow(), Workspace.Limits.defaults())
                .ask("How many loans are there?", TestDatasets.bank(), AgentConfig.defaults());
        AgentRun run = a.run();
        assertThat(run.answer()).isEqualTo("There are " + loans + " loans.");
        assertThat(run.tokens()).isEqualTo(new Usage(3850, 50, 1792));
        assertThat(run.steps().get(0).tokens()).isEqualTo(new Usage(1900, 30, 0));
        ObjectNode json = RunJson.of(run, a.trace());
        assertThat(json.path("tokens").toString()).isEqualTo("{\"input\":3850,\"output\":50,\"cached\":1792}");
        assertThat(json.path("steps").get(0).path("tokens_cached").asLong()).isZero();
        // the second request begins with the first one whole: what a provider's prefix cache reuses
        List<FakeLlmServer.Recorded> sent = server.requests();
        JsonNode first = sent.get(0).json().path("messages");
        JsonNode second = sent.get(1).json().path("messages");
        for (int i = 0; i < first.size(); i++) {
            assertThat(second.get(i)).isEqualTo(first.get(i));
        }
    }
}
