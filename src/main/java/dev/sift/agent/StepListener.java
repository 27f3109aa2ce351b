package dev.sift.agent;

import dev.sift.tool.ToolResult;

/**
 * Told about each step of a run as soon as it is made: the step as the trace keeps it and, when the tool
 * ran, its result (whose payload — rows, a chart spec — never enters a prompt). {@code null} otherwise.
 */
@FunctionalInterface
public interface StepListener {
    StepListener NONE = (step, result) -> { };

    void onStep(Step step, ToolResult result);

    /** Told once when the run begins, before its first step (its question, workspace and knowledge). */
    default void begin(RunState state) { }

    /** Told how far a long tool is (rows sent to the model so far of all); called often, from the run's thread. */
    default void progress(String stage, long done, long total) { }
}
