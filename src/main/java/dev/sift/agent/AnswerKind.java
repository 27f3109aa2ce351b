package dev.sift.agent;

import java.util.Locale;

/** What kind of final message a run ends with. */
public enum AnswerKind {
    ANSWER, CLARIFICATION, DECLINED, ERROR;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a planner's "kind" field (absent means an answer); an unknown kind throws, so a reply that says
     * "definitely" is a reply error, not silently an answer.
     */
    public static AnswerKind fromWire(String s) {
        if (s == null || s.isBlank()) {
            return ANSWER;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "answer", "final", "final_answer" -> ANSWER;
            case "clarification", "clarify", "question" -> CLARIFICATION;
            case "declined", "decline", "refuse" -> DECLINED;
            default -> throw new IllegalArgumentException("Unknown \"kind\" '" + s.trim() + "': use \"answer\","
                    + " \"clarification\" or \"declined\" (or leave it out for an answer).");
        };
    }
}
