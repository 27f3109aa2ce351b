package dev.sift.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decorator that remembers responses: an in-memory LRU plus an optional directory of JSON files
 * (one per request, named by the SHA-256 of the request) so benchmark runs can be replayed without
 * calling the model. The key covers every message (with its tool call), the tools offered, temperature,
 * maxTokens, jsonMode and the delegate's
 * describe() (so switching model or endpoint never serves stale answers). Failures are never cached.
 * Disk problems are logged and otherwise ignored: the cache must never break a run.
 */
public final class CachingLlm implements LlmClient {

    private static final Logger log = LoggerFactory.getLogger(CachingLlm.class);
    public static final int DEFAULT_MAX_ENTRIES = 256;
    /** Bump when the key or file format changes so old files are simply not found. */
    private static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LlmClient delegate;
    private final Path diskDir;
    private final Map<String, LlmResponse> memory;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    public CachingLlm(LlmClient delegate) {
        this(delegate, DEFAULT_MAX_ENTRIES, null);
    }

    /** @param diskDir directory for the disk layer, created on first write; null for memory only */
    public CachingLlm(LlmClient delegate, int maxEntries, Path diskDir) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        this.diskDir = diskDir;
        this.memory = new LinkedHashMap<>(16, 0.75f, true) { // access order = LRU
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, LlmResponse> eldest) {
                return size() > maxEntries;
            }
        };
    }

    @Override
    public LlmResponse complete(LlmRequest request) throws LlmException {
        long start = System.nanoTime();
        ObjectNode canonical = canonical(request);
        String key = sha256(canonical);

        LlmResponse hit;
        synchronized (memory) {
            hit = memory.get(key);
        }
        if (hit == null && diskDir != null) {
            hit = readDisk(key);
            if (hit != null) {
                synchronized (memory) {
                    memory.put(key, hit);
                }
            }
        }
        if (hit != null) {
            hits.incrementAndGet();
            log.debug("LLM cache hit {}", key);
            return hit.asCached((System.nanoTime() - start) / 1_000_000);
        }

        misses.incrementAndGet();
        LlmResponse fresh = delegate.complete(request);
        synchronized (memory) {
            memory.put(key, fresh);
        }
        if (diskDir != null) {
            writeDisk(key, canonical, fresh);
        }
        return fresh;
    }

    /** The cache key (SHA-256 hex) for a request sent through this client; also the disk file's base name. */
    public String key(LlmRequest request) {
        return sha256(canonical(request));
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    public int memorySize() {
        synchronized (memory) {
            return memory.size();
        }
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    private ObjectNode canonical(LlmRequest r) {
        ObjectNode n = JSON.createObjectNode();
        n.put("v", FORMAT_VERSION);
        n.put("client", delegate.describe());
        n.put("temperature", r.temperature());
        n.put("maxTokens", r.maxTokens());
        n.put("jsonMode", r.jsonMode());
        ArrayNode msgs = n.putArray("messages");
        for (LlmMessage m : r.messages()) {
            ObjectNode msg = msgs.addObject().put("role", m.role().name()).put("content", m.content());
            if (m.call() != null) { // only when present, so keys of plain requests stay as they were
                msg.set("call", call(m.call()));
            }
        }
        if (!r.tools().isEmpty()) {
            ArrayNode tools = n.putArray("tools");
            for (ToolDefinition t : r.tools()) {
                tools.addObject().put("name", t.name()).put("description", t.description()).set("parameters", t.parameters());
            }
        }
        return n;
    }

    private static ObjectNode call(ToolCall c) {
        return JSON.createObjectNode().put("id", c.id()).put("name", c.name()).put("arguments", c.arguments());
    }

    private static String sha256(JsonNode canonical) {
        try {
            byte[] bytes = JSON.writeValueAsString(canonical).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException("cannot compute LLM cache key", e); // SHA-256 is mandatory in every JRE
        }
    }

    private Path fileFor(String key) {
        return diskDir.resolve(key + ".json");
    }

    private LlmResponse readDisk(String key) {
        Path file = fileFor(key);
        try {
            JsonNode root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
            JsonNode r = root.path("response");
            if (!r.path("text").isTextual()) {
                log.warn("Ignoring LLM cache file {}: it has no response text", file);
                return null;
            }
            List<ToolCall> calls = new ArrayList<>();
            r.path("toolCalls").forEach(c -> calls.add(new ToolCall(c.path("id").asText(), c.path("name").asText(),
                    c.path("arguments").asText())));
            return new LlmResponse(r.path("text").asText(), r.path("inputTokens").asInt(),
                    r.path("outputTokens").asInt(), r.path("model").asText(""), r.path("latencyMs").asLong(), false, calls,
                    Math.min(r.path("cachedTokens").asInt(), r.path("inputTokens").asInt()));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            log.warn("Ignoring unreadable LLM cache file {}: {}", file, e.toString());
            return null;
        }
    }

    private void writeDisk(String key, ObjectNode canonical, LlmResponse resp) {
        ObjectNode root = JSON.createObjectNode();
        root.put("key", key);
        root.set("request", canonical); // kept for humans inspecting a replay set
        ObjectNode r = root.putObject("response");
        r.put("text", resp.text());
        r.put("inputTokens", resp.inputTokens());
        r.put("outputTokens", resp.outputTokens());
        r.put("cachedTokens", resp.cachedTokens());
        r.put("model", resp.model());
        r.put("latencyMs", resp.latencyMs());
        if (!resp.toolCalls().isEmpty()) {
            ArrayNode calls = r.putArray("toolCalls");
            resp.toolCalls().forEach(c -> calls.add(call(c)));
        }
        Path tmp = null;
        try {
            Files.createDirectories(diskDir);
            tmp = Files.createTempFile(diskDir, key, ".tmp");
            Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root),
                    StandardCharsets.UTF_8);
            // Readers (possibly another process replaying the same benchmark) never see a half-written file.
            try {
                Files.move(tmp, fileFor(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, fileFor(key), StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write LLM cache file in {}: {}", diskDir, e.toString());
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
