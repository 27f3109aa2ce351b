package dev.sift.llm;

import java.util.Objects;

/** A completion. Token counts are 0 when the endpoint does not report usage. */
public record LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached) {

    public LlmResponse {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
    }

    public int totalTokens() {
        return inputTokens + outputTokens;
    }

    public LlmResponse asCached(long lookupMs) {
        return new LlmResponse(text, inputTokens, outputTokens, model, lookupMs, true);
    }
}
