package dev.sift.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.RunJson;
import dev.sift.agent.Step;
import dev.sift.session.Resolution;
import dev.sift.tool.ToolResult;

import java.util.List;

/**
 * The events of a run's stream, each {@code {"type": …, "seq": n, …}}: started, turn, step (the step exactly
 * as {@link RunJson#step} maps it, plus its chart), clarify, clarified, progress (a long tool's rows done of all), result or
 * error, done.
 */
final class RunEvents {
    record Started(String question, @JsonProperty("session_id") String sessionId) { }

    record TurnResolved(String kind, String question, @JsonProperty("resolved_by") String resolvedBy,
                        List<String> references) { }

    record Clarify(String question, @JsonProperty("default_option") String defaultOption, List<String> options) { }

    record Clarified(String answer, @JsonProperty("answered_by") String answeredBy) { }

    /** How far a long tool is (rows sent to the model of all). */
    record Progress(String stage, long done, long total) { }

    record Result(JsonNode result) { }

    record Failed(String error) { }

    private final ObjectMapper json;

    RunEvents(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode of(String type, Object payload) {
        ObjectNode e = json.createObjectNode().put("type", type);
        if (payload != null) {
            e.setAll((ObjectNode) json.valueToTree(payload));
        }
        return e;
    }

    ObjectNode started(String question, String sessionId) {
        return of("started", new Started(question, sessionId));
    }

    ObjectNode turn(Resolution r) {
        return of("turn", new TurnResolved(r.kind().wire(), r.question(), r.resolvedBy(), r.references()));
    }

    /** A live step: the step as the run's JSON maps it, plus its chart if any. */
    ObjectNode step(Step s, ToolResult result) {
        ObjectNode e = of("step", null);
        e.setAll(RunJson.step(s));
        if (result != null) {
            result.chart().ifPresent(spec -> e.set("chart", spec));
        }
        return e;
    }

    ObjectNode done() {
        return of("done", null);
    }
}
