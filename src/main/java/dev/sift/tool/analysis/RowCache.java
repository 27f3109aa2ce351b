package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * What the model said about each row text, kept per model and instruction, so a rerun or a follow-up over the same
 * rows makes no request whatever the batches. One JSON-lines file per (model, instruction) under the directory,
 * each line {@code {"key": sha256 of the row text, "value": …}}; a directory of null keeps entries for the tool
 * instance only (tests, registries built without a Sift home). Disk problems are logged and never fail a run.
 */
final class RowCache {
    private static final Logger LOG = LoggerFactory.getLogger(RowCache.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Map<String, Map<String, JsonNode>> memory = new HashMap<>();

    RowCache(Path dir) {
        this.dir = dir;
    }

    /** The entries of one model and instruction (read from disk on first use). */
    synchronized Shelf shelf(String model, String instruction) {
        String name = sha(model + "\n\u0000" + instruction);
        Map<String, JsonNode> entries = memory.computeIfAbsent(name, this::read);
        return new Shelf(name, entries);
    }

    private Map<String, JsonNode> read(String name) {
        Map<String, JsonNode> out = new HashMap<>();
        if (dir == null || !Files.exists(file(name))) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file(name), StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    JsonNode n = JSON.readTree(line);
                    out.put(n.path("key").asText(), n.path("value"));
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Row cache {} is unreadable and is ignored: {}", file(name), e.toString());
        }
        return out;
    }

    private Path file(String name) {
        return dir.resolve(name + ".jsonl");
    }

    /** The cached answers of one model and instruction. */
    final class Shelf {
        private final String name;
        private final Map<String, JsonNode> entries;

        private Shelf(String name, Map<String, JsonNode> entries) {
            this.name = name;
            this.entries = entries;
        }

        JsonNode get(String kind, String text) {
            synchronized (RowCache.this) {
                return entries.get(kind + ":" + sha(text));
            }
        }

        void put(String kind, Map<String, JsonNode> byText) {
            if (byText.isEmpty()) {
                return;
            }
            StringBuilder lines = new StringBuilder();
            synchronized (RowCache.this) {
                byText.forEach((text, value) -> {
                    String key = kind + ":" + sha(text);
                    entries.put(key, value);
                    ObjectNode line = JSON.createObjectNode().put("key", key);
                    line.set("value", value);
                    lines.append(line).append('\n');
                });
                if (dir != null) {
                    try {
                        Files.createDirectories(dir);
                        Files.writeString(file(name), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        LOG.warn("Row cache {} could not be written: {}", file(name), e.toString());
                    }
                }
            }
        }
    }

    static String sha(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
