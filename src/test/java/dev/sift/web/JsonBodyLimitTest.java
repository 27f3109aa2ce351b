package dev.sift.web;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON routes refuse a body over their small limit (413) from its {@code Content-Length}, and, sent without one,
 * as soon as the limit is passed while it streams. The tests send raw HTTP and then stop: an answer that comes
 * while the rest of the body is still unsent shows the server read no more than what was sent, so however many
 * oversized bodies arrive at once, it holds at most the limit of each (it used to read 60 MB bodies whole).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class JsonBodyLimitTest {
    private static final int LIMIT = 64 * 1024;

    @TempDir
    Path home;

    private WebFixture server() throws Exception {
        return new WebFixture(home, null, WebServer.Options.defaults().withMaxJsonBytes(LIMIT));
    }

    private static String headers(WebFixture w, String path, String framing) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + w.server.port() + "\r\n" + RequestGuard.CSRF_HEADER
                + ": " + w.csrf + "\r\nContent-Type: application/json\r\n" + framing + "\r\n";
    }

    /** The status line and body of the response, read while the request's body is still incomplete. */
    private static String answerWhileStalled(Socket s) throws Exception {
        s.setSoTimeout(20_000);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        StringBuilder got = new StringBuilder();
        for (int n; !got.toString().contains("}") && (n = in.read(buf)) > 0; ) {
            got.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        }
        return got.toString();
    }

    /** A chunked JSON body of exactly {@code bytes} bytes, its last chunk not sent (the client stalls). */
    private static void sendChunked(OutputStream out, int bytes) throws Exception {
        byte[] chunk = "{\"question\": \"".getBytes(StandardCharsets.US_ASCII);
        out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(chunk);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] x = "x".repeat(8192).getBytes(StandardCharsets.US_ASCII);
        for (int sent = chunk.length; sent < bytes; sent += x.length) {
            int n = Math.min(x.length, bytes - sent);
            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(x, 0, n);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
    }

    @Test
    void a_content_length_over_the_limit_gets_413_before_any_of_the_body_is_sent() throws Exception {
        try (WebFixture w = server(); Socket s = new Socket("127.0.0.1", w.server.port())) {
            s.getOutputStream().write(headers(w, "/api/sessions", "Content-Length: 60000000\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String r = answerWhileStalled(s);
            assertThat(r).startsWith("HTTP/1.1 413").contains("The request body is over the limit of 65536 bytes"
                    + " for this endpoint (60000000 announced)");
        }
    }

    @Test
    void a_chunked_body_is_refused_once_it_passes_the_limit_while_the_rest_is_unsent() throws Exception {
        try (WebFixture w = server(); Socket s = new Socket("127.0.0.1", w.server.port())) {
            String session = w.newSession();
            s.getOutputStream().write(headers(w, "/api/sessions/" + session + "/ask", "Transfer-Encoding: chunked\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            sendChunked(s.getOutputStream(), LIMIT + 1);
            String r = answerWhileStalled(s);
            assertThat(r).startsWith("HTTP/1.1 413").contains("The request body is over the limit of 65536 bytes"
                    + " for this endpoint");
        }
    }

    @Test
    void sixteen_oversized_bodies_at_once_are_each_refused_after_at_most_the_limit() throws Exception {
        try (WebFixture w = server()) {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                List<Future<String>> answers = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    boolean chunked = i % 2 == 0;
                    answers.add(pool.submit(() -> {
                        try (Socket s = new Socket("127.0.0.1", w.server.port())) {
                            OutputStream out = s.getOutputStream();
                            out.write(headers(w, "/api/sessions", chunked ? "Transfer-Encoding: chunked\r\n"
                                    : "Content-Length: 60000000\r\n").getBytes(StandardCharsets.US_ASCII));
                            if (chunked) {
                                sendChunked(out, LIMIT + 1); // of a 60 MB body: the server answers before the rest
                            }
                            out.flush();
                            return answerWhileStalled(s);
                        }
                    }));
                }
                for (Future<String> a : answers) {
                    assertThat(a.get(60, TimeUnit.SECONDS)).startsWith("HTTP/1.1 413");
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(w.post("/api/sessions", "{\"dataset\": \"bank\"}").statusCode()).isEqualTo(201);
        }
    }

    @Test
    void a_body_of_exactly_the_limit_is_read() throws Exception {
        try (WebFixture w = server()) {
            String body = "{\"dataset\": \"bank\", \"pad\": \"" + "x".repeat(LIMIT - 32) + "\"}";
            assertThat(body.length()).isLessThanOrEqualTo(LIMIT);
            assertThat(w.post("/api/sessions", body).statusCode()).isEqualTo(201);
        }
    }
}
