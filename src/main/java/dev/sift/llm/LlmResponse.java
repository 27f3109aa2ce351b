package dev.sift.llm;

import java.util.List;
import java.util.Objects;

/**
 * A completion. Token counts are 0 when the endpoint does not report usage. {@code toolCalls} are the model's
 * native tool calls (empty for a plain text reply); {@code text} is then whatever it wrote beside them.
 */
public record LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached,
                          List<ToolCall> toolCalls) {

    public LlmResponse {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached) {
        this(text, inputTokens, outputTokens, model, latencyMs, cached, List.of());
    }

    public int totalTokens() {
        return inputTokens + outputTokens;
    }

    public LlmResponse asCached(long lookupMs) {
        return new LlmResponse(text, inputTokens, outputTokens, model, lookupMs, true, toolCalls);
    }

    /** The same reply with other text (a provider's clean-up), its tool calls kept. */
    public LlmResponse withText(String newText) {
        return new LlmResponse(newText, inputTokens, outputTokens, model, latencyMs, cached, toolCalls);
    }
}
