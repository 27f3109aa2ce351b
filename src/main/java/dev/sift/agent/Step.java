package dev.sift.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One step of a run as the trace keeps it. {@code observation} is exactly what the planner was shown next;
 * {@code tokens} is what deciding this step cost.
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
}
