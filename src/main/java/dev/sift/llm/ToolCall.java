package dev.sift.llm;

import java.util.Objects;

/**
 * A tool call in a model's native form: the call's id (answered by the tool result that carries the same id),
 * the tool's name and its arguments as the JSON text the model wrote (read, and refused when malformed, by the
 * planner).
 */
public record ToolCall(String id, String name, String arguments) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        arguments = arguments == null ? "" : arguments;
    }
}
