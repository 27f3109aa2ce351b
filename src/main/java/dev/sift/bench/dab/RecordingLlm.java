package dev.sift.bench.dab;

import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every exchange of one task's run, prompts and raw replies as sent and received, for its trace file.
 * One instance per task run; thread-safe because the loop may call the model from a timeout thread.
 */
final class RecordingLlm implements LlmClient {
    /** One call: the messages sent, and the reply text or the error. */
    record Exchange(List<LlmMessage> messages, String reply, String error, int inputTokens, int outputTokens,
                    long latencyMs, boolean cached) { }

    private final LlmClient delegate;
    private final List<Exchange> exchanges = new ArrayList<>();

    RecordingLlm(LlmClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        try {
            LlmResponse r = delegate.complete(request);
            add(new Exchange(request.messages(), r.text(), null, r.inputTokens(), r.outputTokens(), r.latencyMs(), r.cached()));
            return r;
        } catch (LlmException | RuntimeException e) {
            add(new Exchange(request.messages(), null, String.valueOf(e.getMessage()), 0, 0, 0, false));
            throw e;
        }
    }

    private synchronized void add(Exchange e) {
        exchanges.add(e);
    }

    synchronized List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
