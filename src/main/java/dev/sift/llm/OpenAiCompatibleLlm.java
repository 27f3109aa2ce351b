package dev.sift.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

import java.time.Duration;

/**
 * Any endpoint speaking the OpenAI chat-completions protocol: OpenAI itself, Ollama, vLLM, LM Studio,
 * llama.cpp server, LiteLLM... Sends POST {baseUrl}/chat/completions.
 */
public final class OpenAiCompatibleLlm extends ChatModelLlm {

    public OpenAiCompatibleLlm(LlmConfig config) {
        this(config.baseUrl(), config.apiKey(), config.model(), config.timeout());
    }

    public OpenAiCompatibleLlm(String baseUrl, String apiKey, String modelName, Duration timeout) {
        super(baseUrl, apiKey, modelName, timeout);
    }

    @Override
    protected ChatModel buildModel(String apiKey) {
        return OpenAiChatModel.builder()
                .httpClientBuilder(LangChain4jSupport.http11(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .modelName(modelName)
                .timeout(timeout)
                .maxRetries(0) // RetryingLlm owns retries; library retries would multiply attempts and hide them
                .build();
    }

    @Override
    public String describe() {
        return "openai-compatible " + modelName + " at " + baseUrl;
    }
}
