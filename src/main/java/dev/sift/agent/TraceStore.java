package dev.sift.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Saves each run's complete trace as one JSON file, written atomically (temp file, then move). */
public final class TraceStore {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;

    public TraceStore(Path dir) {
        this.dir = dir;
    }

    public Path save(AgentRun run) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(run.runId() + ".json");
        Path tmp = dir.resolve("." + run.runId() + ".tmp");
        JSON.writeValue(tmp.toFile(), run);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    public AgentRun load(Path file) throws IOException {
        return JSON.readValue(file.toFile(), AgentRun.class);
    }
}
