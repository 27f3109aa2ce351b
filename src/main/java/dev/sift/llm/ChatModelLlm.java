package dev.sift.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;

/**
 * A provider reached through a LangChain4j {@link ChatModel}. The call, timing, error translation and
 * logging live here once; a provider supplies its model and, where its protocol differs, shapes the
 * request and the reply. Makes exactly one attempt: {@link RetryingLlm} retries.
 */
abstract class ChatModelLlm implements LlmClient {
    private static final Logger log = LoggerFactory.getLogger(ChatModelLlm.class);

    protected final String baseUrl;
    protected final String modelName;
    protected final Duration timeout;
    private final ChatModel model;

    ChatModelLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        this.modelName = Objects.requireNonNull(modelName, "modelName");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.model = buildModel(apiKey == null || apiKey.isBlank() ? LlmConfig.PLACEHOLDER_API_KEY : apiKey);
    }

    /** The provider's model, configured with one attempt and our timeout. */
    protected abstract ChatModel buildModel(String apiKey);

    /**
     * The provider's form of the request. By default JSON mode is the library's JSON response format (OpenAI's
     * {@code response_format: json_object}, Gemini's {@code responseMimeType: application/json}) and tools go as
     * tool specifications; a provider whose protocol differs overrides this.
     */
    protected ChatRequest toChatRequest(LlmRequest request) {
        ChatRequest.Builder chat = ChatRequest.builder()
                .messages(LangChain4jSupport.toChatMessages(request.messages()))
                .temperature(request.temperature())
                .maxOutputTokens(request.maxTokens());
        if (request.jsonMode()) {
            chat.responseFormat(ResponseFormat.JSON);
        }
        if (!request.tools().isEmpty()) {
            chat.toolSpecifications(LangChain4jSupport.toolSpecifications(request.tools()));
        }
        return chat.build();
    }

    /** Post-processing of a reply; most providers need none. */
    protected LlmResponse adjust(LlmResponse response, LlmRequest request) {
        return response;
    }

    @Override
    public final LlmResponse complete(LlmRequest request) throws LlmException {
        ChatRequest chat = toChatRequest(request);
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = model.chat(chat);
        } catch (RuntimeException e) {
            LlmException ex = LangChain4jSupport.translate(e, label(), timeout);
            log.warn("{} call failed: {}", describe(), ex.getMessage()); // the address, which users are not shown
            log.debug("{} call failed", describe(), e);
            throw ex;
        }
        long latencyMs = (System.nanoTime() - start) / 1_000_000;
        LlmResponse out = adjust(LangChain4jSupport.toResponse(response, modelName, latencyMs), request);
        log.debug("{} answered in {} ms ({} in / {} out tokens)", describe(), latencyMs, out.inputTokens(),
                out.outputTokens());
        return out;
    }
}
