package dev.sift.llm;

import java.util.Objects;

/** One chat turn sent to a model. */
public record LlmMessage(Role role, String content) {

    public enum Role { SYSTEM, USER, ASSISTANT }

    public LlmMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
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
}
