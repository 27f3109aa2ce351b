package dev.sift.agent;

import dev.sift.agent.Decision;
import dev.sift.agent.RunState;
import dev.sift.agent.Usage;

/**
 * Chooses the next step of a run. A planner never runs anything itself: it returns a decision that the
 * loop validates and executes. Planner errors (a dead model endpoint, unreadable replies) are thrown.
 */
public interface Planner {
    /** "offline" or the model in use, for answers and traces. */
    String name();

    /** True when no language model is involved (answers are rule-based). */
    boolean offline();

    Decision next(RunState state) throws Exception;

    /** Called once when the step budget is spent: the best final answer from what the run has. */
    Decision forceFinal(RunState state) throws Exception;

    /** Tokens spent so far by this planner (cumulative); none for planners without a model. */
    default Usage usage() {
        return Usage.NONE;
    }

    /** The tools this planner put in front of its model for the current run, and why; empty if none. */
    default java.util.Optional<dev.sift.agent.ToolsShown> toolsShown() {
        return java.util.Optional.empty();
    }
}
