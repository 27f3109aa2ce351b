package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AgentConfig;
import dev.sift.session.Conversation;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;

import java.util.List;
import java.util.UUID;

/** Asking a question and following its run: start (202), result, event stream, reply to a clarify, report. */
final class RunRoutes {
    private static final long KEEP_ALIVE_MILLIS = 15_000;

    private final WebContext web;

    RunRoutes(WebContext web) {
        this.web = web;
    }

    void register(RoutesConfig r) {
        r.post("/api/sessions/{id}/ask", this::ask);
        r.get("/api/runs/{id}", this::result);
        r.before("/api/runs/{id}/events", this::beforeStream);
        r.sse("/api/runs/{id}/events", this::events);
        r.get("/api/runs/{id}/report.html", this::report);
        r.post("/api/runs/{id}/reply", this::reply);
    }

    private void ask(Context ctx) throws Exception {
        Conversation c = web.sessionOf(ctx);
        JsonNode body = Requests.object(ctx);
        String question = body.path("question").asText("").trim();
        if (question.isEmpty()) {
            throw ApiError.badRequest("The question is empty: send {\"question\": \"How many loans are there?\"}.");
        }
        if (question.length() > 2000) {
            throw ApiError.badRequest("The question is " + question.length() + " characters; the limit is 2000.");
        }
        AgentConfig config = AgentConfig.defaults()
                .withMaxSteps(body.path("max_steps").asInt(AgentConfig.DEFAULT_MAX_STEPS));
        if (c.busy()) {
            throw new ApiError(409, "This session is answering another question; wait for it to finish.");
        }
        String sessionId = c.session().id();
        web.sift().lastDataset().used(c.session().dataset());
        RunHandle h = new RunHandle(UUID.randomUUID().toString(), sessionId);
        h.emit(web.events().started(question, sessionId));
        web.runs().start(h, new RunTask(c, web.sift().engine(), h, question, config, web.metrics(), web.events(),
                web.options().clarifyTimeoutMillis()));
        ctx.status(202).json(new Views.Started(h.id(), sessionId, "/api/runs/" + h.id() + "/events",
                "/api/runs/" + h.id(), web.links().url(h.id())));
    }

    private void result(Context ctx) {
        RunHandle h = web.runs().require(ctx.pathParam("id"));
        if (!h.done()) {
            ctx.status(202).json(new Views.Pending(h.id(), h.waiting() ? "waiting_for_reply" : "running"));
            return;
        }
        ctx.status(h.status()).json(h.result());
    }

    /** Refusals must come before the stream's 200 and headers: an unknown run, a client that is no event reader. */
    private void beforeStream(Context ctx) {
        web.runs().require(ctx.pathParam("id"));
        String accept = ctx.header("Accept");
        if (accept == null || !accept.contains("text/event-stream")) {
            throw new ApiError(406, "This is a server-sent event stream: send 'Accept: text/event-stream'"
                    + " (EventSource does).");
        }
    }

    /** Every event of the run in order (from Last-Event-ID on), keep-alive comments while idle, then the end. */
    private void events(SseClient client) {
        Context ctx = client.ctx();
        RunHandle h = web.runs().require(ctx.pathParam("id"));
        String last = ctx.header("Last-Event-ID");
        int from = last != null && last.matches("\\d{1,9}") ? Integer.parseInt(last) + 1 : 0;
        client.sendComment("sift run events");
        try {
            while (!client.terminated()) {
                List<ObjectNode> batch = h.eventsFrom(from, KEEP_ALIVE_MILLIS);
                if (batch.isEmpty()) {
                    if (h.done() && from >= h.eventCount()) {
                        return;
                    }
                    client.sendComment("keep-alive");
                    continue;
                }
                for (ObjectNode e : batch) {
                    from = e.get("seq").asInt() + 1;
                    client.sendEvent(e.get("type").asText(), e, String.valueOf(from - 1));
                    if ("done".equals(e.get("type").asText())) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reply(Context ctx) {
        RunHandle h = web.runs().require(ctx.pathParam("id"));
        String answer = Requests.object(ctx).path("answer").asText("").trim();
        if (answer.isEmpty()) {
            throw ApiError.badRequest("The reply is empty: send {\"answer\": \"…\"} (one of the options offered).");
        }
        if (!h.reply(answer)) {
            throw new ApiError(409, "Run '" + h.id() + "' is not waiting for a reply.");
        }
        ctx.json(new Views.Accepted(h.id(), answer));
    }

    private void report(Context ctx) {
        RunHandle h = web.runs().require(ctx.pathParam("id"));
        if (!h.done() || h.status() != 200) {
            throw new ApiError(409, "Run '" + h.id() + "' has no answer to report yet.");
        }
        ctx.contentType("text/html; charset=utf-8") // a file to keep: its inline scripts run sandboxed if opened here
                .header("Content-Security-Policy", "sandbox allow-scripts; default-src 'none'; script-src"
                        + " 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:")
                .header("Content-Disposition", "attachment; filename=\"sift-report.html\"")
                .result(Report.html(h.result()));
    }
}
