package dev.sift.web;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.Step;
import dev.sift.agent.StepListener;
import dev.sift.data.EngineUnreachableException;
import dev.sift.session.Conversation;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.UUID;

/**
 * One question answered on a run thread: the conversation's turn, with every step, clarifying question and
 * the result emitted to the run's handle as it happens. An internal failure ends the run with a reference
 * to the log, never a stack trace.
 */
final class RunTask implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RunTask.class);

    private final Conversation conversation;
    private final Conversation.Engine engine;
    private final RunHandle handle;
    private final String question;
    private final AgentConfig config;
    private final Metrics metrics;
    private final RunEvents events;
    private final long clarifyTimeoutMillis;

    RunTask(Conversation conversation, Conversation.Engine engine, RunHandle handle, String question,
            AgentConfig config, Metrics metrics, RunEvents events, long clarifyTimeoutMillis) {
        this.conversation = conversation;
        this.engine = engine;
        this.handle = handle;
        this.question = question;
        this.config = config;
        this.metrics = metrics;
        this.events = events;
        this.clarifyTimeoutMillis = clarifyTimeoutMillis;
    }

    @Override
    public void run() {
        try {
            Conversation.Outcome o = conversation.ask(question, engine, config, new StepListener() {
                @Override
                public void onStep(Step step, ToolResult result) {
                    metrics.step(step);
                    handle.emit(events.step(step, result));
                }

                @Override
                public void progress(String stage, long done, long total) {
                    handle.emit(events.of("progress", new RunEvents.Progress(stage, done, total)));
                }
            }, clarifier(), res -> handle.emit(events.turn(res)));
            metrics.run(o.run());
            o.json().put("session_id", conversation.session().id());
            handle.answered(new RunHandle.Answered(o.session().dataset(), o.turn().question(), o.run()));
            handle.emit(events.of("result", new RunEvents.Result(o.json())));
            handle.finish(o.json(), 200, events.done());
        } catch (Exception | Error e) {
            String ref = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("Run {} failed (reference {})", handle.id(), ref, e);
            metrics.runError();
            boolean unreachable = e instanceof EngineUnreachableException;
            boolean ours = !(e instanceof IllegalArgumentException) && !unreachable;
            String message = ours ? "The run failed with an internal error (reference " + ref + ")."
                    : unreachable ? ((EngineUnreachableException) e).withoutAddress(ref) : e.getMessage();
            handle.emit(events.of("error", new RunEvents.Failed(message)));
            ObjectNode err = JsonNodeFactory.instance.objectNode().put("error", message);
            handle.finish(err, ours ? 500 : unreachable ? 503 : 400, events.done());
        }
    }

    /** Pauses the run until the person replies (or the default after the timeout). */
    private ToolContext.Clarifier clarifier() {
        return (String q, List<String> opts, String dflt) -> {
            handle.emit(events.of("clarify", new RunEvents.Clarify(q, dflt, opts)));
            String answer = handle.awaitReply(clarifyTimeoutMillis);
            handle.emit(events.of("clarified", new RunEvents.Clarified(answer == null ? dflt : answer,
                    answer == null ? "default" : "person")));
            return answer;
        };
    }
}
