package dev.sift.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A deterministic stand-in for a model: replays canned answers in order (or computes them with a function)
 * and records every request. Used by tests of other packages and by the CLI for replays.
 * Token counts are a rough estimate (characters / 4, rounded up) so budget code sees non-zero usage.
 */
public final class ScriptedLlm implements LlmClient {

    private final List<String> script;
    private final Function<LlmRequest, String> responder;
    private final List<LlmRequest> requests = new ArrayList<>();
    private int served;

    public ScriptedLlm(List<String> responses) {
        this.script = List.copyOf(responses);
        this.responder = null;
    }

    public ScriptedLlm(String... responses) {
        this(List.of(responses));
    }

    public ScriptedLlm(Function<LlmRequest, String> responder) {
        this.script = null;
        this.responder = Objects.requireNonNull(responder, "responder");
    }

    @Override
    public synchronized LlmResponse complete(LlmRequest request) throws LlmException {
        requests.add(request);
        String text;
        if (responder != null) {
            text = responder.apply(request);
            if (text == null) {
                throw new LlmException("ScriptedLlm function returned no response for turn " + (served + 1));
            }
        } else {
            if (served >= script.size()) {
                throw new LlmException("ScriptedLlm ran out of turns after " + script.size() + " responses");
            }
            text = script.get(served);
        }
        served++;
        int in = request.messages().stream().mapToInt(m -> estimateTokens(m.content())).sum();
        return new LlmResponse(text, in, estimateTokens(text), "scripted", 0, false);
    }

    /** Every request received so far, in order, including the one that exhausted the script. */
    public synchronized List<LlmRequest> requests() {
        return List.copyOf(requests);
    }

    /** The most recent request, or null if none. */
    public synchronized LlmRequest lastRequest() {
        return requests.isEmpty() ? null : requests.get(requests.size() - 1);
    }

    /** Responses served so far. */
    public synchronized int served() {
        return served;
    }

    @Override
    public String describe() {
        return script != null ? "scripted (" + script.size() + " canned responses)" : "scripted (function)";
    }

    private static int estimateTokens(String s) {
        return (s.length() + 3) / 4;
    }
}
