package dev.sift.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Anthropic Messages API (POST {baseUrl}/messages). System messages travel in the top-level "system" field.
 *
 * <p>JSON mode: the Messages API has no schemaless "json_object" format (LangChain4j 1.19 throws
 * UnsupportedFeatureException for it), so we add a system instruction and strip a Markdown code fence
 * if the model wraps its JSON in one anyway.
 *
 * <p>Prompt caching: Anthropic caches only up to a block marked {@code cache_control: {"type": "ephemeral"}}.
 * The last system block (Sift's stable prefix: rules and the dataset's facts, the same for every question on a
 * dataset) is marked, and so is the last user or tool-result message, so each step of a run reads the conversation
 * so far from the cache (two of the four marks a request may carry). What was read and written comes back as
 * {@code cache_read_input_tokens} and {@code cache_creation_input_tokens}.
 */
public final class AnthropicLlm extends ChatModelLlm {
    static final String JSON_INSTRUCTION =
            "Respond with a single valid JSON object only: no prose before or after it, no Markdown code fences.";
    /** The message attribute LangChain4j's Anthropic mapper turns into a cache_control mark. */
    static final String CACHE_CONTROL = "cache_control";
    static final String EPHEMERAL = "ephemeral";
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
                .cacheSystemMessages(true)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries
                .build();
    }

    @Override
    protected ChatRequest toChatRequest(LlmRequest request) {
        List<ChatMessage> messages = markLastTurn(LangChain4jSupport.toChatMessages(request.messages()));
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

    /** The last user or tool-result message marked for caching: the next step's request starts with all of this one. */
    static List<ChatMessage> markLastTurn(List<ChatMessage> messages) {
        Map<String, Object> mark = Map.of(CACHE_CONTROL, EPHEMERAL);
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage u) {
                messages.set(i, u.toBuilder().attributes(mark).build());
                return messages;
            }
            if (messages.get(i) instanceof ToolExecutionResultMessage t) {
                messages.set(i, t.toBuilder().attributes(mark).build());
                return messages;
            }
        }
        return messages;
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
