package dev.sift.agent;

import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Grounding;
import dev.sift.agent.grounding.ReferenceIndex;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;

import java.util.ArrayList;
import java.util.List;

/**
 * The answer check as a run makes it, and again from a saved trace: the same texts (question, what the run was
 * shown, the reference its grounding record keeps) and the same evidence, so a replay reaches the run's verdict.
 */
public final class AnswerReplay {
    private AnswerReplay() { }

    /** The text the planner was shown besides result tables, the reference and the literals: the observations. */
    static List<String> texts(List<Step> steps) {
        List<String> texts = new ArrayList<>();
        for (Step s : steps) {
            if (s.outcome() == Step.Outcome.RAN && s.ok()) {
                texts.add(s.observation());
            }
        }
        return texts;
    }

    /** What bounds what the run asked for: the question and the arguments of the calls that ran. */
    static List<String> literals(String question, List<Step> steps) {
        List<String> literals = new ArrayList<>();
        literals.add(question == null ? "" : question);
        for (Step s : steps) {
            if (s.outcome() == Step.Outcome.RAN && s.ok() && s.args() != null) {
                literals.add(s.args().toString());
            }
        }
        return literals;
    }

    /** The knowledge graph's names for values: each entry's phrases and description (codes and their meanings). */
    static String names(Knowledge k) {
        StringBuilder b = new StringBuilder();
        for (KgEntry e : k.graph().entries()) {
            e.phrases().forEach(p -> b.append(p).append('\n'));
            b.append(e.describe()).append('\n');
        }
        return b.toString();
    }

    /** The check of a saved run's answer, as the run made it (knowledge-graph names beyond the prompt aside). */
    public static AnswerCheck.Result check(AgentRun run) {
        return check(run, reference(run));
    }

    /** The reference texts a saved run's prompt showed, to index once for several checks of its answers. */
    public static ReferenceIndex reference(AgentRun run) {
        return new ReferenceIndex(run.grounding().reference());
    }

    /** As {@link #check(AgentRun)}, with the run's {@link #reference} indexed before. */
    public static AnswerCheck.Result check(AgentRun run, ReferenceIndex reference) {
        String answer = run.answer() == null ? "" : run.answer();
        return Grounding.CHECK_ONLY.check(answer, run.evidence(), texts(run.steps()),
                literals(run.question(), run.steps()), reference, null, run.kind() == AnswerKind.CLARIFICATION || run.kind() == AnswerKind.DECLINED);
    }
}
