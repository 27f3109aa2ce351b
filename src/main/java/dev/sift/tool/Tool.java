package dev.sift.tool;

/**
 * One action the planner may take. Arguments arrive bound and validated (names exist, SQL passed the
 * guard). Return {@link ToolResult#error} for problems the planner can fix; throw only for bugs.
 */
public interface Tool<A extends Record> {
    ToolSpec spec();

    ToolResult run(A args, ToolContext ctx) throws Exception;

    /** Longest summary the planner sees from this tool; the schema overview needs more than a result does. */
    default int summaryCap() {
        return ToolRegistry.SUMMARY_CHARS;
    }
}
