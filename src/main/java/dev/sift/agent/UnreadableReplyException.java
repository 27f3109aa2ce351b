package dev.sift.agent;

/**
 * A planner's reply that could not be read as a decision, even after a correction. The message says what was
 * wrong with it (it is written for the model and ends up in the trace).
 */
public final class UnreadableReplyException extends Exception {
    public UnreadableReplyException(String message) {
        super(message);
    }
}
