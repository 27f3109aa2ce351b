package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.RunJson;
import dev.sift.agent.Step;
import dev.sift.data.ColumnInfo;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.source.FileLoader;
import dev.sift.session.Conversation;
import dev.sift.session.Session;
import dev.sift.session.SessionStore;
import dev.sift.session.Sessions;
import dev.sift.session.Turn;
import io.javalin.Javalin;
import io.javalin.config.SizeUnit;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import io.javalin.http.staticfiles.Location;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The HTTP face of Sift: the app (static files from the jar), a REST API under {@code /api}, run events
 * as server-sent events, {@code /health} and {@code /metrics}. Closing it stops the server, the runs and
 * the open sessions. Binding beyond loopback requires a token; with a token set, every {@code /api} call
 * and {@code /metrics} needs it ({@code Authorization: Bearer …}, {@code X-Sift-Token}, or {@code ?token=}
 * for event streams and downloads, which browsers cannot give headers).
 */
public final class WebServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SAFE_FILE = Pattern.compile("[^A-Za-z0-9._ -]");
    private static final int MAX_PAGE = 500;
    private static final int MAX_CSV_ROWS = 1_000_000;

    /** Where and how to serve. {@code port} 0 picks a free port. */
    public record Options(String host, int port, String token, long maxUploadBytes, int runThreads,
                          long clarifyTimeoutMillis, int maxOpenSessions) {
        public static Options defaults() {
            return new Options("127.0.0.1", 7860, null, 100L * 1024 * 1024, 16, 10 * 60_000L, 64);
        }

        public Options withPort(int p) {
            return new Options(host, p, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions);
        }

        public Options withHost(String h) {
            return new Options(h, port, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions);
        }

        public Options withToken(String t) {
            return new Options(host, port, t, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions);
        }

        public Options withMaxUploadBytes(long n) {
            return new Options(host, port, token, n, runThreads, clarifyTimeoutMillis, maxOpenSessions);
        }

        public Options withClarifyTimeoutMillis(long n) {
            return new Options(host, port, token, maxUploadBytes, runThreads, n, maxOpenSessions);
        }
    }

    private final Sift sift;
    private final Options options;
    private final Sessions sessions;
    private final Metrics metrics;
    private final Map<String, RunHandle> runs = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RunHandle> eldest) {
            return size() > 2000 && eldest.getValue().done();
        }
    };
    private final ExecutorService pool;
    private final Javalin app;

    private WebServer(Sift sift, Options options) {
        this.sift = sift;
        this.options = options;
        this.sessions = sift.sessions(options.maxOpenSessions());
        this.metrics = new Metrics(sift.meters(), sift.tools().names(), sessions::openCount);
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(options.runThreads(), r -> {
            Thread t = new Thread(r, "sift-run-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.jetty.host = options.host();
            cfg.jetty.port = options.port();
            cfg.http.maxRequestSize = Math.max(1_000_000L, options.maxUploadBytes() + 1_000_000L);
            cfg.jetty.multipartConfig.maxTotalRequestSize(options.maxUploadBytes(), SizeUnit.BYTES);
            cfg.jetty.multipartConfig.maxFileSize(options.maxUploadBytes(), SizeUnit.BYTES);
            cfg.staticFiles.add("/web", Location.CLASSPATH);
            routes(cfg);
        });
    }

    /** Starts a server; refuses to bind beyond loopback without a token. */
    public static WebServer start(Sift sift, Options options) throws IOException {
        boolean loopback = InetAddress.getByName(options.host()).isLoopbackAddress();
        if (!loopback && (options.token() == null || options.token().isBlank())) {
            throw new IllegalArgumentException("Serving on " + options.host() + " (beyond this machine) needs a token:"
                    + " set SIFT_TOKEN, and give it to the people who may use Sift.");
        }
        WebServer s = new WebServer(sift, options);
        s.app.start();
        return s;
    }

    public int port() {
        return app.port();
    }

    public String url() {
        String h = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        return "http://" + h + ":" + port();
    }

    @Override
    public void close() {
        app.stop();
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sessions.close();
        metrics.close();
    }

    // ---------------------------------------------------------------------------------------------- routes

    private void routes(io.javalin.config.JavalinConfig cfg) {
        var r = cfg.routes;
        r.before(RequestGuard::headers);
        r.before(RequestGuard::checkOrigin);
        r.before("/api/*", this::authorize);
        r.before("/metrics", this::authorize);
        r.after(ctx -> metrics.request(ctx.statusCode()));
        r.exception(ApiError.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
        r.exception(IllegalArgumentException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
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

        r.get("/health", ctx -> json(ctx, JSON.createObjectNode().put("status", "ok")
                .put("planner", sift.planner().name()).put("open_sessions", sessions.openCount())));
        r.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                .result(metrics.render()));
        r.get("/api/openapi.json", ctx -> {
            try (InputStream in = WebServer.class.getResourceAsStream("/web/openapi.json")) {
                ctx.contentType("application/json").result(in.readAllBytes());
            }
        });

        r.get("/api/datasets", this::listDatasets);
        r.post("/api/datasets", this::uploadDataset);
        r.get("/api/datasets/{name}/samples", this::samples);

        r.get("/api/sessions", this::listSessions);
        r.post("/api/sessions", this::createSession);
        r.get("/api/sessions/{id}", ctx -> json(ctx, sessionJson(session(ctx).session(), true)));
        r.delete("/api/sessions/{id}", ctx -> {
            if (!sessions.delete(ctx.pathParam("id"))) {
                throw ApiError.notFound(noSession(ctx.pathParam("id")));
            }
            ctx.status(204);
        });
        r.post("/api/sessions/{id}/ask", this::ask);
        r.get("/api/sessions/{id}/frames", this::listFrames);
        r.get("/api/sessions/{id}/frames/{label}", this::frameRows);
        r.get("/api/sessions/{id}/frames/{label}/csv", this::frameCsv);

        r.get("/api/runs/{id}", this::runResult);
        r.get("/api/runs/{id}/events", this::runEvents);
        r.get("/api/runs/{id}/report.html", ctx -> {
            RunHandle h = run(ctx);
            if (!h.done() || h.status() != 200) {
                throw new ApiError(409, "Run '" + h.id() + "' has no answer to report yet.");
            }
            ctx.contentType("text/html; charset=utf-8").header("Content-Disposition", "attachment; filename=\"sift-report.html\"")
                    .result(Report.html(h.result()));
        });
        r.post("/api/runs/{id}/reply", this::reply);
    }

    private void authorize(Context ctx) {
        if (options.token() == null || options.token().isBlank()) {
            return;
        }
        String given = ctx.header("X-Sift-Token");
        String auth = ctx.header("Authorization");
        if (given == null && auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            given = auth.substring(7).trim();
        }
        if (given == null) {
            given = ctx.queryParam("token");
        }
        if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                options.token().getBytes(StandardCharsets.UTF_8))) {
            throw new ApiError(401, "A valid token is required: send 'Authorization: Bearer <SIFT_TOKEN>'"
                    + " (or ?token= for event streams and downloads).");
        }
    }

    // -------------------------------------------------------------------------------------------- datasets

    private void listDatasets(Context ctx) throws Exception {
        sift.dataset(Sift.DEMO_DATASET, Progress.NONE); // the demo exists from the first call on
        ArrayNode out = JSON.createArrayNode();
        for (Dataset d : sift.store().list()) {
            out.add(datasetJson(d));
        }
        json(ctx, out);
    }

    private static ObjectNode datasetJson(Dataset d) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", d.name());
        o.put("description", d.description());
        o.put("built_at", d.builtAt());
        ArrayNode t = o.putArray("tables");
        d.tables().forEach(s -> t.addObject().put("name", s.name()).put("rows", s.rows()));
        return o;
    }

    private void uploadDataset(Context ctx) throws Exception {
        long declared = ctx.req().getContentLengthLong();
        if (declared > options.maxUploadBytes()) {
            throw new ApiError(413, "The upload is " + declared + " bytes; the limit is " + options.maxUploadBytes()
                    + " bytes.");
        }
        String name = ctx.formParam("name");
        if (name == null || name.isBlank()) {
            throw ApiError.badRequest("Give the new dataset a 'name' (lowercase letters, digits and '_').");
        }
        DatasetStore.checkName(name);
        List<UploadedFile> files = ctx.uploadedFiles("files");
        if (files.isEmpty()) {
            throw ApiError.badRequest("Attach one or more files as 'files' (CSV, TSV, Parquet, JSON or JSON lines).");
        }
        Path dir = Files.createTempDirectory("sift-upload-");
        try {
            List<Path> saved = new ArrayList<>();
            long total = 0;
            for (UploadedFile f : files) {
                String clean = sanitizeFileName(f.filename());
                Path target = dir.resolve(clean).normalize();
                if (!target.getParent().equals(dir) || Files.exists(target)) {
                    throw ApiError.badRequest("File name '" + f.filename() + "' is not usable (duplicate or not a plain name).");
                }
                try (InputStream in = f.content()) {
                    total += Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                if (total > options.maxUploadBytes()) {
                    throw new ApiError(413, "The upload is over the limit of " + options.maxUploadBytes() + " bytes.");
                }
                saved.add(target);
            }
            Dataset d = sift.store().ensure(name, new FileLoader(saved), Progress.NONE);
            ctx.status(201);
            json(ctx, datasetJson(d));
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A plain file name: no folders, no leading dots, only safe characters. */
    static String sanitizeFileName(String raw) {
        String base = raw == null ? "" : raw.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        base = SAFE_FILE.matcher(base).replaceAll("_").replaceFirst("^[._ ]+", "").trim();
        if (base.isEmpty() || base.length() > 120) {
            throw ApiError.badRequest("File name '" + raw + "' is not usable: give the file a plain name such as"
                    + " 'sales.csv'.");
        }
        return base;
    }

    private void samples(Context ctx) throws Exception {
        String name = ctx.pathParam("name");
        Dataset d = sift.store().find(name).orElseThrow(() -> ApiError.notFound("No dataset '" + name + "'. Datasets: "
                + String.join(", ", sift.store().list().stream().map(Dataset::name).toList()) + "."));
        json(ctx, JSON.valueToTree(SampleQuestions.of(d)));
    }

    // -------------------------------------------------------------------------------------------- sessions

    private void listSessions(Context ctx) throws Exception {
        ArrayNode out = JSON.createArrayNode();
        for (Session s : sessions.list()) {
            out.add(sessionJson(s, false));
        }
        json(ctx, out);
    }

    private void createSession(Context ctx) throws Exception {
        JsonNode body = body(ctx);
        String dataset = body.path("dataset").asText(Sift.DEMO_DATASET);
        DatasetStore.checkName(dataset);
        if (sift.store().find(dataset).isEmpty() && !dataset.equals(Sift.DEMO_DATASET)) {
            throw ApiError.notFound("No dataset '" + dataset + "'. Datasets: " + String.join(", ",
                    sift.store().list().stream().map(Dataset::name).toList()) + ".");
        }
        Conversation c = sessions.create(dataset);
        ctx.status(201);
        json(ctx, sessionJson(c.session(), true));
    }

    private static ObjectNode sessionJson(Session s, boolean full) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", s.id());
        o.put("dataset", s.dataset());
        o.put("title", s.title());
        o.put("created_at", s.createdAt());
        o.put("updated_at", s.updatedAt());
        o.put("turn_count", s.turns().size());
        if (full) {
            ArrayNode turns = o.putArray("turns");
            for (Turn t : s.turns()) {
                ObjectNode j = turns.addObject();
                j.put("index", t.index());
                j.put("asked", t.asked());
                j.put("question", t.question());
                j.put("kind", t.kind().wire());
                j.set("references", JSON.valueToTree(t.references()));
                j.put("run_id", t.runId());
                j.put("status", t.status());
                j.set("result", t.result());
            }
            o.set("frames", JSON.valueToTree(s.frames()));
        }
        return o;
    }

    private Conversation session(Context ctx) throws Exception {
        String id = ctx.pathParam("id");
        if (!SessionStore.validId(id)) {
            throw ApiError.notFound(noSession(id));
        }
        return sessions.get(id).orElseThrow(() -> ApiError.notFound(noSession(id)));
    }

    private static String noSession(String id) {
        return "No session '" + id + "'. List them with GET /api/sessions or create one with POST /api/sessions.";
    }

    // ------------------------------------------------------------------------------------------------- runs

    private void ask(Context ctx) throws Exception {
        Conversation c = session(ctx);
        JsonNode body = body(ctx);
        String question = body.path("question").asText("").trim();
        if (question.isEmpty()) {
            throw ApiError.badRequest("The question is empty: send {\"question\": \"How many loans are there?\"}.");
        }
        if (question.length() > 2000) {
            throw ApiError.badRequest("The question is " + question.length() + " characters; the limit is 2000.");
        }
        int maxSteps = body.path("max_steps").asInt(AgentConfig.DEFAULT_MAX_STEPS);
        AgentConfig config = AgentConfig.defaults().withMaxSteps(maxSteps);
        if (c.busy()) {
            throw new ApiError(409, "This session is answering another question; wait for it to finish.");
        }
        RunHandle h = new RunHandle(UUID.randomUUID().toString(), c.session().id());
        synchronized (runs) {
            runs.put(h.id(), h);
        }
        h.emit(event("started").put("question", question).put("session_id", c.session().id()));
        pool.submit(() -> execute(c, h, question, config));
        ctx.status(202);
        json(ctx, JSON.createObjectNode().put("run_id", h.id()).put("session_id", c.session().id())
                .put("events", "/api/runs/" + h.id() + "/events").put("result", "/api/runs/" + h.id()));
    }

    private void execute(Conversation c, RunHandle h, String question, AgentConfig config) {
        try {
            Conversation.Outcome o = c.ask(question, sift.engine(), config, (step, result) -> {
                metrics.step(step);
                h.emit(stepEvent(step, result));
            }, (q, opts, dflt) -> {
                h.emit(event("clarify").put("question", q).put("default_option", dflt)
                        .set("options", JSON.valueToTree(opts)));
                String answer = h.awaitReply(options.clarifyTimeoutMillis());
                h.emit(event("clarified").put("answer", answer == null ? dflt : answer)
                        .put("answered_by", answer == null ? "default" : "person"));
                return answer;
            }, res -> h.emit(event("turn").put("kind", res.kind().wire()).put("question", res.question())
                    .put("resolved_by", res.resolvedBy()).set("references", JSON.valueToTree(res.references()))));
            metrics.run(o.run());
            o.json().put("session_id", c.session().id());
            h.emit(event("result").set("result", o.json()));
            h.finish(o.json(), 200, event("done"));
        } catch (Exception | Error e) {
            String ref = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("Run {} failed (reference {})", h.id(), ref, e);
            metrics.runError();
            ObjectNode err = JSON.createObjectNode().put("error", e instanceof IllegalArgumentException
                    ? e.getMessage() : "The run failed with an internal error (reference " + ref + ").");
            h.emit(event("error").put("error", err.get("error").asText()));
            h.finish(err, e instanceof IllegalArgumentException ? 400 : 500, event("done"));
        }
    }

    private static ObjectNode event(String type) {
        return JSON.createObjectNode().put("type", type);
    }

    /** A live step: the step exactly as the run's JSON maps it ({@link RunJson#step}), plus its chart if any. */
    private static ObjectNode stepEvent(Step s, dev.sift.tool.ToolResult result) {
        ObjectNode e = event("step");
        e.setAll(RunJson.step(s));
        if (result != null) {
            result.chart().ifPresent(spec -> e.set("chart", spec));
        }
        return e;
    }

    private RunHandle run(Context ctx) {
        String id = ctx.pathParam("id");
        synchronized (runs) {
            RunHandle h = runs.get(id);
            if (h == null) {
                throw ApiError.notFound("No run '" + id + "' in this server (runs are kept in memory; a session's"
                        + " turns keep their results: GET /api/sessions/{id}).");
            }
            return h;
        }
    }

    private void runResult(Context ctx) {
        RunHandle h = run(ctx);
        if (!h.done()) {
            ctx.status(202);
            json(ctx, JSON.createObjectNode().put("run_id", h.id()).put("state", h.waiting() ? "waiting_for_reply" : "running"));
            return;
        }
        ctx.status(h.status());
        json(ctx, h.result());
    }

    /** Server-sent events: every event of the run in order (from Last-Event-ID on), then the stream ends. */
    private void runEvents(Context ctx) throws Exception {
        RunHandle h = run(ctx);
        int from = 0;
        String last = ctx.header("Last-Event-ID");
        if (last != null && last.matches("\\d{1,9}")) {
            from = Integer.parseInt(last) + 1;
        }
        var res = ctx.res();
        res.setStatus(200);
        res.setContentType("text/event-stream");
        res.setCharacterEncoding("UTF-8");
        res.setHeader("Cache-Control", "no-cache");
        res.setHeader("X-Accel-Buffering", "no");
        OutputStream out = res.getOutputStream();
        out.write(": sift run events\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        while (true) {
            List<ObjectNode> batch = h.eventsFrom(from, 15_000);
            if (batch.isEmpty()) {
                if (h.done() && from >= h.eventCount()) {
                    break;
                }
                out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                continue;
            }
            for (ObjectNode e : batch) {
                String data = JSON.writeValueAsString(e);
                out.write(("id: " + e.get("seq").asInt() + "\nevent: " + e.get("type").asText() + "\ndata: " + data
                        + "\n\n").getBytes(StandardCharsets.UTF_8));
                from = e.get("seq").asInt() + 1;
                if ("done".equals(e.get("type").asText())) {
                    out.flush();
                    return;
                }
            }
            out.flush();
        }
    }

    private void reply(Context ctx) throws Exception {
        RunHandle h = run(ctx);
        String answer = body(ctx).path("answer").asText("").trim();
        if (answer.isEmpty()) {
            throw ApiError.badRequest("The reply is empty: send {\"answer\": \"…\"} (one of the options offered).");
        }
        if (!h.reply(answer)) {
            throw new ApiError(409, "Run '" + h.id() + "' is not waiting for a reply.");
        }
        json(ctx, JSON.createObjectNode().put("run_id", h.id()).put("accepted", answer));
    }

    // ----------------------------------------------------------------------------------------------- frames

    private void listFrames(Context ctx) throws Exception {
        Conversation c = session(ctx);
        ArrayNode out = JSON.createArrayNode();
        for (TableInfo t : c.workspace().frames()) {
            ObjectNode o = out.addObject().put("label", t.name()).put("rows", t.rows());
            ArrayNode cols = o.putArray("columns");
            for (ColumnInfo col : t.columns()) {
                cols.addObject().put("name", col.name()).put("type", col.type());
            }
        }
        json(ctx, out);
    }

    private TableInfo frame(Conversation c, String label) {
        return c.workspace().frames().stream().filter(t -> t.name().equals(label)).findFirst()
                .orElseThrow(() -> ApiError.notFound("Session has no frame '" + label + "'. Frames: " + String.join(", ",
                        c.workspace().frames().stream().map(TableInfo::name).toList()) + "."));
    }

    private void frameRows(Context ctx) throws Exception {
        Conversation c = session(ctx);
        TableInfo t = frame(c, ctx.pathParam("label"));
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = intParam(ctx, "limit", 50, 1, MAX_PAGE);
        QueryResult r = c.workspace().trustedQuery("SELECT * FROM memory.frames." + Sql.quoteIdent(t.name())
                + " LIMIT " + limit + " OFFSET " + offset, limit);
        ObjectNode o = JSON.createObjectNode();
        o.put("label", t.name());
        o.put("total", t.rows());
        o.put("offset", offset);
        o.put("limit", limit);
        o.set("columns", JSON.valueToTree(r.columnNames()));
        o.set("rows", JSON.valueToTree(r.rows()));
        json(ctx, o);
    }

    private void frameCsv(Context ctx) throws Exception {
        Conversation c = session(ctx);
        TableInfo t = frame(c, ctx.pathParam("label"));
        QueryResult r = c.workspace().trustedQuery("SELECT * FROM memory.frames." + Sql.quoteIdent(t.name())
                + " LIMIT " + MAX_CSV_ROWS, MAX_CSV_ROWS);
        ctx.contentType("text/csv; charset=utf-8");
        ctx.header("Content-Disposition", "attachment; filename=\"" + t.name() + ".csv\"");
        ctx.result(Csv.of(r.columnNames(), r.rows()));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static int intParam(Context ctx, String name, int dflt, int min, int max) {
        String v = ctx.queryParam(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("'" + name + "' must be a whole number from " + min + " to " + max + ", got '" + v + "'.");
        }
    }

    private static JsonNode body(Context ctx) {
        String b = ctx.body();
        if (b == null || b.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode n = JSON.readTree(b);
            if (!n.isObject()) {
                throw ApiError.badRequest("The request body must be a JSON object.");
            }
            return n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiError.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static void json(Context ctx, JsonNode node) {
        try {
            ctx.contentType("application/json").result(JSON.writeValueAsString(node));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void error(Context ctx, int status, String message) {
        ctx.status(status);
        json(ctx, JSON.createObjectNode().put("error", message).put("status", status));
    }

    Optional<RunHandle> findRun(String id) {
        synchronized (runs) {
            return Optional.ofNullable(runs.get(id));
        }
    }
}
