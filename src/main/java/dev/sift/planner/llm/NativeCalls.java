package dev.sift.planner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Decision;
import dev.sift.agent.Step;
import dev.sift.agent.UnreadableReplyException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmResponse;
import dev.sift.llm.ToolCall;
import dev.sift.llm.ToolDefinition;
import dev.sift.tool.Arg;
import dev.sift.tool.JsonSchemas;
import dev.sift.tool.Tool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The planner's side of native tool calling: the shown tools as tool definitions (their JSON Schemas derived
 * from the typed argument records, plus {@code final_answer} to finish), a native reply read into the same
 * {@link Decision} a JSON reply gives (so the registry validates it the same way), and earlier steps replayed
 * as tool calls answered by their observations. What cannot be read says why, in words for the model.
 */
public final class NativeCalls {
    public static final String FINAL_ANSWER = "final_answer";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FINAL_KEYS = Set.of("answer", "kind", "thought");

    /** The arguments of {@code final_answer}: its schema comes from this record, as every tool's does. */
    record FinalAnswerArgs(
            @Arg("the answer for the user (answer first, then the key numbers, then caveats), a precise clarifying"
                    + " question, or why the data cannot answer") String answer,
            @Arg(value = "answer (default), clarification (the run pauses for the user's reply) or declined",
                    required = false) String kind) { }

    static final String FINAL_DESCRIPTION = "Finish the run with the final answer, a clarifying question or a refusal.";

    private NativeCalls() { }

    /** The tool definitions offered with every request of a run: the shown tools, then {@code final_answer}. */
    public static List<ToolDefinition> definitions(Collection<? extends Tool<?>> shown) {
        List<ToolDefinition> out = new ArrayList<>();
        for (Tool<?> t : shown) {
            out.add(new ToolDefinition(t.spec().name(), t.spec().description(), JsonSchemas.of(t.spec().args())));
        }
        out.add(new ToolDefinition(FINAL_ANSWER, FINAL_DESCRIPTION, JsonSchemas.of(FinalAnswerArgs.class)));
        return out;
    }

    /** The catalog section when tools travel as definitions: their names (descriptions are in the definitions). */
    static String catalog(Collection<? extends Tool<?>> shown) {
        return "Offered as tool definitions (descriptions and parameters there): "
                + shown.stream().map(t -> t.spec().name()).collect(Collectors.joining(", ")) + "; "
                + FINAL_ANSWER + " to finish.";
    }

    /**
     * The decision a native reply makes. A reply without a tool call is read as a JSON reply when it holds a
     * JSON object (some servers put the call in the text); otherwise it is refused with what to do instead.
     */
    public static Decision read(LlmResponse reply) throws UnreadableReplyException {
        String thought = reply.text().isBlank() ? null : reply.text().strip();
        List<ToolCall> calls = reply.toolCalls();
        if (calls.isEmpty()) {
            if (DecisionParser.firstObject(reply.text()) == null) {
                throw new UnreadableReplyException("Your reply called no tool. Call exactly one of the tools offered,"
                        + " or " + FINAL_ANSWER + " to finish.");
            }
            return DecisionParser.parse(reply.text());
        }
        if (calls.size() > 1) {
            throw new UnreadableReplyException("Your reply called " + calls.size() + " tools at once ("
                    + calls.stream().map(ToolCall::name).collect(Collectors.joining(", "))
                    + "); none was run. Call one tool per reply and read its result before the next.");
        }
        ToolCall call = calls.get(0);
        JsonNode args = arguments(call);
        if (call.name().equals(FINAL_ANSWER)) {
            return finalAnswer(thought, args);
        }
        ObjectNode raw = JSON.createObjectNode();
        if (thought != null) {
            raw.put("thought", thought);
        }
        raw.put("tool", call.name()).set("args", args);
        return Decision.call(thought, call.name(), args, raw.toString());
    }

    private static JsonNode arguments(ToolCall call) throws UnreadableReplyException {
        if (call.arguments().isBlank()) {
            return JSON.createObjectNode(); // some servers send "" for a call without arguments
        }
        JsonNode args;
        try {
            args = JSON.readTree(call.arguments());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UnreadableReplyException("Your call to " + call.name() + " has arguments that are not valid JSON ("
                    + e.getOriginalMessage() + "); none was run. Send the arguments as one JSON object.");
        }
        if (!args.isObject()) {
            throw new UnreadableReplyException("Your call to " + call.name() + " has arguments that are a JSON "
                    + args.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + ", not an object; none was run. Send the arguments as one JSON object.");
        }
        return args;
    }

    private static Decision.Answer finalAnswer(String thought, JsonNode args) throws UnreadableReplyException {
        List<String> unknown = new ArrayList<>();
        args.fieldNames().forEachRemaining(f -> {
            if (!FINAL_KEYS.contains(f)) {
                unknown.add(f);
            }
        });
        if (!unknown.isEmpty()) {
            throw new UnreadableReplyException(FINAL_ANSWER + " takes \"answer\" and \"kind\"; it does not know "
                    + unknown.stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(", ")) + ".");
        }
        JsonNode answer = args.path("answer");
        if (!answer.isTextual() || answer.asText().isBlank()) {
            throw new UnreadableReplyException("Your " + FINAL_ANSWER + " call has no \"answer\" text: put the answer"
                    + " for the user (or your question, or why the data cannot answer) in it.");
        }
        AnswerKind kind;
        try {
            kind = AnswerKind.fromWire(args.path("kind").isTextual() ? args.get("kind").asText() : null);
        } catch (IllegalArgumentException e) {
            throw new UnreadableReplyException(e.getMessage());
        }
        String said = args.path("thought").isTextual() ? args.get("thought").asText() : thought;
        ObjectNode raw = JSON.createObjectNode();
        if (said != null) {
            raw.put("thought", said);
        }
        raw.put("final_answer", answer.asText()).put("kind", kind.wire());
        return Decision.answer(said, answer.asText(), kind, raw.toString());
    }

    /**
     * A step as the model sees it next turn: a call of an offered tool is replayed as that tool call answered by
     * its observation (the call's id is the step's, so request and result pair up); anything else (an unreadable
     * reply, an unknown tool, an answer sent back) as the reply's text and the observation.
     */
    public static void replay(Step s, Set<String> offered, List<LlmMessage> into) {
        replay(s, s.observation(), offered, into);
    }

    /** As above, with {@code observation} standing for the step's (an older step's shortened one). */
    public static void replay(Step s, String observation, Set<String> offered, List<LlmMessage> into) {
        if (s.tool() != null && s.args() != null && offered.contains(s.tool())) {
            ToolCall call = new ToolCall("call_" + s.index(), s.tool(), s.args().toString());
            into.add(LlmMessage.toolCall(s.thought(), call));
            into.add(LlmMessage.toolResult(call, observation));
        } else {
            into.add(LlmMessage.assistant(s.raw() == null ? "{}" : s.raw()));
            into.add(LlmMessage.user("Observation: " + observation));
        }
    }

    /** A reply that could not be used, as text, so the correction that follows has something to refer to. */
    public static String asText(LlmResponse reply) {
        StringBuilder b = new StringBuilder(reply.text().strip());
        for (ToolCall c : reply.toolCalls()) {
            b.append(b.length() == 0 ? "" : "\n").append("(called ").append(c.name()).append(" with arguments ")
                    .append(c.arguments().isBlank() ? "{}" : c.arguments()).append(')');
        }
        return b.length() == 0 ? "{}" : b.toString();
    }
}
