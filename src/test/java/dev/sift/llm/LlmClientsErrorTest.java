package dev.sift.llm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Failure handling of the full stack built by {@link LlmClients} (provider -> retry -> cache) over real HTTP. */
class LlmClientsErrorTest {

    @RegisterExtension
    static final FakeLlmServerExtension llm = new FakeLlmServerExtension();

    private static LlmClient stack(String provider, String baseUrl, Duration timeout, int retries) {
        return LlmClients.fromConfig(new LlmConfig(provider, baseUrl, "m1", "key", timeout, retries, null))
                .orElseThrow();
    }

    private static LlmRequest hello() {
        return LlmRequest.of(LlmMessage.user("hello"));
    }

    @Test
    void none_provider_gives_no_client() {
        assertThat(LlmClients.fromConfig(LlmConfig.none())).isEmpty();
    }

    @Test
    void stack_describes_the_provider_client() {
        assertThat(stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 2).describe())
                .isEqualTo("openai-compatible m1 at " + llm.server().baseUrl());
        assertThat(stack("anthropic", llm.server().baseUrl(), Duration.ofSeconds(5), 2).describe())
                .isEqualTo("anthropic m1 at " + llm.server().baseUrl());
    }

    @Test
    void http401_is_not_retried() {
        llm.server().enqueueJson(401, """
                {"error":{"message":"Incorrect API key provided: key.","type":"invalid_request_error"}}""");

        assertThatThrownBy(() -> stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 2).complete(hello()))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(401);
                    assertThat(e.attempts()).isEqualTo(1);
                    assertThat(e.getMessage()).isEqualTo("LLM openai-compatible m1"
                            + " rejected the API key (HTTP 401: Incorrect API key provided: key.)."
                            + " Check SIFT_LLM_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY).");
                });
        assertThat(llm.server().callCount()).isEqualTo(1);
    }

    @Test
    void http400_is_not_retried() {
        llm.server().enqueueJson(400, "{\"error\":{\"message\":\"bad\"}}");

        assertThatThrownBy(() -> stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 2).complete(hello()))
                .isInstanceOf(LlmException.class).hasMessageContaining("HTTP 400: bad");
        assertThat(llm.server().callCount()).isEqualTo(1);
    }

    @Test
    void http500_then_success_is_retried() throws Exception {
        llm.server().enqueueJson(500, "{\"error\":{\"message\":\"boom\"}}")
                .enqueueJson(200, FakeLlmServer.openAiCompletion("recovered", 3, 2));

        LlmResponse r = stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 2).complete(hello());

        assertThat(r.text()).isEqualTo("recovered");
        assertThat(r.cached()).isFalse();
        assertThat(llm.server().callCount()).isEqualTo(2);
    }

    @Test
    void http429_then_success_is_retried_for_anthropic() throws Exception {
        llm.server().enqueueJson(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}")
                .enqueueJson(200, FakeLlmServer.anthropicMessage("ok", 1, 1));

        LlmResponse r = stack("anthropic", llm.server().baseUrl(), Duration.ofSeconds(5), 1).complete(hello());

        assertThat(r.text()).isEqualTo("ok");
        assertThat(llm.server().callCount()).isEqualTo(2);
    }

    @Test
    void persistent5xx_reports_attempts() {
        llm.server().enqueueJson(503, "upstream unavailable").enqueueJson(502, "bad gateway");

        assertThatThrownBy(() -> stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 1).complete(hello()))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.attempts()).isEqualTo(2);
                    assertThat(e.getMessage()).isEqualTo("LLM openai-compatible m1"
                            + " had a server error (HTTP 502: bad gateway) (tried 2 times)."
                            + " The provider is having trouble; retry later or raise SIFT_LLM_RETRIES.");
                });
        assertThat(llm.server().callCount()).isEqualTo(2);
    }

    @Test
    void endpoint_that_never_answers_times_out_per_attempt() {
        llm.server().enqueue(FakeLlmServer.Reply.never(), FakeLlmServer.Reply.never());
        LlmClient client = stack("openai", llm.server().baseUrl(), Duration.ofSeconds(1), 1);

        long start = System.nanoTime();
        assertThatThrownBy(() -> client.complete(hello()))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
                    assertThat(e.getMessage()).isEqualTo("LLM openai-compatible m1"
                            + " did not answer within 1 s (tried 2 times)."
                            + " Check SIFT_LLM_BASE_URL or raise SIFT_LLM_TIMEOUT_S.");
                });
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(elapsedMs).isGreaterThanOrEqualTo(1_900).isLessThan(6_000);
        assertThat(llm.server().callCount()).isEqualTo(2);
    }

    @Test
    void connection_refused_is_clear() throws Exception {
        String closed = FakeLlmServer.closedPortBaseUrl();

        assertThatThrownBy(() -> stack("openai", closed, Duration.ofSeconds(2), 1).complete(hello()))
                .isInstanceOfSatisfying(LlmException.class, e -> {
                    assertThat(e.kind()).isEqualTo(LlmException.Kind.CONNECTION);
                    assertThat(e.getMessage()).isEqualTo("LLM openai-compatible m1"
                            + " refused the connection (tried 2 times). Is the server running? Check SIFT_LLM_BASE_URL.");
                });
    }

    @Test
    void failures_are_not_cached() throws Exception {
        LlmClient client = stack("openai", llm.server().baseUrl(), Duration.ofSeconds(5), 0);
        llm.server().enqueueJson(500, "x");
        assertThatThrownBy(() -> client.complete(hello())).isInstanceOf(LlmException.class);

        llm.server().enqueueJson(200, FakeLlmServer.openAiCompletion("fine", 1, 1));
        LlmResponse r = client.complete(hello());

        assertThat(r.text()).isEqualTo("fine");
        assertThat(r.cached()).isFalse();
        assertThat(llm.server().callCount()).isEqualTo(2);
    }
}
