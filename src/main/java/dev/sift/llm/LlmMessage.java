package dev.sift.llm;

import java.util.Objects;

/**
 * One chat turn sent to a model. {@code call} is set on an assistant turn that called a tool natively (its
 * {@code content} is then the model's accompanying text, possibly empty) and on the {@link Role#TOOL} turn that
 * answers it with the tool's result.
 */
public record LlmMessage(Role role, String content, ToolCall call) {

    public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

    public LlmMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        if (role == Role.TOOL && call == null) {
            throw new IllegalArgumentException("A tool result message needs the call it answers");
        }
        if (call != null && role != Role.ASSISTANT && role != Role.TOOL) {
            throw new IllegalArgumentException("Only assistant and tool messages carry a tool call, not " + role);
        }
    }

    public LlmMessage(Role role, String content) {
        this(role, content, null);
    }

    public static LlmMessage system(String content) {
        return new LlmMessage(Role.SYSTEM, content);
    }

    public static LlmMessage user(String content) {
        return new LlmMessage(Role.USER, content);
    }

    public static LlmMessage assistant(String content) {
        return new LlmMessage(Role.ASSISTANT, content);
    }

    /** The model's native tool call, with the text it wrote beside it (may be empty). */
    public static LlmMessage toolCall(String text, ToolCall call) {
        return new LlmMessage(Role.ASSISTANT, text == null ? "" : text, Objects.requireNonNull(call, "call"));
    }

    /** The result of {@code call}, sent back in the provider's tool-result form. */
    public static LlmMessage toolResult(ToolCall call, String result) {
        return new LlmMessage(Role.TOOL, result, call);
    }
}
