package dev.sift.llm;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;

/**
 * Any endpoint speaking the OpenAI chat-completions protocol: OpenAI itself, Ollama, vLLM, LM Studio,
 * LiteLLM... Sends POST {baseUrl}/chat/completions. Makes exactly one attempt; {@link RetryingLlm} retries.
 */
public final class OpenAiCompatibleLlm implements LlmClient {

    private static final Logger log = LoggerFactory.getLogger(OpenAiCompatibleLlm.class);

    private final OpenAiChatModel model;
    private final String baseUrl;
    private final String modelName;
    private final Duration timeout;

    public OpenAiCompatibleLlm(LlmConfig config) {
        this(config.baseUrl(), config.apiKey(), config.model(), config.timeout());
    }

    public OpenAiCompatibleLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        this.modelName = Objects.requireNonNull(modelName, "modelName");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.model = OpenAiChatModel.builder()
                .httpClientBuilder(LangChain4jSupport.http11(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey == null || apiKey.isBlank() ? LlmConfig.PLACEHOLDER_API_KEY : apiKey)
                .modelName(modelName)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries; library retries would multiply attempts and hide them
                .build();
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        ChatRequest.Builder chat = ChatRequest.builder()
                .messages(LangChain4jSupport.toChatMessages(request.messages()))
                .temperature(request.temperature())
                .maxOutputTokens(request.maxTokens());
        if (request.jsonMode()) {
            chat.responseFormat(ResponseFormat.JSON); // -> "response_format": {"type": "json_object"}
        }
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = model.chat(chat.build());
        } catch (RuntimeException e) {
            LlmException ex = LangChain4jSupport.translate(e, baseUrl, timeout);
            log.debug("OpenAI-compatible call failed: {}", ex.getMessage(), e);
            throw ex;
        }
        long latencyMs = (System.nanoTime() - start) / 1_000_000;
        LlmResponse out = LangChain4jSupport.toResponse(response, modelName, latencyMs);
        log.debug("{} answered in {} ms ({} in / {} out tokens)", describe(), latencyMs, out.inputTokens(),
                out.outputTokens());
        return out;
    }

    @Override
    public String describe() {
        return "openai-compatible " + modelName + " at " + baseUrl;
    }
}
