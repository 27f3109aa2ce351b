package dev.sift.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.web.WebServer;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Drives N concurrent sessions against a local server (offline planner): each session asks the sample
 * questions in turn — POST ask, read the run's event stream to its end, check the result — and the bench
 * prints p50/p95/max latency of a question (ask to last event) and the error count.
 */
public final class ServeBench {
    static final List<String> QUESTIONS = List.of("How many loans are there?", "How many cards are gold?",
            "What values does loan.status take?", "What tables are there?");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Sift sift;
    private final int sessions;
    private final int questions;

    public ServeBench(Sift sift, int sessions, int questions) {
        this.sift = sift;
        this.sessions = sessions;
        this.questions = questions;
    }

    /** The measured numbers. */
    public record Result(int sessions, int questions, List<Long> latenciesMillis, int errors, List<String> firstErrors,
                         long wallMillis) {
        public long percentile(double p) {
            if (latenciesMillis.isEmpty()) {
                return 0;
            }
            List<Long> s = new ArrayList<>(latenciesMillis);
            Collections.sort(s);
            int i = (int) Math.ceil(p / 100.0 * s.size()) - 1;
            return s.get(Math.max(0, Math.min(s.size() - 1, i)));
        }
    }

    public Result run() throws Exception {
        try (WebServer server = WebServer.start(sift, WebServer.Options.defaults().withPort(0))) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String base = "http://127.0.0.1:" + server.port();
            // every change needs the server's CSRF token, as the app sends it
            String csrf = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/csrf")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body()).get("csrf_token").asText();
            // one warm-up question so the first measured run does not pay for class loading and dataset metadata
            session(http, base, csrf, 1, new ArrayList<>(), new AtomicInteger(), Collections.synchronizedList(new ArrayList<>()));
            List<Long> lat = Collections.synchronizedList(new ArrayList<>());
            List<String> errs = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger errors = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(sessions);
            long t0 = System.nanoTime();
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    fs.add(pool.submit(() -> {
                        session(http, base, csrf, questions, lat, errors, errs);
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            return new Result(sessions, questions, List.copyOf(lat), errors.get(), errs.stream().limit(5).toList(),
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static void session(HttpClient http, String base, String csrf, int questions, List<Long> lat, AtomicInteger errors,
                                List<String> errs) {
        String id;
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/sessions"))
                    .header("Content-Type", "application/json").header("X-Sift-CSRF", csrf).POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                throw new IllegalStateException("create session: HTTP " + r.statusCode() + " " + r.body());
            }
            id = JSON.readTree(r.body()).get("id").asText();
        } catch (Exception e) {
            errors.incrementAndGet();
            errs.add(String.valueOf(e.getMessage()));
            return;
        }
        for (int q = 0; q < questions; q++) {
            String question = QUESTIONS.get(q % QUESTIONS.size());
            long t = System.nanoTime();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/sessions/" + id + "/ask"))
                        .header("Content-Type", "application/json").header("X-Sift-CSRF", csrf)
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().put("question", question).toString()))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 202) {
                    throw new IllegalStateException("ask: HTTP " + r.statusCode() + " " + r.body());
                }
                String run = JSON.readTree(r.body()).get("run_id").asText();
                HttpResponse<Stream<String>> ev = http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs/" + run
                        + "/events")).header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofLines());
                JsonNode result = null;
                boolean done = false;
                for (String line : (Iterable<String>) ev.body()::iterator) {
                    if (line.startsWith("data: ")) {
                        JsonNode e = JSON.readTree(line.substring(6));
                        String type = e.get("type").asText();
                        if (type.equals("result")) {
                            result = e.get("result");
                        } else if (type.equals("done")) {
                            done = true;
                        } else if (type.equals("error")) {
                            throw new IllegalStateException("run error: " + e.get("error").asText());
                        }
                    }
                }
                long ms = (System.nanoTime() - t) / 1_000_000;
                if (!done || result == null || result.path("status").asText().equals("failed")
                        || result.path("kind").asText().equals("error")) {
                    String got = String.valueOf(result);
                    throw new IllegalStateException("'" + question + "' ended without an answer: "
                            + (got.length() > 300 ? got.substring(0, 300) + "…" : got));
                }
                lat.add(ms);
            } catch (Exception e) {
                errors.incrementAndGet();
                errs.add(String.valueOf(e.getMessage()));
            }
        }
        try { // the bench's sessions are not the user's: remove them
            http.send(HttpRequest.newBuilder(URI.create(base + "/api/sessions/" + id)).header("X-Sift-CSRF", csrf)
                    .DELETE().build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            errors.incrementAndGet();
            errs.add("delete session: " + e.getMessage());
        }
    }

    public void print(Result r, PrintWriter out) {
        int n = r.latenciesMillis().size();
        out.printf("%d concurrent sessions × %d questions, offline planner, server on loopback%n", r.sessions(), r.questions());
        out.printf("questions answered: %d, errors: %d, wall time %d ms (%.1f questions/s)%n", n, r.errors(),
                r.wallMillis(), n * 1000.0 / Math.max(1, r.wallMillis()));
        out.printf("latency ask → last event: p50 %d ms, p95 %d ms, max %d ms (target: 0 errors, p95 ≤ 1000 ms)%n",
                r.percentile(50), r.percentile(95), r.percentile(100));
        r.firstErrors().forEach(e -> out.println("  error: " + e));
        out.flush();
    }
}
