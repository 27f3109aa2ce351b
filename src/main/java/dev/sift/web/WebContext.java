package dev.sift.web;

import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.session.Conversation;
import dev.sift.session.SessionStore;
import dev.sift.session.Sessions;
import io.javalin.http.Context;

/** What the route classes share: the product, the server's options, its sessions, runs and metrics. */
record WebContext(Sift sift, WebServer.Options options, Sessions sessions, RunRegistry runs, Metrics metrics,
                  RunEvents events, EventLinks links) {

    /** The session named by the {@code {id}} path parameter, or 404. */
    Conversation sessionOf(Context ctx) throws Exception {
        String id = ctx.pathParam("id");
        if (!SessionStore.validId(id)) {
            throw ApiError.notFound(noSession(id));
        }
        return sessions.get(id).orElseThrow(() -> ApiError.notFound(noSession(id)));
    }

    static String noSession(String id) {
        return "No session '" + id + "'. List them with GET /api/sessions or create one with POST /api/sessions.";
    }

    ApiError noDataset(String name) throws Exception {
        return ApiError.notFound("No dataset '" + name + "'. Datasets: " + String.join(", ",
                sift.store().list().stream().map(Dataset::name).toList()) + ".");
    }
}
