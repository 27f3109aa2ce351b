package dev.sift.agent;

import dev.sift.llm.LlmException;

import java.util.Optional;

/**
 * Chooses the steps of a run; the loop's port, implemented by the planners. A planner never runs anything
 * itself: it returns decisions that the loop validates and executes. A planner is long-lived and holds nothing
 * of a run: {@link #begin} makes the object that plans one run, fixed for that run (its prompt, its tools, its
 * reading of the question).
 */
public interface Planner {
    /** "offline" or the model in use, for answers and traces. */
    String name();

    /** True when no language model is involved (answers are rule-based). */
    boolean offline();

    /** Starts planning the run whose state is {@code state} (no steps yet). */
    Run begin(RunState state);

    /** The planning of one run. */
    interface Run {
        /**
         * The next decision, given the steps so far. A model that cannot be reached throws {@link LlmException};
         * replies that stay unreadable after a correction throw {@link UnreadableReplyException}.
         */
        Decision next(RunState state) throws LlmException, UnreadableReplyException;

        /** Called once when the step budget is spent: the best final answer from what the run has. */
        Decision.Answer forceFinal(RunState state) throws LlmException, UnreadableReplyException;

        /** Tokens this run's planning has spent so far; none for planners without a model. */
        default Usage usage() {
            return Usage.NONE;
        }

        /**
         * The dataset facts and knowledge this run's prompt showed its model (row counts, variants, names, code
         * meanings), which an answer may cite; empty for planners without a prompt.
         */
        default java.util.List<String> reference() {
            return java.util.List.of();
        }

        /** The tools this run put in front of its model, and why; empty if none. */
        default Optional<ToolsShown> toolsShown() {
            return Optional.empty();
        }
    }
}
