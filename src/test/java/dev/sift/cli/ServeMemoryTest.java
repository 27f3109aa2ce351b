package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Hostile questions at once through a real {@code sift serve} process whose model (a local server speaking the OpenAI
 * protocol) asks {@code run_sql} for a gigabyte-long value, or a 100 MB one that escapes the constant check: the
 * server stays up and within the stated bound, the first refused in one line, the second cut at the engine and said
 * so in the run's notes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServeMemoryTest {
    private static final long MB = 1024 * 1024;
    /** The gigabyte value of docs/security.md; refused before DuckDB builds it. */
    static final String HUGE = "SELECT repeat(repeat('x', 99999), 9999) AS s";
    /** A 100 MB value built from a column, so no constant check sees it: DuckDB builds it, the cut keeps 64 KB. */
    static final String WIDE = "SELECT s FROM (SELECT repeat(x, 1000) AS s FROM (SELECT repeat('x', 99999) AS x))";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path home;
    private static HttpServer model;
    private static Process server;
    private static String base;
    private static String csrf;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux /proc to read the server's peak memory");
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
        CliHarness.clearHome();
        model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
        model.createContext("/", ServeMemoryTest::reply);
        model.start();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx2g", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "-Dsift.home=" + home,
                "dev.sift.cli.Main", "serve", "--port", "0");
        pb.environment().putAll(Map.of("SIFT_LLM_BASE_URL", "http://127.0.0.1:" + model.getAddress().getPort() + "/v1",
                "SIFT_LLM_MODEL", "scripted", "SIFT_LLM_API_KEY", "test", "SIFT_JUDGE_SAMPLE_RATE", "0"));
        pb.redirectError(home.resolve("serve.err").toFile());
        server = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        Matcher url = Pattern.compile("serving (http://[^/ ]+)/").matcher("");
        for (String line; base == null && (line = out.readLine()) != null; ) {
            if (url.reset(line).find()) {
                base = url.group(1);
            }
        }
        assertThat(base).as(Files.readString(home.resolve("serve.err"))).isNotNull();
        csrf = get("/api/csrf").path("csrf_token").asText();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.destroy();
            server.waitFor(20, TimeUnit.SECONDS);
        }
        if (model != null) {
            model.stop(0);
        }
    }

    /**
     * The scripted model: a first turn calls run_sql with the SQL its question names; once an observation came back
     * (the refusal or the cut), it answers.
     */
    private static void reply(HttpExchange ex) throws java.io.IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String decision = body.contains("builds one value of") || body.contains("Cut to the result's byte budget")
                || body.contains("Error") ? JSON.writeValueAsString(Map.of("thought", "seen",
                "final_answer", "The value is too long to bring whole, as the notes say."))
                : JSON.writeValueAsString(Map.of("thought", "run it", "tool", "run_sql",
                "args", Map.of("sql", body.contains("QWIDE") ? WIDE : HUGE)));
        String completion = JSON.writeValueAsString(Map.of("id", "c1", "object", "chat.completion", "created", 0,
                "model", "scripted", "choices", List.of(Map.of("index", 0, "finish_reason", "stop",
                        "message", Map.of("role", "assistant", "content", decision))),
                "usage", Map.of("prompt_tokens", 10, "completion_tokens", 10, "total_tokens", 20)));
        byte[] bytes = completion.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        try (var os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Test
    void four_then_eight_hostile_questions_at_once_leave_the_server_up_and_within_its_bound() throws Exception {
        List<JsonNode> four = askAtOnce(List.of("Show QHUGE", "Show QWIDE", "Show QHUGE", "Show QWIDE"));
        long peakAfterFour = highWaterMark();
        assertThat(get("/health").path("status").asText()).isEqualTo("ok");
        assertThat(peakAfterFour).as("peak resident bytes of the server after four at once").isPositive()
                .isLessThan(2560 * MB);
        for (int i = 0; i < four.size(); i++) {
            String run = four.get(i).toString();
            assertThat(run).as("run %d", i).contains(i % 2 == 0
                    ? "Refused: repeat(…) builds one value of 999,890,001 characters or items"
                    : "Cut to the result's byte budget: 1 value of s was over 64 KB (the largest 99,999,000 bytes)");
        }

        List<JsonNode> eight = askAtOnce(List.of("Show QHUGE", "Show QWIDE", "Show QHUGE", "Show QWIDE",
                "Show QHUGE", "Show QWIDE", "Show QHUGE", "Show QWIDE"));
        assertThat(server.isAlive()).isTrue();
        assertThat(get("/health").path("status").asText()).isEqualTo("ok");
        for (JsonNode run : eight) {
            // cut or refused, or (past the gate's places or the memory budget) a busy server, each said plainly
            assertThat(run.toString()).containsAnyOf("Cut to the result's byte budget", "builds one value of",
                    "The server is busy", "memory budget");
        }
        assertThat(highWaterMark()).as("peak resident bytes after eight at once").isLessThan(4608 * MB);
    }

    /** Starts each question in a session of its own at once, then waits for every run's result. */
    private static List<JsonNode> askAtOnce(List<String> questions) throws Exception {
        List<String> runs = new ArrayList<>();
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            sessions.add(post("/api/sessions", "{\"dataset\":\"bank\"}").path("id").asText());
        }
        for (int i = 0; i < questions.size(); i++) {
            runs.add(post("/api/sessions/" + sessions.get(i) + "/ask",
                    JSON.writeValueAsString(Map.of("question", questions.get(i)))).path("run_id").asText());
        }
        List<JsonNode> results = new ArrayList<>();
        for (String run : runs) {
            JsonNode r = get("/api/runs/" + run);
            for (long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                 r.has("state") && System.nanoTime() < deadline; r = get("/api/runs/" + run)) {
                Thread.sleep(100);
            }
            assertThat(r.has("state")).as("run %s finished", run).isFalse();
            results.add(r);
        }
        return results;
    }

    private static JsonNode get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    private static JsonNode post(String path, String json) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .header("X-Sift-CSRF", csrf).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static JsonNode send(HttpRequest.Builder b) throws Exception {
        HttpResponse<String> r = HTTP.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** The server's peak resident set (VmHWM) in bytes. */
    private static long highWaterMark() {
        return ProcessMemoryTest.highWaterMark(Path.of("/proc/" + server.pid() + "/status"));
    }
}
