package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One planner decision: call a tool with arguments, or give the final answer. {@code raw} is the planner's
 * own text (kept for the trace and to replay the conversation to a model); null for planners without a model.
 */
public sealed interface Decision permits Decision.Call, Decision.Answer {
    String thought();

    String raw();

    /** Run {@code tool} with {@code args} (validated by the registry before it runs). */
    record Call(String thought, String tool, JsonNode args, String raw) implements Decision { }

    /** End the run with {@code text}, an answer, a clarifying question or a refusal ({@code kind}). */
    record Answer(String thought, String text, AnswerKind kind, String raw) implements Decision {
        public Answer {
            if (text == null) {
                throw new IllegalArgumentException("A final answer needs a text");
            }
            kind = kind == null ? AnswerKind.ANSWER : kind;
        }
    }

    static Call call(String thought, String tool, JsonNode args, String raw) {
        return new Call(thought, tool, args, raw);
    }

    static Answer answer(String thought, String text, AnswerKind kind, String raw) {
        return new Answer(thought, text, kind, raw);
    }
}
