package dev.sift.planner.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.UnreadableReplyException;

/**
 * Reads a model's reply into a {@link Decision}, forgiving the usual noise: code fences, prose before or
 * after the object, trailing commas, single quotes, arguments given as a JSON string, and common key
 * spellings ({@code action}/{@code action_input}, {@code name}/{@code arguments}, {@code answer}). A reply
 * holding more than one JSON object is refused as ambiguous, never read from its first object. Why a reply
 * could not be read is the exception's message, sent back to the model as a correction.
 */
public final class DecisionParser {
    private static final ObjectMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_SINGLE_QUOTES,
                    JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE).build();

    private DecisionParser() { }

    public static Decision parse(String reply) throws UnreadableReplyException {
        if (reply == null || reply.isBlank()) {
            throw new UnreadableReplyException("Your reply was empty.");
        }
        String json = firstObject(reply);
        if (json == null) {
            throw new UnreadableReplyException("Your reply contained no JSON object.");
        }
        if (anotherObject(reply.substring(reply.indexOf(json) + json.length()))) {
            // Reading the first one would let a JSON object quoted from the data stand in for the decision.
            throw new UnreadableReplyException("Your reply held more than one JSON object, so it is ambiguous which one is your"
                    + " decision; none was used.");
        }
        JsonNode node;
        try {
            node = LENIENT.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UnreadableReplyException("Your reply's JSON does not parse: " + e.getOriginalMessage());
        }
        String thought = text(node, "thought", "thoughts", "reasoning");
        String answer = text(node, "final_answer", "answer", "finalAnswer");
        if (answer != null && answer.isBlank()) {
            throw new UnreadableReplyException("Your \"final_answer\" is empty: put the answer for the user (or your"
                    + " question, or why the data cannot answer) in it.");
        }
        if (answer != null) {
            AnswerKind kind;
            try {
                kind = AnswerKind.fromWire(text(node, "kind"));
            } catch (IllegalArgumentException e) {
                throw new UnreadableReplyException(e.getMessage());
            }
            return Decision.answer(thought, answer, kind, reply);
        }
        String tool = text(node, "tool", "action", "name", "tool_name");
        if (tool == null) {
            throw new UnreadableReplyException("Your JSON object has neither \"tool\" nor \"final_answer\".");
        }
        JsonNode args = first(node, "args", "arguments", "action_input", "parameters", "input");
        if (args != null && args.isNull()) {
            args = null; // "args": null means no arguments, as a missing key does
        }
        if (args != null && args.isTextual()) {
            String s = args.asText().trim();
            if (s.startsWith("{")) {
                try {
                    args = LENIENT.readTree(s);
                } catch (Exception e) {
                    throw new UnreadableReplyException("Your \"args\" string is not a JSON object: " + e.getMessage());
                }
            }
        }
        return Decision.call(thought, tool.trim(), args == null ? LENIENT.createObjectNode() : args, reply);
    }

    /** True when the text holds a further balanced {...} that reads as a JSON object (prose braces do not count). */
    private static boolean anotherObject(String rest) {
        String candidate = firstObject(rest);
        while (candidate != null) {
            try {
                if (LENIENT.readTree(candidate).isObject()) {
                    return true;
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                // not JSON: prose that happens to hold braces
            }
            rest = rest.substring(rest.indexOf(candidate) + 1);
            candidate = firstObject(rest);
        }
        return false;
    }

    private static String text(JsonNode node, String... keys) {
        JsonNode v = first(node, keys);
        return v == null || v.isNull() ? null : v.isValueNode() ? v.asText() : v.toString();
    }

    private static JsonNode first(JsonNode node, String... keys) {
        for (String k : keys) {
            if (node.has(k)) {
                return node.get(k);
            }
        }
        return null;
    }

    /** The first balanced {...} in the text, skipping braces inside strings. */
    static String firstObject(String s) {
        int start = s.indexOf('{');
        while (start >= 0) {
            int depth = 0;
            char quote = 0;
            for (int i = start; i < s.length(); i++) {
                char c = s.charAt(i);
                if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    return s.substring(start, i + 1);
                }
            }
            start = s.indexOf('{', start + 1);
        }
        return null;
    }
}
