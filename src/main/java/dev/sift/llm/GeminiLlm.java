package dev.sift.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;

import java.time.Duration;

/**
 * Google's Gemini API (POST {baseUrl}/models/{model}:generateContent, key in the x-goog-api-key header).
 * System messages travel in "systemInstruction"; JSON mode is Gemini's own "responseMimeType":
 * "application/json", so no fence stripping is needed.
 */
public final class GeminiLlm extends ChatModelLlm {

    public GeminiLlm(LlmConfig config) {
        this(config.baseUrl(), config.apiKey(), config.model(), config.timeout());
    }

    public GeminiLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        super(baseUrl, apiKey, modelName, timeout);
    }

    @Override
    protected ChatModel buildModel(String apiKey) {
        return GoogleAiGeminiChatModel.builder()
                .httpClientBuilder(LangChain4jSupport.http11(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .modelName(modelName)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries
                .build();
    }

    @Override
    public String describe() {
        return "gemini " + modelName + " at " + baseUrl;
    }
}
