package dev.sift.llm;

/** Something that turns an {@link LlmRequest} into an {@link LlmResponse}. Implementations must be thread-safe. */
public interface LlmClient {

    LlmResponse complete(LlmRequest request) throws LlmException;

    /** Human-readable identity, e.g. "openai-compatible gpt-4o-mini at http://host/v1". Also part of cache keys. */
    String describe();

    /**
     * The provider and model without the endpoint's address ({@code describe()} up to " at "): what errors shown
     * to users name, since an address may hold a host or credentials. The address goes to the log only.
     */
    default String label() {
        String d = describe();
        int at = d.indexOf(" at ");
        return at < 0 ? d : d.substring(0, at);
    }
}
