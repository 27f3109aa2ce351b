package dev.sift.llm;

import java.util.List;
import java.util.Objects;

/**
 * A completion. Token counts are 0 when the endpoint does not report usage. {@code inputTokens} counts the whole
 * prompt, the part the provider read from its prompt cache included; {@code cachedTokens} is that part (OpenAI's
 * {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens}, Gemini's
 * {@code cachedContentTokenCount}), 0 when none or not reported. {@code cached} says the reply came from Sift's own
 * reply cache, which is another thing. {@code toolCalls} are the model's native tool calls (empty for a plain text
 * reply); {@code text} is then whatever it wrote beside them.
 */
public record LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached,
                          List<ToolCall> toolCalls, int cachedTokens) {

    public LlmResponse {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        if (cachedTokens < 0 || cachedTokens > Math.max(inputTokens, 0)) {
            throw new IllegalArgumentException("cached prompt tokens " + cachedTokens + " must be between 0 and the"
                    + " prompt's " + inputTokens);
        }
    }

    public LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached,
                       List<ToolCall> toolCalls) {
        this(text, inputTokens, outputTokens, model, latencyMs, cached, toolCalls, 0);
    }

    public LlmResponse(String text, int inputTokens, int outputTokens, String model, long latencyMs, boolean cached) {
        this(text, inputTokens, outputTokens, model, latencyMs, cached, List.of(), 0);
    }

    public int totalTokens() {
        return inputTokens + outputTokens;
    }

    public LlmResponse asCached(long lookupMs) {
        return new LlmResponse(text, inputTokens, outputTokens, model, lookupMs, true, toolCalls, cachedTokens);
    }

    /** The same reply with other text (a provider's clean-up), its tool calls kept. */
    public LlmResponse withText(String newText) {
        return new LlmResponse(newText, inputTokens, outputTokens, model, latencyMs, cached, toolCalls, cachedTokens);
    }
}
