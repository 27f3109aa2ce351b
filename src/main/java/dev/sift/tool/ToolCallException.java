package dev.sift.tool;

import dev.sift.data.FixableException;

/**
 * A tool call that cannot run as given, found by the registry's checks or by the tool itself; the message is
 * written for the planner and says how to fix it. The registry turns it into what the planner sees.
 */
public final class ToolCallException extends FixableException {
    public ToolCallException(String message) {
        super(message);
    }
}
