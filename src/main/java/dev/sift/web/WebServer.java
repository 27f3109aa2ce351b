package dev.sift.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.SiftConfig;
import dev.sift.mcp.McpHttpEndpoint;
import dev.sift.mcp.SiftMcp;
import dev.sift.session.Sessions;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.config.SizeUnit;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * The HTTP face of Sift: the app (static files from the jar), a REST API under {@code /api}, run events
 * as server-sent events, {@code /health}, {@code /metrics} and MCP at {@code /mcp} ({@link McpRoute}). Closing it stops the server, the runs and
 * the open sessions. Binding beyond loopback requires a token; with a token set, every {@code /api} call
 * and {@code /metrics} needs it ({@code Authorization: Bearer …} or {@code X-Sift-Token}; event streams,
 * which browsers open without headers, take a signed link instead: {@link EventLinks}). Other sites cannot
 * drive it: {@link RequestGuard}. The routes live in
 * {@link SystemRoutes}, {@link DatasetRoutes}, {@link SourceRoutes}, {@link SessionRoutes}, {@link RunRoutes} and {@link KnowledgeRoutes}.
 */
public final class WebServer implements AutoCloseable {

    /**
     * Where and how to serve. {@code port} 0 picks a free port; {@code allowedHosts} are extra host names the
     * server may be reached by (besides loopback names and the bound host).
     */
    public record Options(String host, int port, String token, long maxUploadBytes, int runThreads,
                          long clarifyTimeoutMillis, int maxOpenSessions, List<String> allowedHosts,
                          long maxJsonBytes) {
        public Options {
            allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
        }

        public static Options defaults() {
            return new Options("127.0.0.1", 7860, null, 100L * 1024 * 1024, 16, 10 * 60_000L, 64, List.of(),
                    SiftConfig.DEFAULT_MAX_JSON_BYTES);
        }

        public Options withPort(int p) {
            return new Options(host, p, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions,
                    allowedHosts, maxJsonBytes);
        }

        public Options withHost(String h) {
            return new Options(h, port, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions,
                    allowedHosts, maxJsonBytes);
        }

        public Options withToken(String t) {
            return new Options(host, port, t, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions,
                    allowedHosts, maxJsonBytes);
        }

        public Options withMaxUploadBytes(long n) {
            return new Options(host, port, token, n, runThreads, clarifyTimeoutMillis, maxOpenSessions, allowedHosts, maxJsonBytes);
        }

        public Options withClarifyTimeoutMillis(long n) {
            return new Options(host, port, token, maxUploadBytes, runThreads, n, maxOpenSessions, allowedHosts, maxJsonBytes);
        }

        /** The largest JSON request body (413 beyond it, from Content-Length or while it streams). */
        public Options withMaxJsonBytes(long n) {
            return new Options(host, port, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions,
                    allowedHosts, n);
        }

        public Options withAllowedHosts(List<String> names) {
            return new Options(host, port, token, maxUploadBytes, runThreads, clarifyTimeoutMillis, maxOpenSessions,
                    names, maxJsonBytes);
        }
    }

    private final Options options;
    private final WebContext web;
    private final String csrf;
    private final Javalin app;
    private final McpHttpEndpoint mcp;
    private final Path multipart;

    private WebServer(Sift sift, Options options) throws IOException {
        this.options = options;
        this.multipart = Files.createDirectories(Leftovers.multipartFolder(sift.home().resolve("tmp")));
        ObjectMapper json = new ObjectMapper();
        Sessions sessions = sift.sessions(options.maxOpenSessions());
        SecureRandom random = new SecureRandom();
        Metrics metrics = new Metrics(sift.meters(), sift.tools().names(), sessions::openCount);
        this.web = new WebContext(sift, options, sessions, new RunRegistry(options.runThreads(), metrics::queued),
                metrics, new RunEvents(json), new EventLinks(random, Clock.systemUTC()));
        byte[] csrf = new byte[24];
        random.nextBytes(csrf);
        this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(csrf);
        this.mcp = new McpHttpEndpoint(new SiftMcp(sift, sessions, false)); // MCP sessions are the app's sessions
        this.app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.jsonMapper(new JavalinJackson(json, false));
            cfg.jetty.host = options.host();
            cfg.jetty.port = options.port();
            cfg.http.maxRequestSize = Math.max(1_000_000L, options.maxUploadBytes() + 1_000_000L);
            cfg.jetty.multipartConfig.maxTotalRequestSize(options.maxUploadBytes(), SizeUnit.BYTES);
            cfg.jetty.multipartConfig.maxFileSize(options.maxUploadBytes(), SizeUnit.BYTES);
            cfg.jetty.multipartConfig.cacheDirectory(multipart.toString()); // found again after a crash: Leftovers
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
        Leftovers.clean(sift.home().resolve("tmp"), Instant.now()); // uploads a killed server left
        Leftovers.clean(Path.of(System.getProperty("java.io.tmpdir")), Instant.now()); // spill folders, old uploads
        WebServer s = new WebServer(sift, options);
        s.app.start();
        return s;
    }

    private void routes(JavalinConfig cfg) {
        var r = cfg.routes;
        TokenAuth auth = new TokenAuth(options.token());
        RequestGuard guard = new RequestGuard(options.host(), options.allowedHosts(), csrf);
        r.before(RequestGuard::headers);
        r.before(guard::checkHost);
        r.before(guard::checkOrigin);
        r.before("/api/*", ctx -> {
            if (!web.links().admits(ctx)) {
                auth.authorize(ctx);
            }
            guard.checkCsrf(ctx);
            RequestGuard.checkContentType(ctx);
            Requests.limitBody(ctx, options.maxJsonBytes());
        });
        r.before("/metrics", auth::authorize);
        AppPage page = new AppPage(csrf);
        r.get("/", page::serve);
        r.get("/index.html", page::serve);
        r.get("/api/csrf", ctx -> ctx.json(new Views.Csrf(csrf, RequestGuard.CSRF_HEADER)));
        r.after(ctx -> web.metrics().request(ctx.statusCode()));
        new SystemRoutes(web).register(r);
        new DatasetRoutes(web).register(r);
        new SourceRoutes(web, new Uploads(options.maxUploadBytes(), web.sift().home().resolve("tmp"))).register(r);
        new SessionRoutes(web).register(r);
        new RunRoutes(web).register(r);
        new KnowledgeRoutes(web).register(r);
        new McpRoute(mcp, auth, options.runThreads()).register(r);
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
        mcp.shutdown();
        web.runs().close();
        web.sessions().close();
        web.metrics().close();
        try {
            Leftovers.delete(multipart);
        } catch (IOException e) {
            org.slf4j.LoggerFactory.getLogger(WebServer.class).warn("Could not remove {}: {}", multipart, e.getMessage());
        }
    }
}
