package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The hostile web probes of the hardening pass, each against a real server on port 0. */
class WebHardeningTest {
    @TempDir
    Path home;

    private static HttpResponse<String> send(WebFixture w, HttpRequest r) throws Exception {
        return w.http.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder bare(WebFixture w, String path) {
        return HttpRequest.newBuilder(java.net.URI.create(w.url(path)));
    }

    @Test
    void json_routes_take_only_json_and_a_cross_site_text_post_creates_nothing() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> text = send(w, w.req("/api/sessions").header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}")).build());
            assertThat(text.statusCode()).isEqualTo(415);
            assertThat(json(text).get("error").asText()).isEqualTo("This endpoint takes application/json: send"
                    + " 'Content-Type: application/json' (got 'text/plain').");
            HttpResponse<String> crossSite = send(w, bare(w, "/api/sessions").header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"dataset\":\"bank\"}")).build());
            assertThat(crossSite.statusCode()).isEqualTo(403);
            HttpResponse<String> form = send(w, w.req("/api/sessions")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("dataset=bank")).build());
            assertThat(form.statusCode()).isEqualTo(415);
            assertThat(json(w.get("/api/sessions"))).isEmpty();
            assertThat(w.post("/api/sessions", "{\"dataset\":\"bank\"}").statusCode()).isEqualTo(201);
        }
    }

    @Test
    void every_change_needs_this_launchs_csrf_token_which_the_page_carries() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            String id = w.newSession();
            HttpResponse<String> none = send(w, bare(w, "/api/sessions").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
            assertThat(none.statusCode()).isEqualTo(403);
            assertThat(json(none).get("error").asText()).isEqualTo("This request needs the server's CSRF token in the"
                    + " 'X-Sift-CSRF' header (the app sends it; scripts get it from GET /api/csrf).");
            HttpResponse<String> wrong = send(w, bare(w, "/api/sessions/" + id).header("X-Sift-CSRF", "guess")
                    .DELETE().build());
            assertThat(wrong.statusCode()).isEqualTo(403);
            assertThat(json(w.get("/api/sessions"))).hasSize(1);

            HttpResponse<String> page = w.get("/");
            assertThat(page.body()).contains("<meta name=\"sift-csrf\" content=\"" + w.csrf + "\">");
            assertThat(w.csrf).hasSizeGreaterThanOrEqualTo(32);
            try (WebFixture other = new WebFixture(home.resolve("other"))) {
                assertThat(other.csrf).as("a token per launch").isNotEqualTo(w.csrf);
            }
        }
    }

    @Test
    void uploads_from_another_origin_or_without_the_token_are_refused_and_build_nothing() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> evil = send(w, multipart(w, "evil", "a.csv", "a\n1\n", "http://evil.example", true));
            assertThat(evil.statusCode()).isEqualTo(403);
            assertThat(json(evil).get("error").asText()).startsWith("Requests from http://evil.example may not change");
            HttpResponse<String> noToken = send(w, multipart(w, "evil", "a.csv", "a\n1\n", null, false));
            assertThat(noToken.statusCode()).isEqualTo(403);
            assertThat(json(w.get("/api/datasets"))).extracting(d -> d.get("name").asText()).containsExactly("bank");
        }
    }

    @Test
    void only_loopback_names_or_configured_ones_are_served() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            String refused = raw(w.server.port(), "GET /api/sessions", "attacker.example");
            assertThat(refused).startsWith("HTTP/1.1 403");
            assertThat(refused).contains("Host 'attacker.example' is not a name of this server: open it as"
                    + " http://127.0.0.1:<port>/ or http://localhost:<port>/, or start it with --allowed-host"
                    + " attacker.example if that name is yours.");
            for (String host : List.of("localhost", "127.0.0.1", "[::1]")) {
                assertThat(raw(w.server.port(), "GET /health", host + ":" + w.server.port())).as(host)
                        .startsWith("HTTP/1.1 200");
            }
            assertThat(raw(w.server.port(), "GET /", "evil.localhost.example")).startsWith("HTTP/1.1 403");
        }
        try (WebFixture w = new WebFixture(home.resolve("named"), null,
                WebServer.Options.defaults().withAllowedHosts(List.of("Sift.Example")))) {
            assertThat(raw(w.server.port(), "GET /health", "sift.example:" + w.server.port())).startsWith("HTTP/1.1 200");
            assertThat(raw(w.server.port(), "GET /health", "other.example")).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void pages_carry_a_content_security_policy_without_inline_script() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> page = w.get("/");
            String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(csp).contains("default-src 'self'", "frame-ancestors 'none'", "object-src 'none'");
            String scripts = csp.replaceAll(".*script-src ([^;]*).*", "$1");
            assertThat(scripts).startsWith("'self'").doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
            assertThat(page.body()).doesNotContainPattern("<script(?![^>]*\\ssrc=)[^>]*>");
            assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(w.get("/api/sessions").headers().firstValue("Content-Security-Policy")).hasValue(csp);
        }
    }

    @Test
    void event_streams_open_with_a_signed_link_and_tokens_never_go_in_urls() throws Exception {
        try (WebFixture w = new WebFixture(home, null, WebServer.Options.defaults().withToken("s3cret"))) {
            HttpResponse<String> asked = w.post("/api/sessions/" + w.newSession() + "/ask",
                    "{\"question\":\"How many loans are there?\"}");
            JsonNode a = json(asked);
            String link = a.get("events_url").asText();
            assertThat(link).startsWith("/api/runs/" + a.get("run_id").asText() + "/events?expires=")
                    .doesNotContain("s3cret");
            HttpResponse<String> stream = send(w, bare(w, link).header("Accept", "text/event-stream").build());
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.body()).contains("event: result", "event: done");

            String events = a.get("events").asText();
            assertThat(send(w, bare(w, events).header("Accept", "text/event-stream").build()).statusCode())
                    .isEqualTo(401);
            assertThat(send(w, bare(w, events + "?token=s3cret").header("Accept", "text/event-stream").build())
                    .statusCode()).isEqualTo(401);
            String tampered = link.substring(0, link.length() - 1) + (link.endsWith("0") ? "1" : "0");
            assertThat(send(w, bare(w, tampered).header("Accept", "text/event-stream").build()).statusCode())
                    .isEqualTo(401);
            String otherRun = link.replace(a.get("run_id").asText(), "00000000-0000-0000-0000-000000000000");
            assertThat(send(w, bare(w, otherRun).header("Accept", "text/event-stream").build()).statusCode())
                    .isEqualTo(401);
            assertThat(send(w, bare(w, link.replace("/events", "")).build()).statusCode()).as("a link opens one stream only")
                    .isEqualTo(401);
        }
    }

    @Test
    void health_shows_no_model_address_and_with_a_token_only_the_status() throws Exception {
        LlmClient llm = new LlmClient() {
            @Override
            public LlmResponse complete(LlmRequest request) {
                throw new UnsupportedOperationException("not asked in this test");
            }

            @Override
            public String describe() {
                return "openai-compatible m1 at http://user:pw@secret-host:9999/v1";
            }
        };
        try (WebFixture w = new WebFixture(home, llm, WebServer.Options.defaults())) {
            HttpResponse<String> h = w.get("/health");
            assertThat(h.body()).doesNotContain("secret-host", "pw@");
            assertThat(json(h).get("planner").asText()).isEqualTo("openai-compatible m1");
        }
        try (WebFixture w = new WebFixture(home.resolve("t"), llm, WebServer.Options.defaults().withToken("s3cret"))) {
            w.token = null;
            assertThat(w.get("/health").body()).isEqualTo("{\"status\":\"ok\"}");
        }
    }

    @Test
    void a_chunked_upload_over_the_limit_gets_413_and_leaves_no_temporary_folder() throws Exception {
        try (WebFixture w = new WebFixture(home, null, WebServer.Options.defaults().withMaxUploadBytes(4096))) {
            byte[] body = multipartBody("big", "big.csv", "a\n" + "1\n".repeat(20_000));
            HttpRequest chunked = w.req("/api/datasets").header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
            long t0 = System.nanoTime();
            HttpResponse<String> r = send(w, chunked);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
            assertThat(json(r).get("error").asText()).startsWith("The upload is over the limit of 4096 bytes");
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(20_000);
            assertThat(leftovers()).isEmpty();
        }
    }

    @Test
    void a_file_name_a_table_cannot_take_is_refused_with_the_fix() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> r = send(w, multipart(w, "names", "名前.csv", "a\n1\n", null, true));
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(json(r).get("error").asText()).isEqualTo("File name '名前.csv' has characters other than ASCII"
                    + " letters, digits, '.', '_', '-' and spaces, and its table would be named after it: rename the"
                    + " file (e.g. to 'sales.csv') and upload it again.");
            assertThat(r.body()).doesNotContain("sift-upload-", "/tmp");
            HttpResponse<String> ok = send(w, multipart(w, "names", "sales.csv", "a\n1\n", null, true));
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(201);
            assertThat(leftovers()).isEmpty();
        }
    }

    @Test
    void start_up_removes_stale_upload_and_spill_folders_and_keeps_live_ones() throws Exception {
        java.time.Instant now = java.time.Instant.parse("2026-01-02T12:00:00Z");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(now.minus(java.time.Duration.ofHours(7)));
        Path staleUpload = Files.createDirectories(home.resolve("sift-upload-1"));
        Files.setLastModifiedTime(Files.writeString(staleUpload.resolve("a.csv"), "a\n"), old);
        Files.setLastModifiedTime(staleUpload, old);
        Path staleSpill = Files.createDirectories(home.resolve("sift-spill-2"));
        Files.setLastModifiedTime(staleSpill, old);
        Path inUse = Files.createDirectories(home.resolve("sift-spill-3"));
        Files.setLastModifiedTime(inUse, old);
        Files.setLastModifiedTime(Files.writeString(inUse.resolve("duckdb_temp_block"), "x"),
                java.nio.file.attribute.FileTime.from(now.minusSeconds(60)));
        Path notOurs = Files.createDirectories(home.resolve("other-tool-4"));
        Files.setLastModifiedTime(notOurs, old);

        assertThat(Leftovers.clean(home, now)).isEqualTo(2);
        assertThat(staleUpload).doesNotExist();
        assertThat(staleSpill).doesNotExist();
        assertThat(inUse).exists();
        assertThat(notOurs).exists();
        assertThat(Leftovers.clean(home.resolve("missing"), now)).isZero();
    }

    @Test
    void a_signed_event_link_expires() {
        java.util.concurrent.atomic.AtomicReference<java.time.Instant> now =
                new java.util.concurrent.atomic.AtomicReference<>(java.time.Instant.parse("2026-01-02T12:00:00Z"));
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return now.get();
            }
        };
        EventLinks links = new EventLinks(new java.security.SecureRandom(), clock);
        java.net.URI url = java.net.URI.create(links.url("run-1"));
        String expires = url.getQuery().replaceAll(".*expires=(\\d+).*", "$1");
        String signature = url.getQuery().replaceAll(".*signature=([0-9a-f]+).*", "$1");
        assertThat(links.valid(url.getPath(), expires, signature)).isTrue();
        now.set(now.get().plusSeconds(EventLinks.VALID_SECONDS - 1));
        assertThat(links.valid(url.getPath(), expires, signature)).isTrue();
        now.set(now.get().plusSeconds(2));
        assertThat(links.valid(url.getPath(), expires, signature)).as("expired").isFalse();
        now.set(now.get().minusSeconds(600));
        String later = String.valueOf(Long.parseLong(expires) + 3600);
        assertThat(links.valid(url.getPath(), later, signature)).as("expiry is signed").isFalse();
        assertThat(new EventLinks(new java.security.SecureRandom(), clock).valid(url.getPath(), expires, signature))
                .as("another launch's key").isFalse();
    }

    @Test
    void an_upload_replaces_a_dataset_only_when_asked_and_its_errors_name_the_file_not_the_temporary_folder() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            String builtAt = json(w.get("/api/datasets")).get(0).get("built_at").asText();
            HttpResponse<String> demo = send(w, multipart(w, "bank", "a.csv", "a\n1\n", null, true));
            assertThat(demo.statusCode()).isEqualTo(409);
            assertThat(json(demo).get("error").asText()).isEqualTo("Dataset 'bank' is a demo dataset and is never"
                    + " replaced: choose another name.");
            assertThat(json(w.get("/api/datasets")).get(0).get("built_at").asText()).isEqualTo(builtAt);

            assertThat(send(w, multipart(w, "mine", "a.csv", "a\n1\n", null, true)).statusCode()).isEqualTo(201);
            HttpResponse<String> again = send(w, multipart(w, "mine", "b.csv", "b\n2\n", null, true));
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(json(again).get("error").asText()).isEqualTo("Dataset 'mine' already exists: choose another"
                    + " name, or send replace=true to replace it.");

            HttpResponse<String> bad = send(w, multipart(w, "broken", "bad.parquet", "nope", null, true));
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(json(bad).get("error").asText()).startsWith("File bad.parquet could not be read as Parquet")
                    .doesNotContain("sift-upload-", home.toString());
            assertThat(leftovers()).isEmpty();
        }
    }

    private List<Path> leftovers() throws Exception {
        Path tmp = home.resolve("tmp");
        if (!Files.isDirectory(tmp)) {
            return List.of();
        }
        try (var s = Files.walk(tmp)) { // the server's own (empty) folder for multipart copies is no leftover
            return s.filter(p -> !p.equals(tmp) && !p.equals(Leftovers.multipartFolder(tmp))).toList();
        }
    }

    /** One HTTP/1.1 request with the Host header given (the JDK client will not send a foreign one). */
    private static String raw(int port, String requestLine, String host) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((requestLine + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static final String BOUNDARY = "----siftHardening";

    private static byte[] multipartBody(String name, String filename, String content) {
        return ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n" + name + "\r\n"
                + "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + filename
                + "\"\r\nContent-Type: text/csv\r\n\r\n" + content + "\r\n--" + BOUNDARY + "--\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static HttpRequest multipart(WebFixture w, String name, String filename, String content, String origin,
                                         boolean csrf) {
        HttpRequest.Builder b = (csrf ? w.req("/api/datasets") : bare(w, "/api/datasets"))
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(multipartBody(name, filename, content)));
        return origin == null ? b.build() : b.header("Origin", origin).build();
    }
}
