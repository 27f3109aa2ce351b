package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One step of a run as the trace keeps it. {@code observation} is exactly what the planner was shown next;
 * {@code tokens} is what deciding this step cost. Made through the factories, one per {@link Outcome}.
 */
public record Step(int index, Outcome outcome, String thought, String tool, JsonNode args, boolean ok,
                   String observation, String raw, long millis, Usage tokens) {

    public enum Outcome {
        /** The tool ran (it may still have reported an error). */
        RAN,
        /** The call was invalid and was sent back for repair. */
        INVALID,
        /** The call stayed invalid after repair and was dropped (a note says so). */
        DROPPED,
        /** The planner's reply could not be read. */
        UNREADABLE,
        /** A final answer stated numbers no result supports; it was sent back once for repair. */
        UNSUPPORTED
    }

    /** The call ran; {@code ok} is the tool's own verdict. */
    public static Step ran(int index, Decision.Call call, boolean ok, String observation, long millis, Usage tokens) {
        return new Step(index, Outcome.RAN, call.thought(), call.tool(), call.args(), ok, observation, call.raw(), millis,
                tokens);
    }

    /** The call did not validate and goes back to the planner for repair. */
    public static Step invalid(int index, Decision.Call call, String observation, long millis, Usage tokens) {
        return new Step(index, Outcome.INVALID, call.thought(), call.tool(), call.args(), false, observation, call.raw(),
                millis, tokens);
    }

    /** The call stayed invalid after repair and was dropped. */
    public static Step dropped(int index, Decision.Call call, String observation, long millis, Usage tokens) {
        return new Step(index, Outcome.DROPPED, call.thought(), call.tool(), call.args(), false, observation, call.raw(),
                millis, tokens);
    }

    /** The planner's reply could not be read; {@code problem} says why. */
    public static Step unreadable(int index, String problem, long millis, Usage tokens) {
        return new Step(index, Outcome.UNREADABLE, null, null, null, false, problem, null, millis, tokens);
    }
}
