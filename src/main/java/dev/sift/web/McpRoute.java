package dev.sift.web;

import dev.sift.mcp.McpHttpEndpoint;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * MCP's Streamable HTTP at {@code /mcp}, under the server's rules: the Host and Origin checks every route has (a page
 * of another site cannot post here, nor reach it by DNS rebinding), the token when one is set, JSON bodies only, at
 * most {@link #MAX_BODY} bytes, and at most a set number of calls at once (later ones wait up to
 * {@link #WAIT_SECONDS}, then get 503). The protocol itself is {@link McpHttpEndpoint}'s.
 */
final class McpRoute {
    static final int MAX_BODY = 1_000_000;
    static final int WAIT_SECONDS = 10;

    private final McpHttpEndpoint endpoint;
    private final TokenAuth auth;
    private final Semaphore calls;
    private final int limit;

    McpRoute(McpHttpEndpoint endpoint, TokenAuth auth, int concurrentCalls) {
        this.endpoint = endpoint;
        this.auth = auth;
        this.limit = concurrentCalls;
        this.calls = new Semaphore(concurrentCalls, true);
    }

    void register(RoutesConfig r) {
        r.before("/mcp", auth::authorize);
        r.post("/mcp", this::post);
        r.get("/mcp", McpRoute::postOnly);
        r.delete("/mcp", McpRoute::postOnly);
    }

    /** No server-to-client stream and no protocol session to end: the transport is stateless. */
    private static void postOnly(Context ctx) {
        ctx.header("Allow", "POST");
        throw new ApiError(405, "This MCP endpoint answers each POST with one JSON response; it opens no event stream"
                + " and keeps no protocol session (Sift's sessions are named in ask's 'session' argument).");
    }

    private void post(Context ctx) throws Exception {
        String type = ctx.header("Content-Type");
        String base = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        if (!base.equals("application/json")) {
            throw new ApiError(415, "MCP messages are JSON: send 'Content-Type: application/json' (got "
                    + (type == null ? "none" : "'" + type + "'") + ").");
        }
        String body = body(ctx);
        if (!calls.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
            ctx.header("Retry-After", "5");
            throw new ApiError(503, limit + " MCP calls are running, the most this server takes at once; retry in a"
                    + " few seconds.");
        }
        try {
            McpHttpEndpoint.Reply reply = endpoint.post(ctx.header("Accept"), body);
            ctx.status(reply.status());
            if (reply.json() != null) {
                ctx.contentType("application/json").result(reply.json());
            }
        } finally {
            calls.release();
        }
    }

    private static String body(Context ctx) throws IOException {
        long declared = ctx.req().getContentLengthLong();
        if (declared > MAX_BODY) {
            throw tooLarge();
        }
        try (InputStream in = ctx.req().getInputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw tooLarge();
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static ApiError tooLarge() {
        return new ApiError(413, "An MCP message may be at most " + MAX_BODY + " bytes; ask shorter questions or send"
                + " shorter SQL.");
    }
}
