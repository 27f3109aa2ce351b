package dev.sift.tool;

import dev.sift.data.FixableException;

/**
 * One action the planner may take. Arguments arrive bound and validated (names exist, SQL passed the
 * guard). A problem the planner can fix is thrown, one way: as a {@link FixableException} ({@link ToolCallException}
 * for a tool's own checks; a missing column, an ML precondition, a query over the time limit), which the registry
 * alone turns into the error result the planner sees; anything else thrown is a bug and fails the run.
 */
public interface Tool<A extends Record> {
    ToolSpec spec();

    /** Runs the call; {@link InterruptedException} when the run is cancelled while the tool waits (for a person). */
    ToolResult run(A args, ToolContext ctx) throws FixableException, InterruptedException;

    /**
     * Whether the tool computes with DuckDB's SQL over its source (profiles, correlations, trends): on a live
     * dataset the registry then runs it on a bounded sample of an engine table brought back as a frame
     * ({@link EngineSample}) rather than sending DuckDB SQL to the engine.
     */
    default boolean computesLocally() {
        return false;
    }

    /** Longest summary the planner sees from this tool; the schema overview needs more than a result does. */
    default int summaryCap() {
        return ToolRegistry.SUMMARY_CHARS;
    }
}
