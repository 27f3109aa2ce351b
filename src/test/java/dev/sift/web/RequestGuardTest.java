package dev.sift.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Other web pages cannot drive the loopback server, and no page of it can be framed or sniffed. */
class RequestGuardTest {
    @TempDir
    Path home;

    @Test
    void cross_site_state_changes_are_refused_and_change_nothing() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            int before = json(w.get("/api/sessions")).size();
            HttpResponse<String> plain = w.http.send(w.req("/api/sessions").header("Content-Type", "text/plain")
                    .header("Origin", "http://evil.example")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> fetched = w.http.send(w.req("/api/sessions").header("Content-Type", "application/json")
                    .header("Sec-Fetch-Site", "cross-site")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(plain.statusCode()).isEqualTo(403);
            assertThat(plain.body()).contains("Requests from http://evil.example may not change anything here");
            assertThat(fetched.statusCode()).isEqualTo(403);
            assertThat(json(w.get("/api/sessions")).size()).isEqualTo(before);
            HttpResponse<String> own = w.http.send(w.req("/api/sessions").header("Content-Type", "application/json")
                    .header("Origin", w.url("")).header("Sec-Fetch-Site", "same-origin")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(own.statusCode()).isEqualTo(201);
        }
    }

    @Test
    void every_page_forbids_framing_and_sniffing() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            for (String path : new String[] {"/", "/health", "/api/sessions"}) {
                HttpResponse<String> r = w.get(path);
                assertThat(r.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
                assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
            }
        }
    }
}
