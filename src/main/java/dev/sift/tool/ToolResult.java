package dev.sift.tool;

import java.util.Map;

/**
 * A tool's outcome on two channels: {@code summary} is what the planner sees (short, capped);
 * {@code payload} is the rich result for people and later tools, and never enters a prompt.
 */
public record ToolResult(boolean ok, String summary, Object payload, String error, Map<String, Object> meta) {

    public static ToolResult ok(String summary, Object payload) {
        return new ToolResult(true, summary, payload, null, Map.of());
    }

    public static ToolResult ok(String summary, Object payload, Map<String, Object> meta) {
        return new ToolResult(true, summary, payload, null, meta);
    }

    /** A failure the planner can act on; {@code error} says what went wrong and what to do. */
    public static ToolResult error(String error) {
        return new ToolResult(false, "Error: " + error, null, error, Map.of());
    }
}
