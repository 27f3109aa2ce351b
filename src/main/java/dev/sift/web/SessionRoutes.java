package dev.sift.web;

import dev.sift.Sift;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.session.Conversation;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/** Sessions (create, list, read, delete) and the frames their turns made (list, paged rows, CSV). */
final class SessionRoutes {
    private static final int MAX_PAGE = 500;
    private static final int MAX_CSV_ROWS = 1_000_000;

    private final WebContext web;

    SessionRoutes(WebContext web) {
        this.web = web;
    }

    void register(RoutesConfig r) {
        r.get("/api/sessions", ctx -> ctx.json(web.sessions().list().stream().map(Views.SessionView::of).toList()));
        r.post("/api/sessions", this::create);
        r.get("/api/sessions/{id}", ctx -> ctx.json(Views.FullSession.of(web.sessionOf(ctx).session())));
        r.delete("/api/sessions/{id}", this::delete);
        r.get("/api/sessions/{id}/frames", ctx -> ctx.json(web.sessionOf(ctx).workspace().frames().stream()
                .map(Views.FrameView::of).toList()));
        r.get("/api/sessions/{id}/frames/{label}", this::frameRows);
        r.get("/api/sessions/{id}/frames/{label}/csv", this::frameCsv);
    }

    private void create(Context ctx) throws Exception {
        String dataset = Requests.object(ctx).path("dataset").asText(Sift.DEMO_DATASET);
        DatasetStore.checkName(dataset);
        if (web.sift().store().find(dataset).isEmpty() && !dataset.equals(Sift.DEMO_DATASET)) {
            throw web.noDataset(dataset);
        }
        Conversation c = web.sessions().create(dataset);
        web.sift().lastDataset().used(dataset);
        ctx.status(201).json(Views.FullSession.of(c.session()));
    }

    private void delete(Context ctx) throws Exception {
        if (!web.sessions().delete(ctx.pathParam("id"))) {
            throw ApiError.notFound(WebContext.noSession(ctx.pathParam("id")));
        }
        ctx.status(204);
    }

    private static TableInfo frame(Conversation c, String label) {
        return c.workspace().frames().stream().filter(t -> t.name().equals(label)).findFirst()
                .orElseThrow(() -> ApiError.notFound("Session has no frame '" + label + "'. Frames: " + String.join(", ",
                        c.workspace().frames().stream().map(TableInfo::name).toList()) + "."));
    }

    private void frameRows(Context ctx) throws Exception {
        Conversation c = web.sessionOf(ctx);
        TableInfo t = frame(c, ctx.pathParam("label"));
        int offset = Requests.intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = Requests.intParam(ctx, "limit", 50, 1, MAX_PAGE);
        QueryResult r = c.workspace().trustedQuery("SELECT * FROM memory.frames." + Sql.quoteIdent(t.name())
                + " LIMIT " + limit + " OFFSET " + offset, limit);
        ctx.json(new Views.FramePage(t.name(), t.rows(), offset, limit, r.columnNames(), r.rows()));
    }

    private void frameCsv(Context ctx) throws Exception {
        Conversation c = web.sessionOf(ctx);
        TableInfo t = frame(c, ctx.pathParam("label"));
        QueryResult r = c.workspace().trustedQuery("SELECT * FROM memory.frames." + Sql.quoteIdent(t.name())
                + " LIMIT " + MAX_CSV_ROWS, MAX_CSV_ROWS);
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"" + t.name() + ".csv\"");
        ctx.result(Csv.of(r.columnNames(), r.rows()));
    }
}
