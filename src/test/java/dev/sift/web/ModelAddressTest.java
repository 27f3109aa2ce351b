package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.llm.LlmClients;
import dev.sift.llm.LlmConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model endpoint that stalls: the run's answer and notes, as {@code GET /api/runs/{id}} shows them, name the
 * provider and model, never the endpoint's address (which may hold a host or credentials); the address is logged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ModelAddressTest {
    @TempDir
    Path home;

    /** Accepts connections and never answers them. */
    private static ServerSocket stalled(List<Socket> held) throws Exception {
        ServerSocket server = new ServerSocket(0);
        Thread t = new Thread(() -> {
            try {
                while (!server.isClosed()) {
                    held.add(server.accept());
                }
            } catch (java.io.IOException e) {
                // closed at the end of the test
            }
        });
        t.setDaemon(true);
        t.start();
        return server;
    }

    @Test
    void a_stalled_model_endpoint_is_named_by_its_provider_in_the_run_not_by_its_address() throws Exception {
        List<Socket> held = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket endpoint = stalled(held)) {
            String base = "http://127.0.0.1:" + endpoint.getLocalPort() + "/v1";
            LlmConfig config = new LlmConfig("openai", base, "test-model", "test-key", Duration.ofSeconds(1), 0, null);
            try (WebFixture w = new WebFixture(home, LlmClients.fromConfig(config).orElseThrow(),
                    WebServer.Options.defaults())) {
                String run = w.ask(w.newSession(), "How many loans are there?");
                w.events(run);
                String body = w.get("/api/runs/" + run).body();
                JsonNode json = WebFixture.json(w.get("/api/runs/" + run));
                assertThat(json.toString()).contains("did not answer within 1 s");
                assertThat(body).contains("openai-compatible test-model")
                        .doesNotContain(base, "127.0.0.1:" + endpoint.getLocalPort(), ":" + endpoint.getLocalPort());
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
