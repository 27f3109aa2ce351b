package dev.sift.llm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/** Builds the client stack for a config: provider client, wrapped by RetryingLlm, wrapped by CachingLlm. */
public final class LlmClients {

    private static final Logger log = LoggerFactory.getLogger(LlmClients.class);

    private LlmClients() {
    }

    /** Empty when the config's provider is "none". */
    public static Optional<LlmClient> fromConfig(LlmConfig c) {
        if (!c.enabled()) {
            log.debug("{}", c.describe());
            return Optional.empty();
        }
        LlmClient provider = switch (c.provider()) {
            case LlmConfig.OPENAI -> new OpenAiCompatibleLlm(c);
            case LlmConfig.ANTHROPIC -> new AnthropicLlm(c);
            case LlmConfig.GEMINI -> new GeminiLlm(c);
            default -> throw new IllegalArgumentException("LLM provider '" + c.provider() + "' is not supported");
        };
        // Cache outside retries: a cache hit must not consume an attempt or wait on the timeout executor.
        LlmClient retrying = new RetryingLlm(provider, c.baseUrl(), c.timeout(), c.retries());
        LlmClient cached = new CachingLlm(retrying, CachingLlm.DEFAULT_MAX_ENTRIES, c.diskCacheDir());
        log.info("LLM: {}", c.describe());
        return Optional.of(cached);
    }
}
