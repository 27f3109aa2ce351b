package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A server on port 0 over the small test bank, with a fresh Sift home, and a small HTTP client. */
final class WebFixture implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    final Path home;
    final WebServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String token;
    /** This launch's CSRF token, sent on every request (the app sends it on every change). */
    String csrf;

    WebFixture(Path home, LlmClient llm, WebServer.Options options) throws Exception {
        this(home, llm, options, null);
    }

    /** As above, with the sources the server may connect ({@code null}: the defaults of a Sift home). */
    WebFixture(Path home, LlmClient llm, WebServer.Options options, dev.sift.data.source.AllowedSources allowed)
            throws Exception {
        this.home = home;
        link(home, TestDatasets.bank());
        Sift sift = allowed == null ? new Sift(home, llm, Workspace.Limits.defaults())
                : new Sift(home, llm, Workspace.Limits.defaults(), false, dev.sift.agent.grounding.Grounding.CHECK_ONLY,
                        new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                                io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT), allowed);
        this.server = WebServer.start(sift, options.withPort(0));
        this.token = options.token();
        this.csrf = json(get("/api/csrf")).path("csrf_token").asText(null);
    }

    /** Puts a built test dataset into the home's store (a hard link when the file system allows), before the server starts. */
    static void link(Path home, Dataset d) throws Exception {
        Path datasets = Files.createDirectories(home.resolve("datasets"));
        String name = d.name();
        try {
            Files.createLink(datasets.resolve(name + ".duckdb"), d.file());
        } catch (java.io.IOException | UnsupportedOperationException e) {
            Files.copy(d.file(), datasets.resolve(name + ".duckdb"));
        }
        Files.copy(d.file().resolveSibling(name + ".json"), datasets.resolve(name + ".json"));
        Path report = d.file().resolveSibling(name + ".load-report.json");
        if (Files.exists(report)) {
            Files.copy(report, datasets.resolve(name + ".load-report.json"));
        }
    }

    WebFixture(Path home) throws Exception {
        this(home, null, WebServer.Options.defaults());
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    HttpRequest.Builder req(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(30));
        if (csrf != null) {
            b.header(RequestGuard.CSRF_HEADER, csrf);
        }
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(req(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(req(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> delete(String path) throws Exception {
        return http.send(req(path).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    String newSession() throws Exception {
        return json(post("/api/sessions", "{\"dataset\":\"bank\"}")).get("id").asText();
    }

    String ask(String session, String question) throws Exception {
        HttpResponse<String> r = post("/api/sessions/" + session + "/ask",
                JSON.createObjectNode().put("question", question).toString());
        if (r.statusCode() != 202) {
            throw new AssertionError("ask returned " + r.statusCode() + ": " + r.body());
        }
        return json(r).get("run_id").asText();
    }

    /** One server-sent event as received. */
    record Event(int id, String type, JsonNode data) { }

    /** Reads a run's event stream to its end; {@code onEvent} may act (e.g. reply to a clarify). */
    List<Event> events(String runId, java.util.function.Consumer<Event> onEvent) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> r = http.send(req("/api/runs/" + runId + "/events")
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) {
            throw new AssertionError("events returned " + r.statusCode());
        }
        List<Event> out = new ArrayList<>();
        int id = -1;
        String type = null;
        for (String line : (Iterable<String>) r.body()::iterator) {
            if (line.startsWith("id: ")) {
                id = Integer.parseInt(line.substring(4));
            } else if (line.startsWith("event: ")) {
                type = line.substring(7);
            } else if (line.startsWith("data: ")) {
                Event e = new Event(id, type, JSON.readTree(line.substring(6)));
                out.add(e);
                if (onEvent != null) {
                    onEvent.accept(e);
                }
            }
        }
        return out;
    }

    List<Event> events(String runId) throws Exception {
        return events(runId, null);
    }

    @Override
    public void close() {
        server.close();
    }
}
