package dev.sift.web;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.InputStream;
import java.util.UUID;

/** Liveness, metrics, the OpenAPI description, and JSON errors for everything (never a stack trace). */
final class SystemRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(SystemRoutes.class);

    private final WebContext web;

    SystemRoutes(WebContext web) {
        this.web = web;
    }

    void register(RoutesConfig r) {
        r.exception(ApiError.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
        r.exception(IllegalArgumentException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        // a knowledge file that does not fit the data is the person's to fix: each problem names the entry and the fix
        r.exception(dev.sift.knowledge.KgException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
        r.exception(Exception.class, (e, ctx) -> {
            String ref = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("Internal error {} on {} {}", ref, ctx.method(), ctx.path(), e);
            error(ctx, 500, "Internal error (reference " + ref + "); the server log has the details.");
        });
        r.error(404, ctx -> {
            if (ctx.result() == null || !ctx.result().startsWith("{")) {
                error(ctx, 404, "No such endpoint: " + ctx.method() + " " + ctx.path() + ". See /api/openapi.json.");
            }
        });
        r.error(405, ctx -> error(ctx, 405, "Method " + ctx.method() + " is not allowed on " + ctx.path() + "."));

        boolean tokenSet = web.options().token() != null && !web.options().token().isBlank();
        r.get("/health", ctx -> ctx.json(Views.Health.of(web.sift().planner().name(), web.sessions().openCount(),
                tokenSet)));
        r.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                .result(web.metrics().render()));
        r.get("/api/openapi.json", ctx -> {
            try (InputStream in = SystemRoutes.class.getResourceAsStream("/web/openapi.json")) {
                ctx.contentType("application/json").result(in.readAllBytes());
            }
        });
    }

    static void error(Context ctx, int status, String message) {
        ctx.status(status).json(new Views.Error(message, status));
    }
}
