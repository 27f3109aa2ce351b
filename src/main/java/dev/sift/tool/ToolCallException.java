package dev.sift.tool;

import dev.sift.data.FixableException;

/** A tool call that cannot run as given; the message is written for the planner and says how to fix it. */
public final class ToolCallException extends FixableException {
    public ToolCallException(String message) {
        super(message);
    }
}
