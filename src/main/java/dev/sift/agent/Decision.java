package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One planner decision: call a tool with arguments, or give the final answer. {@code raw} is the planner's
 * own text (kept for the trace and to replay the conversation to a model).
 */
public record Decision(String thought, String tool, JsonNode args, String finalAnswer, AnswerKind kind, String raw) {

    public static Decision call(String thought, String tool, JsonNode args, String raw) {
        return new Decision(thought, tool, args, null, null, raw);
    }

    public static Decision answer(String thought, String text, AnswerKind kind, String raw) {
        return new Decision(thought, null, null, text, kind, raw);
    }

    public boolean isFinal() {
        return finalAnswer != null;
    }
}
