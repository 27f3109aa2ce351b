package dev.sift.llm;

import java.util.List;

/**
 * A provider-neutral completion request. Every field takes part in the cache key, so two requests
 * that differ only in temperature are distinct. {@code tools} are offered through the provider's native
 * tool calling; empty means none (a plain chat request).
 */
public record LlmRequest(List<LlmMessage> messages, double temperature, int maxTokens, boolean jsonMode,
                         List<ToolDefinition> tools) {

    public static final double DEFAULT_TEMPERATURE = 0.0;
    public static final int DEFAULT_MAX_TOKENS = 1024;

    public LlmRequest {
        messages = List.copyOf(messages); // immutable + rejects null elements
        tools = tools == null ? List.of() : List.copyOf(tools);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("LlmRequest needs at least one message");
        }
        if (!(temperature >= 0.0 && temperature <= 2.0)) {
            throw new IllegalArgumentException("LlmRequest temperature " + temperature + " is not in 0..2");
        }
        if (maxTokens <= 0) {
            throw new IllegalArgumentException("LlmRequest maxTokens " + maxTokens + " must be > 0");
        }
    }

    public LlmRequest(List<LlmMessage> messages, double temperature, int maxTokens, boolean jsonMode) {
        this(messages, temperature, maxTokens, jsonMode, List.of());
    }

    /** Deterministic defaults: temperature 0, 1024 output tokens, plain text. */
    public static LlmRequest of(List<LlmMessage> messages) {
        return new LlmRequest(messages, DEFAULT_TEMPERATURE, DEFAULT_MAX_TOKENS, false);
    }

    public static LlmRequest of(LlmMessage... messages) {
        return of(List.of(messages));
    }

    public LlmRequest withTemperature(double t) {
        return new LlmRequest(messages, t, maxTokens, jsonMode, tools);
    }

    public LlmRequest withMaxTokens(int n) {
        return new LlmRequest(messages, temperature, n, jsonMode, tools);
    }

    public LlmRequest withJsonMode(boolean json) {
        return new LlmRequest(messages, temperature, maxTokens, json, tools);
    }

    public LlmRequest withTools(List<ToolDefinition> offered) {
        return new LlmRequest(messages, temperature, maxTokens, jsonMode, offered);
    }
}
