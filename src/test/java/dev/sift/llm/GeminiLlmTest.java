package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real Gemini generateContent wire protocol, as produced by LangChain4j, against a local fake llm.server(). */
class GeminiLlmTest {

    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    private GeminiLlm client() {
        return new GeminiLlm(llm.server().baseUrl(), "gem-test-key", "gemini-2.5-flash", Duration.ofSeconds(5));
    }

    static String geminiReply(String text, int promptTokens, int outputTokens) {
        return """
                {"candidates":[{"content":{"role":"model","parts":[{"text":%s}]},"finishReason":"STOP","index":0}],
                 "usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"totalTokenCount":%d},
                 "modelVersion":"gemini-2.5-flash-001"}
                """.formatted(FakeLlmServer.quote(text), promptTokens, outputTokens, promptTokens + outputTokens);
    }

    @Test
    void sends_generate_content_with_system_instruction_and_reads_usage() throws Exception {
        llm.server().enqueueJson(200, geminiReply("Forty-two.", 25, 4));

        LlmResponse r = client().complete(new LlmRequest(List.of(
                LlmMessage.system("You are Sift."),
                LlmMessage.user("What is 6*7?"),
                LlmMessage.assistant("Thinking."),
                LlmMessage.user("Answer.")), 0.5, 300, false));

        FakeLlmServer.Recorded req = llm.server().onlyRequest();
        assertThat(req.method()).isEqualTo("POST");
        assertThat(req.path()).isEqualTo("/v1/models/gemini-2.5-flash:generateContent");
        assertThat(req.header("x-goog-api-key")).isEqualTo("gem-test-key");
        assertThat(req.header("authorization")).isNull();
        JsonNode body = req.json();
        assertThat(body.path("systemInstruction").toString()).contains("You are Sift.");
        JsonNode contents = body.path("contents");
        assertThat(contents).hasSize(3);
        assertThat(contents.get(0).path("role").asText()).isEqualTo("user");
        assertThat(contents.get(0).toString()).contains("What is 6*7?");
        assertThat(contents.get(1).path("role").asText()).isEqualTo("model");
        assertThat(contents.get(1).toString()).contains("Thinking.");
        assertThat(contents.get(2).path("role").asText()).isEqualTo("user");
        assertThat(body.path("generationConfig").path("temperature").asDouble()).isEqualTo(0.5);
        assertThat(body.path("generationConfig").path("maxOutputTokens").asInt()).isEqualTo(300);

        assertThat(r.text()).isEqualTo("Forty-two.");
        assertThat(r.inputTokens()).isEqualTo(25);
        assertThat(r.outputTokens()).isEqualTo(4);
        assertThat(r.cached()).isFalse();
    }

    @Test
    void json_mode_asks_for_the_json_mime_type() throws Exception {
        llm.server().enqueueJson(200, geminiReply("{\"n\": 1}", 10, 5));

        LlmResponse r = client().complete(LlmRequest.of(LlmMessage.system("Be terse."), LlmMessage.user("n?"))
                .withJsonMode(true));

        JsonNode body = llm.server().onlyRequest().json();
        assertThat(body.path("generationConfig").path("responseMimeType").asText()).isEqualTo("application/json");
        assertThat(r.text()).isEqualTo("{\"n\": 1}");
    }

    @Test
    void bad_key_is_an_authentication_error_that_is_not_retried() {
        llm.server().enqueueJson(400, """
                {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}""");

        assertThatThrownBy(() -> client().complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(400);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("HTTP 400").contains("API key not valid");
                });
    }

    @Test
    void unavailable_is_retryable_server_error() {
        llm.server().enqueueJson(503, """
                {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}""");

        assertThatThrownBy(() -> client().complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(503);
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.getMessage()).isEqualTo("LLM gemini gemini-2.5-flash"
                            + " had a server error (HTTP 503: The model is overloaded.)."
                            + " The provider is having trouble; retry later or raise SIFT_LLM_RETRIES.");
                });
    }

    @Test
    void config_selects_gemini_from_its_key_and_builds_the_client_stack() throws Exception {
        LlmConfig c = LlmConfig.fromEnv(Map.of("GEMINI_API_KEY", "gem-key"));
        assertThat(c.provider()).isEqualTo("gemini");
        assertThat(c.baseUrl()).isEqualTo("https://generativelanguage.googleapis.com/v1beta");
        assertThat(c.model()).isEqualTo("gemini-2.5-flash");
        assertThat(c.apiKey()).isEqualTo("gem-key");

        llm.server().enqueueJson(200, geminiReply("ok", 1, 1));
        Optional<LlmClient> stack = LlmClients.fromConfig(LlmConfig.fromEnv(Map.of(
                "SIFT_LLM_PROVIDER", "gemini", "SIFT_LLM_BASE_URL", llm.server().baseUrl(), "SIFT_LLM_API_KEY", "k",
                "SIFT_LLM_RETRIES", "0")));
        assertThat(stack).isPresent();
        assertThat(stack.get().complete(LlmRequest.of(LlmMessage.user("x"))).text()).isEqualTo("ok");
        assertThat(llm.server().onlyRequest().header("x-goog-api-key")).isEqualTo("k");
    }

    @Test
    void describe_names_model_and_endpoint() {
        assertThat(client().describe()).isEqualTo("gemini gemini-2.5-flash at " + llm.server().baseUrl());
    }
}
