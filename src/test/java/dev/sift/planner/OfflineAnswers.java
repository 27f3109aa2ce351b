package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.TurnContext;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeStore;

import static org.assertj.core.api.Assertions.assertThat;

/** Asks the offline planner on a workspace and checks its answers against independently written SQL. */
final class OfflineAnswers {
    private final KnowledgeStore knowledge = new KnowledgeStore();

    AgentRun ask(Workspace ws, String question) throws Exception {
        return ask(ws, question, TurnContext.NONE);
    }

    /** Asks {@code question} as the turn {@code context} describes (a follow-up merged into the turn before). */
    AgentRun ask(Workspace ws, String question, TurnContext context) throws Exception {
        return new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults()).knowledge(knowledge)
                .context(context).run(question);
    }

    /** The answer's last evidence holds the rows {@code gold} returns, row for row. */
    AgentRun answers(Workspace ws, String question, String gold) throws Exception {
        return answers(ws, question, gold, TurnContext.NONE);
    }

    /** As {@link #answers(Workspace, String, String)}, for a turn asked in {@code context}. */
    AgentRun answers(Workspace ws, String question, String gold, TurnContext context) throws Exception {
        AgentRun run = ask(ws, question, context);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.ANSWER);
        var rows = run.evidence().get(run.evidence().size() - 1).rows();
        var expected = ws.query(gold).rows();
        assertThat(rows).as(run.answer()).hasSameSizeAs(expected);
        for (int r = 0; r < expected.size(); r++) {
            assertThat(rows.get(r)).as(run.answer()).containsAll(expected.get(r));
        }
        return run;
    }

    /** A question asked back, with nothing run. */
    AgentRun asksBack(Workspace ws, String question) throws Exception {
        AgentRun run = ask(ws, question);
        assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.CLARIFICATION);
        assertThat(run.evidence()).isEmpty();
        return run;
    }
}
