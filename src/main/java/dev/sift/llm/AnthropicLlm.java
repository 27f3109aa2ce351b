package dev.sift.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Anthropic Messages API (POST {baseUrl}/messages). System messages travel in the top-level "system" field.
 * Makes exactly one attempt; {@link RetryingLlm} retries.
 *
 * <p>JSON mode: the Messages API has no schemaless "json_object" format (LangChain4j 1.19 throws
 * UnsupportedFeatureException for it), so we add a system instruction and strip a Markdown code fence
 * if the model wraps its JSON in one anyway.
 */
public final class AnthropicLlm implements LlmClient {

    private static final Logger log = LoggerFactory.getLogger(AnthropicLlm.class);
    static final String JSON_INSTRUCTION =
            "Respond with a single valid JSON object only: no prose before or after it, no Markdown code fences.";
    private static final Pattern FENCED = Pattern.compile("(?s)^```[a-zA-Z]*\\s*\\n(.*?)\\n?```$");

    private final AnthropicChatModel model;
    private final String baseUrl;
    private final String modelName;
    private final Duration timeout;

    public AnthropicLlm(LlmConfig config) {
        this(config.baseUrl(), config.apiKey(), config.model(), config.timeout());
    }

    public AnthropicLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        this.modelName = Objects.requireNonNull(modelName, "modelName");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.model = AnthropicChatModel.builder()
                .httpClientBuilder(LangChain4jSupport.http11(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey == null || apiKey.isBlank() ? LlmConfig.PLACEHOLDER_API_KEY : apiKey)
                .modelName(modelName)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries
                .build();
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        List<ChatMessage> messages = LangChain4jSupport.toChatMessages(request.messages());
        if (request.jsonMode()) {
            messages.add(0, SystemMessage.from(JSON_INSTRUCTION));
        }
        ChatRequest chat = ChatRequest.builder()
                .messages(messages)
                .temperature(request.temperature())
                .maxOutputTokens(request.maxTokens())
                .build();
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = model.chat(chat);
        } catch (RuntimeException e) {
            LlmException ex = LangChain4jSupport.translate(e, baseUrl, timeout);
            log.debug("Anthropic call failed: {}", ex.getMessage(), e);
            throw ex;
        }
        long latencyMs = (System.nanoTime() - start) / 1_000_000;
        LlmResponse out = LangChain4jSupport.toResponse(response, modelName, latencyMs);
        if (request.jsonMode()) {
            out = new LlmResponse(stripFence(out.text()), out.inputTokens(), out.outputTokens(), out.model(),
                    out.latencyMs(), false);
        }
        log.debug("{} answered in {} ms ({} in / {} out tokens)", describe(), latencyMs, out.inputTokens(),
                out.outputTokens());
        return out;
    }

    static String stripFence(String text) {
        Matcher m = FENCED.matcher(text.strip());
        return m.matches() ? m.group(1).strip() : text;
    }

    @Override
    public String describe() {
        return "anthropic " + modelName + " at " + baseUrl;
    }
}
