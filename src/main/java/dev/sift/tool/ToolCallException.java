package dev.sift.tool;

/** A tool call that cannot run as given; the message is written for the planner and says how to fix it. */
public final class ToolCallException extends Exception {
    public ToolCallException(String message) {
        super(message);
    }
}
