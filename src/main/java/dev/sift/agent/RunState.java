package dev.sift.agent;

import dev.sift.text.Evidence;
import dev.sift.tool.ToolRegistry;
import dev.sift.data.Workspace;

import java.util.List;

/** What a planner sees when it decides: the question, the steps so far, the tools and the data. */
public record RunState(String question, List<Step> steps, ToolRegistry tools, Workspace workspace,
                       List<Evidence> evidence, TurnContext context) {

    /** A run outside a conversation (no earlier turns). */
    public RunState(String question, List<Step> steps, ToolRegistry tools, Workspace workspace, List<Evidence> evidence) {
        this(question, steps, tools, workspace, evidence, TurnContext.NONE);
    }

    public Step lastStep() {
        return steps.isEmpty() ? null : steps.get(steps.size() - 1);
    }
}
