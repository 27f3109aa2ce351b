package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real OpenAI chat-completions wire protocol, as produced by LangChain4j, against a local fake llm.server(). */
class OpenAiCompatibleLlmTest {

    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    private OpenAiCompatibleLlm client(String key) {
        return new OpenAiCompatibleLlm(llm.server().baseUrl(), key, "gpt-4o-mini", Duration.ofSeconds(5));
    }

    @Test
    void sends_chat_completion_and_reads_text_and_usage() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("The answer is 42.", 31, 7));

        LlmResponse r = client("sk-test-123").complete(new LlmRequest(List.of(
                LlmMessage.system("You are Sift."),
                LlmMessage.user("What is 6*7?"),
                LlmMessage.assistant("Let me compute."),
                LlmMessage.user("Go on.")), 0.3, 200, false));

        FakeLlmServer.Recorded req = llm.server().onlyRequest();
        assertThat(req.method()).isEqualTo("POST");
        assertThat(req.path()).isEqualTo("/v1/chat/completions");
        assertThat(req.header("Authorization")).isEqualTo("Bearer sk-test-123");
        JsonNode body = req.json();
        assertThat(body.path("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.3);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(200);
        assertThat(body.has("response_format")).as(body.toString()).isFalse();
        JsonNode msgs = body.path("messages");
        assertThat(msgs).hasSize(4);
        assertThat(msgs.get(0).path("role").asText()).isEqualTo("system");
        assertThat(msgs.get(0).path("content").asText()).isEqualTo("You are Sift.");
        assertThat(msgs.get(1).path("role").asText()).isEqualTo("user");
        assertThat(msgs.get(1).path("content").asText()).isEqualTo("What is 6*7?");
        assertThat(msgs.get(2).path("role").asText()).isEqualTo("assistant");
        assertThat(msgs.get(2).path("content").asText()).isEqualTo("Let me compute.");
        assertThat(msgs.get(3).path("role").asText()).isEqualTo("user");

        assertThat(r.text()).isEqualTo("The answer is 42.");
        assertThat(r.inputTokens()).isEqualTo(31);
        assertThat(r.outputTokens()).isEqualTo(7);
        assertThat(r.model()).isEqualTo("gpt-4o-mini-2024-07-18");
        assertThat(r.cached()).isFalse();
        assertThat(r.latencyMs()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void json_mode_sends_response_format_json_object_and_zero_temperature() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("{\"ok\":true}", 5, 3));

        LlmResponse r = client("sk-x").complete(LlmRequest.of(LlmMessage.user("json please")).withJsonMode(true));

        JsonNode body = llm.server().onlyRequest().json();
        assertThat(body.path("response_format").path("type").asText()).as(body.toString()).isEqualTo("json_object");
        assertThat(body.path("temperature").isNumber()).as(body.toString()).isTrue();
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(1024);
        assertThat(r.text()).isEqualTo("{\"ok\":true}");
    }

    @Test
    void local_endpoint_without_key_sends_placeholder_bearer() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("hi", 1, 1));

        client(null).complete(LlmRequest.of(LlmMessage.user("hello")));

        assertThat(llm.server().onlyRequest().header("Authorization")).isEqualTo("Bearer " + LlmConfig.PLACEHOLDER_API_KEY);
    }

    @Test
    void missing_usage_gives_zero_tokens() throws Exception {
        llm.server().enqueueJson(200, """
                {"id":"x","object":"chat.completion","created":1,"model":"llama3",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}
                """);

        LlmResponse r = client("k").complete(LlmRequest.of(LlmMessage.user("hello")));

        assertThat(r.text()).isEqualTo("ok");
        assertThat(r.inputTokens()).isZero();
        assertThat(r.outputTokens()).isZero();
    }

    @Test
    void http400_is_reported_with_provider_message() {
        llm.server().enqueueJson(400, """
                {"error":{"message":"Invalid value for 'temperature'.\\nSee docs.","type":"invalid_request_error"}}
                """);

        assertThatThrownBy(() -> client("k").complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.kind()).isEqualTo(LlmException.Kind.HTTP);
                    assertThat(e.httpStatus()).isEqualTo(400);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).isEqualTo("LLM openai-compatible gpt-4o-mini"
                            + " rejected the request (HTTP 400: Invalid value for 'temperature'. See docs.)."
                            + " Check SIFT_LLM_MODEL and that the endpoint speaks this provider's API.");
                });
    }

    @Test
    void non_json_success_body_is_a_bad_response() {
        llm.server().enqueueJson(200, "<html>proxy login</html>");

        assertThatThrownBy(() -> client("k").complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.getMessage()).doesNotContain("\n").contains("openai-compatible gpt-4o-mini").doesNotContain(llm.server().baseUrl());
                    assertThat(e.retryable()).isFalse();
                });
    }

    @Test
    void uses_http11_without_h2c_upgrade() throws Exception {
        // vLLM (uvicorn) drops the body of an "Upgrade: h2c" request and LM Studio never answers it.
        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("ok", 1, 1));

        client("k").complete(LlmRequest.of(LlmMessage.user("x")));

        FakeLlmServer.Recorded req = llm.server().onlyRequest();
        assertThat(req.header("upgrade")).isNull();
        assertThat(req.header("http2-settings")).isNull();
    }

    @Test
    void describe_names_model_and_endpoint() {
        assertThat(client("k").describe()).isEqualTo("openai-compatible gpt-4o-mini at " + llm.server().baseUrl());
    }
}
