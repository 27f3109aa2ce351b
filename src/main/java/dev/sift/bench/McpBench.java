package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.session.SessionStore;
import dev.sift.web.WebServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N MCP clients (the official SDK's Streamable HTTP client) against {@code /mcp} of a local server, offline planner:
 * each initializes, then calls {@code ask} with the sample questions in turn, continuing its own session, all clients
 * at once (they start together). Prints p50/p95/max latency of an ask call and the errors: a call that failed, came
 * back as an error result, or ended without an answer. The sessions the bench made are removed afterwards.
 */
public final class McpBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Sift sift;
    private final int clients;
    private final int questions;

    public McpBench(Sift sift, int clients, int questions) {
        this.sift = sift;
        this.clients = clients;
        this.questions = questions;
    }

    public ServeBench.Result run() throws Exception {
        Set<String> made = ConcurrentHashMap.newKeySet();
        List<Long> lat = Collections.synchronizedList(new ArrayList<>());
        List<String> errs = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger errors = new AtomicInteger();
        long wall;
        try (WebServer server = WebServer.start(sift, WebServer.Options.defaults().withPort(0))) {
            // one warm-up client so the first measured call does not pay for class loading and the dataset's knowledge
            client(server.url(), 1, new CountDownLatch(0), made, new ArrayList<>(), new AtomicInteger(), new ArrayList<>());
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            long t0 = System.nanoTime();
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    fs.add(pool.submit(() -> client(server.url(), questions, go, made, lat, errors, errs)));
                }
                go.countDown();
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            wall = (System.nanoTime() - t0) / 1_000_000;
        }
        SessionStore store = sift.sessionStore(); // the bench's sessions are not the user's
        for (String id : made) {
            store.delete(id);
        }
        return new ServeBench.Result(clients, questions, List.copyOf(lat), errors.get(), errs.stream().limit(5).toList(),
                wall);
    }

    private static Void client(String url, int questions, CountDownLatch go, Set<String> made, List<Long> lat,
                               AtomicInteger errors, List<String> errs) throws InterruptedException {
        var transport = HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp")
                .jsonMapper(new JacksonMcpJsonMapper(JSON)).build();
        try (McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build()) {
            c.initialize();
            go.await();
            String session = null;
            for (int q = 0; q < questions; q++) {
                String question = ServeBench.QUESTIONS.get(q % ServeBench.QUESTIONS.size());
                Map<String, Object> args = new HashMap<>(Map.of("question", question));
                if (session != null) {
                    args.put("session", session);
                }
                long t = System.nanoTime();
                CallToolResult r = c.callTool(new CallToolRequest("ask", args));
                long ms = (System.nanoTime() - t) / 1_000_000;
                session = answered(question, r);
                made.add(session);
                lat.add(ms);
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            errors.incrementAndGet();
            errs.add(String.valueOf(e.getMessage()));
        }
        return null;
    }

    /** The session of an answered call; throws when the call did not answer. */
    private static String answered(String question, CallToolResult r) {
        if (Boolean.TRUE.equals(r.isError()) || !(r.structuredContent() instanceof Map<?, ?> s)) {
            throw new IllegalStateException("'" + question + "' came back as an error: " + r.content());
        }
        if ("failed".equals(s.get("status")) || "error".equals(s.get("kind"))) {
            throw new IllegalStateException("'" + question + "' ended without an answer: " + s.get("answer"));
        }
        return String.valueOf(s.get("session"));
    }

    public void print(ServeBench.Result r, PrintWriter out) {
        int n = r.latenciesMillis().size();
        out.printf("%d concurrent MCP clients × %d ask calls, offline planner, Streamable HTTP on loopback (/mcp)%n",
                r.sessions(), r.questions());
        out.printf("ask calls answered: %d, errors: %d, wall time %d ms (%.1f calls/s)%n", n, r.errors(), r.wallMillis(),
                n * 1000.0 / Math.max(1, r.wallMillis()));
        out.printf("latency of an ask call: p50 %d ms, p95 %d ms, max %d ms (target: 0 errors)%n", r.percentile(50),
                r.percentile(95), r.percentile(100));
        r.firstErrors().forEach(e -> out.println("  error: " + e));
        out.flush();
    }
}
