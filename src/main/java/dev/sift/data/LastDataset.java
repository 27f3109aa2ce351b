package dev.sift.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The dataset last loaded or asked about, remembered in the Sift home ({@code last-dataset.json}) so the web app
 * opens on the user's own data rather than the demo. Written atomically (a temporary file moved over the old one),
 * so a reader never sees half a file; a write that fails is logged and never fails the load or question that made it.
 */
public final class LastDataset {
    /** The file's name in the Sift home. */
    public static final String FILE = "last-dataset.json";
    private static final Logger LOG = LoggerFactory.getLogger(LastDataset.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What is remembered: the dataset, how it was last touched ({@code loaded} or {@code used}) and when. */
    public record Entry(String dataset, String how, String at) { }

    private final Path file;

    public LastDataset(Path file) {
        this.file = file;
    }

    /** The memory of a Sift home: {@code <home>/last-dataset.json}. */
    public static LastDataset under(Path home) {
        return new LastDataset(home.resolve(FILE));
    }

    /** Remembers a dataset just built or connected. */
    public void loaded(String dataset) {
        write(new Entry(dataset, "loaded", Instant.now().toString()));
    }

    /** Remembers a dataset a question was asked about (or a session opened on). */
    public void used(String dataset) {
        write(new Entry(dataset, "used", Instant.now().toString()));
    }

    /** The remembered entry; empty when nothing was remembered yet or the file cannot be read (logged). */
    public Optional<Entry> read() {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Entry e = JSON.readValue(file.toFile(), Entry.class);
            return e.dataset() == null || e.dataset().isBlank() ? Optional.empty() : Optional.of(e);
        } catch (IOException e) {
            LOG.warn("Cannot read {} ({}); the last dataset is forgotten until the next load or question", file, e.getMessage());
            return Optional.empty();
        }
    }

    private void write(Entry e) {
        if (read().map(old -> old.dataset().equals(e.dataset()) && old.how().equals(e.how())).orElse(false)) {
            return; // nothing new to remember: every question would otherwise rewrite the file
        }
        Path tmp = file.resolveSibling("." + FILE + "." + UUID.randomUUID() + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(tmp.toFile(), e);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException x) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException x) {
            LOG.warn("Cannot remember dataset '{}' in {}: {}", e.dataset(), file, x.getMessage());
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the temporary file is left behind; nothing depends on it
            }
        }
    }
}
