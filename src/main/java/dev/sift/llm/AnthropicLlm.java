package dev.sift.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Anthropic Messages API (POST {baseUrl}/messages). System messages travel in the top-level "system" field.
 *
 * <p>JSON mode: the Messages API has no schemaless "json_object" format (LangChain4j 1.19 throws
 * UnsupportedFeatureException for it), so we add a system instruction and strip a Markdown code fence
 * if the model wraps its JSON in one anyway.
 */
public final class AnthropicLlm extends ChatModelLlm {
    static final String JSON_INSTRUCTION =
            "Respond with a single valid JSON object only: no prose before or after it, no Markdown code fences.";
    private static final Pattern FENCED = Pattern.compile("(?s)^```[a-zA-Z]*\\s*\\n(.*?)\\n?```$");

    public AnthropicLlm(LlmConfig config) {
        this(config.baseUrl(), config.apiKey(), config.model(), config.timeout());
    }

    public AnthropicLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        super(baseUrl, apiKey, modelName, timeout);
    }

    @Override
    protected ChatModel buildModel(String apiKey) {
        return AnthropicChatModel.builder()
                .httpClientBuilder(LangChain4jSupport.http11(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .modelName(modelName)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries
                .build();
    }

    @Override
    protected ChatRequest toChatRequest(LlmRequest request) {
        List<ChatMessage> messages = LangChain4jSupport.toChatMessages(request.messages());
        if (request.jsonMode()) {
            messages.add(0, SystemMessage.from(JSON_INSTRUCTION));
        }
        ChatRequest.Builder chat = ChatRequest.builder()
                .messages(messages)
                .temperature(request.temperature())
                .maxOutputTokens(request.maxTokens());
        if (!request.tools().isEmpty()) {
            chat.toolSpecifications(LangChain4jSupport.toolSpecifications(request.tools())); // -> "tools": [...]
        }
        return chat.build();
    }

    @Override
    protected LlmResponse adjust(LlmResponse out, LlmRequest request) {
        return request.jsonMode() ? out.withText(stripFence(out.text())) : out;
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
