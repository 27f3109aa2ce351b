package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real Anthropic Messages wire protocol, as produced by LangChain4j, against a local fake llm.server(). */
class AnthropicLlmTest {

    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    private AnthropicLlm client() {
        return new AnthropicLlm(llm.server().baseUrl(), "sk-ant-test", "claude-3-5-haiku-latest", Duration.ofSeconds(5));
    }

    @Test
    void sends_messages_with_top_level_system_and_reads_usage() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.anthropicMessage("Forty-two.", 25, 4));

        LlmResponse r = client().complete(new LlmRequest(List.of(
                LlmMessage.system("You are Sift."),
                LlmMessage.user("What is 6*7?"),
                LlmMessage.assistant("Thinking."),
                LlmMessage.user("Answer.")), 0.5, 300, false));

        FakeLlmServer.Recorded req = llm.server().onlyRequest();
        assertThat(req.method()).isEqualTo("POST");
        assertThat(req.path()).isEqualTo("/v1/messages"); // LangChain4j appends "messages" to the base URL
        assertThat(req.header("x-api-key")).isEqualTo("sk-ant-test");
        assertThat(req.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(req.header("authorization")).isNull();
        JsonNode body = req.json();
        assertThat(body.path("model").asText()).isEqualTo("claude-3-5-haiku-latest");
        assertThat(body.path("max_tokens").asInt()).isEqualTo(300);
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.5);
        // System prompt is hoisted out of "messages" into the top-level "system" field (array of text blocks).
        assertThat(body.path("system").toString()).contains("You are Sift.");
        JsonNode msgs = body.path("messages");
        assertThat(msgs).hasSize(3);
        assertThat(msgs.get(0).path("role").asText()).isEqualTo("user");
        assertThat(msgs.get(0).toString()).contains("What is 6*7?");
        assertThat(msgs.get(1).path("role").asText()).isEqualTo("assistant");
        assertThat(msgs.get(1).toString()).contains("Thinking.");
        assertThat(msgs.get(2).path("role").asText()).isEqualTo("user");
        assertThat(body.toString()).doesNotContain("\"role\":\"system\"");

        assertThat(r.text()).isEqualTo("Forty-two.");
        assertThat(r.inputTokens()).isEqualTo(25);
        assertThat(r.outputTokens()).isEqualTo(4);
        assertThat(r.model()).isEqualTo("claude-3-5-haiku-20241022");
        assertThat(r.cached()).isFalse();
    }

    @Test
    void json_mode_adds_system_instruction_and_strips_code_fence() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.anthropicMessage("```json\n{\"n\": 1}\n```", 10, 5));

        LlmResponse r = client().complete(LlmRequest.of(LlmMessage.system("Be terse."), LlmMessage.user("n?"))
                .withJsonMode(true));

        JsonNode body = llm.server().onlyRequest().json();
        assertThat(body.path("system").toString()).contains(AnthropicLlm.JSON_INSTRUCTION).contains("Be terse.");
        assertThat(body.has("response_format")).isFalse();
        assertThat(r.text()).isEqualTo("{\"n\": 1}");
    }

    @Test
    void strip_fence_leaves_plain_json_alone() {
        assertThat(AnthropicLlm.stripFence("{\"a\":1}")).isEqualTo("{\"a\":1}");
        assertThat(AnthropicLlm.stripFence("```\n[1,2]\n```")).isEqualTo("[1,2]");
    }

    @Test
    void overloaded_is_retryable_server_error() {
        llm.server().enqueueJson(529, """
                {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}""");

        assertThatThrownBy(() -> client().complete(LlmRequest.of(LlmMessage.user("x"))))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(529);
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.getMessage()).isEqualTo("LLM anthropic claude-3-5-haiku-latest"
                            + " had a server error (HTTP 529: Overloaded)."
                            + " The provider is having trouble; retry later or raise SIFT_LLM_RETRIES.");
                });
    }

    @Test
    void uses_http11_without_h2c_upgrade() throws Exception {
        llm.server().enqueueJson(200, FakeLlmServer.anthropicMessage("ok", 1, 1));

        client().complete(LlmRequest.of(LlmMessage.user("x")));

        assertThat(llm.server().onlyRequest().header("upgrade")).isNull();
    }

    @Test
    void describe_names_model_and_endpoint() {
        assertThat(client().describe()).isEqualTo("anthropic claude-3-5-haiku-latest at " + llm.server().baseUrl());
    }
}
