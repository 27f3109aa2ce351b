package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A tiny scripted HTTP server on 127.0.0.1 (ephemeral port) that plays an LLM API. Tests enqueue replies;
 * every request is recorded with method, path, headers and body. Replies are consumed in order; when the
 * queue is empty the server answers 599 so a missing reply is loud, not a hang.
 */
final class FakeLlmServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A canned answer. {@link #never()} accepts the request and never responds (until the server closes). */
    record Reply(int status, String body, boolean hang) {
        static Reply json(int status, String body) {
            return new Reply(status, body, false);
        }

        static Reply never() {
            return new Reply(0, "", true);
        }
    }

    /** One received request. Header names are lower-cased. */
    record Recorded(String method, String path, Map<String, String> headers, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("request body is not JSON: " + body, e);
            }
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<Recorded> requests = new ArrayList<>();
    private volatile CountDownLatch release = new CountDownLatch(1);
    /** Answers a request the queue has no reply for (a model that reads its input); null: 599. */
    private java.util.function.Function<Recorded, Reply> responder;

    private FakeLlmServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-llm-server");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor); // hanging handlers must not block other exchanges
        server.createContext("/", this::handle);
        server.start();
    }

    static FakeLlmServer start() throws IOException {
        return new FakeLlmServer();
    }

    /** Base URL in the usual "/v1" form, e.g. http://127.0.0.1:54321/v1 */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    synchronized FakeLlmServer enqueue(Reply... rs) {
        replies.addAll(List.of(rs));
        return this;
    }

    synchronized FakeLlmServer enqueueJson(int status, String body) {
        return enqueue(Reply.json(status, body));
    }

    /** Answers requests with {@code f} whenever no queued reply is left (queued replies still go first). */
    synchronized FakeLlmServer respond(java.util.function.Function<Recorded, Reply> f) {
        responder = f;
        return this;
    }

    synchronized List<Recorded> requests() {
        return List.copyOf(requests);
    }

    synchronized int callCount() {
        return requests.size();
    }

    synchronized Recorded onlyRequest() {
        if (requests.size() != 1) {
            throw new AssertionError("expected exactly 1 request, got " + requests.size() + ": " + requests);
        }
        return requests.get(0);
    }

    /** Forget requests and pending replies, and release any hanging exchanges. */
    synchronized void reset() {
        replies.clear();
        requests.clear();
        responder = null;
        release.countDown();
        release = new CountDownLatch(1);
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> headers = new TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        Reply reply;
        CountDownLatch latch;
        synchronized (this) {
            Recorded rec = new Recorded(ex.getRequestMethod(), ex.getRequestURI().getPath(), headers, body);
            requests.add(rec);
            reply = !replies.isEmpty() ? replies.poll() : responder != null ? responder.apply(rec)
                    : Reply.json(599, "{\"error\":{\"message\":\"no reply scripted\"}}");
            latch = release;
        }
        if (reply.hang()) {
            try {
                latch.await(30, TimeUnit.SECONDS); // bounded so a broken test can never wedge the build
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    /** A base URL whose port nobody listens on (bound then released), for connection-refused tests. */
    static String closedPortBaseUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + s.getLocalPort() + "/v1";
        }
    }

    // ---- canned provider bodies ----

    static String openAiCompletion(String text, int promptTokens, int completionTokens) {
        return """
                {"id":"chatcmpl-test1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini-2024-07-18",
                 "choices":[{"index":0,"message":{"role":"assistant","content":%s},"logprobs":null,"finish_reason":"stop"}],
                 "usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}
                """.formatted(quote(text), promptTokens, completionTokens, promptTokens + completionTokens);
    }

    static String anthropicMessage(String text, int inputTokens, int outputTokens) {
        return """
                {"id":"msg_test1","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022",
                 "content":[{"type":"text","text":%s}],"stop_reason":"end_turn","stop_sequence":null,
                 "usage":{"input_tokens":%d,"output_tokens":%d}}
                """.formatted(quote(text), inputTokens, outputTokens);
    }

    /** An OpenAI-compatible reply that calls {@code name} natively; {@code arguments} is the raw JSON text sent. */
    static String openAiToolCall(String id, String name, String arguments, int promptTokens, int completionTokens) {
        return """
                {"id":"chatcmpl-test2","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini-2024-07-18",
                 "choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
                   {"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}]},
                  "logprobs":null,"finish_reason":"tool_calls"}],
                 "usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}
                """.formatted(quote(id), quote(name), quote(arguments), promptTokens, completionTokens,
                promptTokens + completionTokens);
    }

    /** An Anthropic reply with a text block and a {@code tool_use} block whose input is {@code inputJson}. */
    static String anthropicToolUse(String text, String id, String name, String inputJson, int inputTokens,
                                   int outputTokens) {
        return """
                {"id":"msg_test2","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022",
                 "content":[{"type":"text","text":%s},{"type":"tool_use","id":%s,"name":%s,"input":%s}],
                 "stop_reason":"tool_use","stop_sequence":null,
                 "usage":{"input_tokens":%d,"output_tokens":%d}}
                """.formatted(quote(text), quote(id), quote(name), inputJson, inputTokens, outputTokens);
    }

    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
