package dev.sift.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.web.WebServer;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Drives N concurrent sessions against a local server (offline planner), for each N of a list on the same server:
 * each session asks the sample questions in turn — POST ask, read the run's event stream to its end, check the
 * result — and the bench prints, per N, p50/p95/max latency of a question (ask to last event), throughput, the
 * error count, and where a question's time went: opening its session, waiting for a run thread, waiting at the
 * query gate, and the run itself (the server's own timers, read from its metrics registry).
 */
public final class ServeBench {
    static final List<String> QUESTIONS = List.of("How many loans are there?", "How many cards are gold?",
            "What values does loan.status take?", "What tables are there?");
    static final long TARGET_P95_MILLIS = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Sift sift;
    private final List<Integer> sizes;
    private final int questions;

    public ServeBench(Sift sift, List<Integer> sizes, int questions) {
        this.sift = sift;
        this.sizes = List.copyOf(sizes);
        this.questions = questions;
    }

    /** The measured numbers. */
    public record Result(int sessions, int questions, List<Long> latenciesMillis, int errors, List<String> firstErrors,
                         long wallMillis) {
        public long percentile(double p) {
            return ServeBench.percentile(latenciesMillis, p);
        }
    }

    /**
     * One size's result, the time each session took to open, and the server's waits while it ran: mean time a run
     * waited for a run thread (and the longest), mean time a query waited at the gate, mean run time on the server.
     */
    public record Round(Result result, List<Long> openMillis, double queuedMeanMs, double queuedMaxMs,
                        long gateQueries, double gateMeanMs, double runMeanMs, double cpuMillis) { }

    static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> s = new ArrayList<>(values);
        Collections.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.size()) - 1;
        return s.get(Math.max(0, Math.min(s.size() - 1, i)));
    }

    public List<Round> run() throws Exception {
        try (WebServer server = WebServer.start(sift, WebServer.Options.defaults().withPort(0))) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String base = "http://127.0.0.1:" + server.port();
            // every change needs the server's CSRF token, as the app sends it
            String csrf = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/csrf")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body()).get("csrf_token").asText();
            Client client = new Client(http, base, csrf);
            // one warm-up session asking each question once, so the first measured run does not pay for class
            // loading, the dataset's knowledge and the column facts the schema question shows
            client.session(QUESTIONS.size(), new Tally());
            List<Round> rounds = new ArrayList<>();
            for (int n : sizes) {
                rounds.add(round(client, n));
            }
            return rounds;
        }
    }

    private Round round(Client client, int sessions) throws Exception {
        MeterRegistry meters = sift.meters();
        Snapshot before = Snapshot.of(meters);
        Tally tally = new Tally();
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        long t0 = System.nanoTime();
        long cpu0 = LoadBench.processCpuNanos();
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                fs.add(pool.submit(() -> {
                    client.session(questions, tally);
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long wall = (System.nanoTime() - t0) / 1_000_000;
        double cpu = (LoadBench.processCpuNanos() - cpu0) / 1e6;
        Snapshot after = Snapshot.of(meters);
        Result r = new Result(sessions, questions, List.copyOf(tally.latencies), tally.errors.size(),
                tally.errors.stream().limit(5).toList(), wall);
        return new Round(r, List.copyOf(tally.opens), after.queuedMean(before), after.queuedMax,
                after.gateCount - before.gateCount, after.gateMean(before), after.runMean(before), cpu);
    }

    /** What the sessions of one round measured; thread-safe. */
    static final class Tally {
        final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        final List<Long> opens = Collections.synchronizedList(new ArrayList<>());
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    }

    /** The server's timers at one moment. */
    private record Snapshot(long queuedCount, double queuedMs, double queuedMax, long gateCount, double gateMs,
                            long runCount, double runMs) {
        static Snapshot of(MeterRegistry m) {
            Timer queued = m.find("sift.run.queued").timer();
            FunctionTimer gate = m.find("sift.query.gate.wait").functionTimer();
            Timer run = m.find("sift.run.latency").timer();
            return new Snapshot(queued == null ? 0 : queued.count(), queued == null ? 0 : queued.totalTime(TimeUnit.MILLISECONDS),
                    queued == null ? 0 : queued.max(TimeUnit.MILLISECONDS), gate == null ? 0 : (long) gate.count(),
                    gate == null ? 0 : gate.totalTime(TimeUnit.MILLISECONDS), run == null ? 0 : run.count(),
                    run == null ? 0 : run.totalTime(TimeUnit.MILLISECONDS));
        }

        double queuedMean(Snapshot before) {
            return mean(queuedMs - before.queuedMs, queuedCount - before.queuedCount);
        }

        double gateMean(Snapshot before) {
            return mean(gateMs - before.gateMs, gateCount - before.gateCount);
        }

        double runMean(Snapshot before) {
            return mean(runMs - before.runMs, runCount - before.runCount);
        }

        private static double mean(double total, long count) {
            return count == 0 ? 0 : total / count;
        }
    }

    /** One bench user: creates a session, asks its questions one after another, deletes the session. */
    private record Client(HttpClient http, String base, String csrf) {
        void session(int questions, Tally tally) {
            String id;
            long t = System.nanoTime();
            try {
                HttpResponse<String> r = http.send(post("/api/sessions", "{\"dataset\":\"bank\"}"),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 201) {
                    throw new IllegalStateException("create session: HTTP " + r.statusCode() + " " + r.body());
                }
                id = JSON.readTree(r.body()).get("id").asText();
                tally.opens.add((System.nanoTime() - t) / 1_000_000);
            } catch (Exception e) {
                tally.errors.add(String.valueOf(e.getMessage()));
                return;
            }
            for (int q = 0; q < questions; q++) {
                String question = QUESTIONS.get(q % QUESTIONS.size());
                long start = System.nanoTime();
                try {
                    ask(id, question);
                    tally.latencies.add((System.nanoTime() - start) / 1_000_000);
                } catch (Exception e) {
                    tally.errors.add(String.valueOf(e.getMessage()));
                }
            }
            try { // the bench's sessions are not the user's: remove them
                http.send(HttpRequest.newBuilder(URI.create(base + "/api/sessions/" + id)).header("X-Sift-CSRF", csrf)
                        .DELETE().build(), HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                tally.errors.add("delete session: " + e.getMessage());
            }
        }

        private HttpRequest post(String path, String body) {
            return HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                    .header("X-Sift-CSRF", csrf).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        }

        /** Asks and reads the run's events to their end; throws unless it ended with an answer. */
        private void ask(String id, String question) throws Exception {
            HttpResponse<String> r = http.send(post("/api/sessions/" + id + "/ask",
                    JSON.createObjectNode().put("question", question).toString()), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 202) {
                throw new IllegalStateException("ask: HTTP " + r.statusCode() + " " + r.body());
            }
            String run = JSON.readTree(r.body()).get("run_id").asText();
            HttpResponse<Stream<String>> ev = http.send(HttpRequest.newBuilder(URI.create(base + "/api/runs/" + run
                    + "/events")).header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60)).GET().build(),
                    HttpResponse.BodyHandlers.ofLines());
            JsonNode result = null;
            boolean done = false;
            for (String line : (Iterable<String>) ev.body()::iterator) {
                if (line.startsWith("data: ")) {
                    JsonNode e = JSON.readTree(line.substring(6));
                    switch (e.get("type").asText()) {
                        case "result" -> result = e.get("result");
                        case "done" -> done = true;
                        case "error" -> throw new IllegalStateException("run error: " + e.get("error").asText());
                        default -> { }
                    }
                }
            }
            if (!done || result == null || result.path("status").asText().equals("failed")
                    || result.path("kind").asText().equals("error")) {
                String got = String.valueOf(result);
                throw new IllegalStateException("'" + question + "' ended without an answer: "
                        + (got.length() > 300 ? got.substring(0, 300) + "…" : got));
            }
        }
    }

    public void print(List<Round> rounds, PrintWriter out) {
        out.printf("Serve bench: concurrent sessions × %d questions each, offline planner, server and clients in one JVM"
                + " on loopback; target at 32 sessions: 0 errors, p95 ≤ %d ms%n", questions, TARGET_P95_MILLIS);
        out.printf(Locale.ROOT, "  %8s %9s %6s %8s %8s %8s %8s %10s │ %9s %14s %14s %9s %10s%n", "sessions", "questions",
                "errors", "p50 ms", "p95 ms", "max ms", "wall ms", "answers/s", "open p95", "run-thread wait",
                "query-gate wait", "run mean", "cpu/answer");
        for (Round round : rounds) {
            Result r = round.result();
            int n = r.latenciesMillis().size();
            out.printf(Locale.ROOT, "  %8d %9d %6d %8d %8d %8d %8d %10.1f │ %6d ms %5.0f / %4.0f ms %8.1f ms ×%-4d %6.0f ms %7.1f ms%n",
                    r.sessions(), n, r.errors(), r.percentile(50), r.percentile(95), r.percentile(100), r.wallMillis(),
                    n * 1000.0 / Math.max(1, r.wallMillis()), percentile(round.openMillis(), 95), round.queuedMeanMs(),
                    round.queuedMaxMs(), round.gateMeanMs(), round.gateQueries(), round.runMeanMs(), round.cpuMillis() / Math.max(1, n));
            r.firstErrors().forEach(e -> out.println("    error: " + e));
        }
        out.println("  (open p95: creating a session and its workspace; run-thread wait: mean / max before a run starts;"
                + " query-gate wait: mean per query × queries; run mean: the server's time per question; cpu/answer: the"
                + " process's CPU time, server and clients, per answer: what bounds throughput on a busy machine)");
        out.flush();
    }
}
