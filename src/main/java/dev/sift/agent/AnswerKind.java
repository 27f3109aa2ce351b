package dev.sift.agent;

import java.util.Locale;

/** What kind of final message a run ends with. */
public enum AnswerKind {
    ANSWER, CLARIFICATION, DECLINED, ERROR;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a planner's "kind" field; anything unknown is an answer. */
    public static AnswerKind fromWire(String s) {
        if (s == null) {
            return ANSWER;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "clarification", "clarify", "question" -> CLARIFICATION;
            case "declined", "decline", "refuse" -> DECLINED;
            default -> ANSWER;
        };
    }
}
