package dev.sift.agent;

import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.text.Evidence;
import dev.sift.tool.ToolRegistry;

import java.util.List;
import java.util.function.Supplier;

/**
 * What a planner sees when it decides: the question, the steps so far, the tools and the data, the dataset's
 * knowledge (looked up on first use) and the conversation the run is a turn of.
 */
public record RunState(String question, List<Step> steps, ToolRegistry tools, Workspace workspace,
                       List<Evidence> evidence, TurnContext context, Supplier<Knowledge> knowledgeSource) {

    /** A run whose knowledge is built for it alone (no store shares it). */
    public RunState(String question, List<Step> steps, ToolRegistry tools, Workspace workspace, List<Evidence> evidence,
                    TurnContext context) {
        this(question, steps, tools, workspace, evidence, context, new KnowledgeStore(1).lazy(workspace));
    }

    /** A run outside a conversation (no earlier turns). */
    public RunState(String question, List<Step> steps, ToolRegistry tools, Workspace workspace, List<Evidence> evidence) {
        this(question, steps, tools, workspace, evidence, TurnContext.NONE);
    }

    /** The knowledge of the run's dataset. */
    public Knowledge knowledge() {
        return knowledgeSource.get();
    }

    public Step lastStep() {
        return steps.isEmpty() ? null : steps.get(steps.size() - 1);
    }
}
