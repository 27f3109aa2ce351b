package dev.sift.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.Workspace;
import dev.sift.web.WebServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /mcp} on the server over real HTTP, with the SDK's Streamable HTTP client and with plain requests: the token
 * when one is set, the Origin and Host checks, JSON only, the size limit, POST only.
 */
@Timeout(120)
class McpHttpTest {
    static final String TOKEN = "mcp-test-token";
    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static WebServer open;
    private static WebServer guarded;

    @BeforeAll
    static void start() throws Exception {
        Sift sift = new Sift(FullBank.home(), null, Workspace.Limits.defaults());
        open = WebServer.start(sift, WebServer.Options.defaults().withPort(0));
        guarded = WebServer.start(new Sift(FullBank.home(), null, Workspace.Limits.defaults()),
                WebServer.Options.defaults().withPort(0).withToken(TOKEN));
    }

    @AfterAll
    static void stop() {
        open.close();
        guarded.close();
    }

    static McpSyncClient client(WebServer server, String token) {
        HttpRequest.Builder req = HttpRequest.newBuilder();
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        var transport = HttpClientStreamableHttpTransport.builder(server.url()).endpoint("/mcp").requestBuilder(req)
                .jsonMapper(new JacksonMcpJsonMapper(JSON)).build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    }

    @Test
    @SuppressWarnings("unchecked")
    void the_sdk_client_asks_over_http_and_the_reply_continues_the_session() {
        try (McpSyncClient c = client(open, null)) {
            c.initialize();
            assertThat(c.listTools().tools()).hasSize(4);
            CallToolResult r = c.callTool(new CallToolRequest("ask", Map.of("question", "How many loans are there?")));
            Map<String, Object> s = (Map<String, Object>) r.structuredContent();
            assertThat((String) s.get("answer")).startsWith("There are 691 loans.");
            Map<String, Object> asked = (Map<String, Object>) c.callTool(new CallToolRequest("ask",
                    Map.of("question", "What is the total amount?"))).structuredContent();
            assertThat(asked).containsEntry("kind", "clarification");
            Map<String, Object> reply = (Map<String, Object>) c.callTool(new CallToolRequest("ask",
                    Map.of("question", "loans", "session", asked.get("session")))).structuredContent();
            assertThat(reply).containsEntry("kind", "answer");
        }
    }

    @Test
    void with_a_token_the_sdk_client_needs_it() {
        try (McpSyncClient c = client(guarded, TOKEN)) {
            c.initialize();
            CallToolResult r = c.callTool(new CallToolRequest("sql", Map.of("query", "SELECT count(*) AS n FROM loan")));
            assertThat(r.structuredContent()).isEqualTo(Map.of("dataset", "bank", "sql", "SELECT count(*) AS n FROM loan",
                    "columns", List.of("n"), "rows", List.of(List.of(691)), "row_count", 1, "truncated", false));
        }
    }

    @Test
    void without_the_token_or_with_a_wrong_one_a_call_is_refused() throws Exception {
        HttpResponse<String> none = post(guarded, INIT, Map.of());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(error(none)).isEqualTo("A valid token is required: send 'Authorization: Bearer <SIFT_TOKEN>'"
                + " (event streams: open the signed events_url the ask response gives).");
        assertThat(post(guarded, INIT, Map.of("Authorization", "Bearer wrong")).statusCode()).isEqualTo(401);
        assertThat(post(guarded, INIT, Map.of("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(200);
    }

    @Test
    void a_foreign_origin_or_host_is_refused() throws Exception {
        HttpResponse<String> origin = post(open, INIT, Map.of("Origin", "http://evil.example"));
        assertThat(origin.statusCode()).isEqualTo(403);
        assertThat(error(origin)).isEqualTo("Requests from http://evil.example may not change anything here: only this"
                + " server's own pages may.");
        assertThat(post(open, INIT, Map.of("Sec-Fetch-Site", "cross-site")).statusCode()).isEqualTo(403);
        assertThat(post(open, INIT, Map.of()).statusCode()).isEqualTo(200);
        // DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends its own Host
        assertThat(rawPost(open, "evil.example:" + open.port())).startsWith("HTTP/1.1 403");
        assertThat(rawPost(open, "127.0.0.1:" + open.port())).startsWith("HTTP/1.1 200");
    }

    /** A POST written by hand: Java's HTTP client will not send a Host of our choosing. */
    private static String rawPost(WebServer server, String host) throws Exception {
        byte[] body = INIT.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return raw(server, host, "Content-Length: " + body.length + "\r\n", body);
    }

    private static String raw(WebServer server, String host, String length, byte[] body) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(30_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\n" + length + "Connection: close\r\n\r\n";
            s.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void only_json_posts_within_the_size_limit_are_taken() throws Exception {
        HttpResponse<String> text = HTTP.send(request(open).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(INIT)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(text.statusCode()).isEqualTo(415);
        // a declared length over the limit is refused before the body is read (so written by hand: a client still
        // sending would see the connection close instead of the answer)
        String large = raw(open, "127.0.0.1:" + open.port(), "Content-Length: 1000001\r\n", new byte[0]);
        assertThat(large).startsWith("HTTP/1.1 413").contains("An MCP message may be at most 1000000 bytes; ask"
                + " shorter questions or send shorter SQL.");
        HttpResponse<String> get = HTTP.send(request(open).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        HttpResponse<String> accept = HTTP.send(request(open).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(INIT)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(accept.statusCode()).as(accept.body()).isEqualTo(406);
    }

    private static HttpRequest.Builder request(WebServer server) {
        return HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).timeout(Duration.ofSeconds(30));
    }

    private static HttpResponse<String> post(WebServer server, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = request(server).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        headers.forEach(b::header);
        return HTTP.send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> r) throws Exception {
        JsonNode j = JSON.readTree(r.body());
        return j.path("error").asText();
    }
}
