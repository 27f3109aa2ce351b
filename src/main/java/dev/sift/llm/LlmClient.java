package dev.sift.llm;

/** Something that turns an {@link LlmRequest} into an {@link LlmResponse}. Implementations must be thread-safe. */
public interface LlmClient {

    LlmResponse complete(LlmRequest request) throws LlmException;

    /** Human-readable identity, e.g. "openai-compatible gpt-4o-mini at http://host/v1". Also part of cache keys. */
    String describe();
}
