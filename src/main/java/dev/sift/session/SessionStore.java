package dev.sift.session;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Sessions on disk, one JSON file each under {@code $SIFT_HOME/sessions}. A save writes a temporary file in
 * the same folder, forces it to disk and renames it over the old file atomically, so a crash mid-write
 * leaves either the old session or the new one, never a torn file. Leftover temporary files are ignored.
 */
public final class SessionStore {
    private static final Logger LOG = LoggerFactory.getLogger(SessionStore.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    /** Session ids are ours (UUIDs); anything else is refused before it reaches the file system. */
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Path root;

    public SessionStore(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public Session create(String dataset, String fingerprint) throws IOException {
        String now = Instant.now().toString();
        Session s = new Session(UUID.randomUUID().toString(), dataset, fingerprint, "", now, now, List.of(), List.of());
        save(s);
        return s;
    }

    public static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    public Optional<Session> find(String id) throws IOException {
        if (!validId(id)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(Files.readAllBytes(file(id)), Session.class));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** All readable sessions, most recently updated first; an unreadable file is logged and skipped. */
    public List<Session> list() throws IOException {
        List<Session> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(root, "*.json")) {
            for (Path f : files) {
                try {
                    out.add(JSON.readValue(Files.readAllBytes(f), Session.class));
                } catch (IOException e) {
                    LOG.warn("Skipping unreadable session file {}: {}", f, e.getMessage());
                }
            }
        }
        out.sort(Comparator.comparing(Session::updatedAt).reversed());
        return out;
    }

    /**
     * Saves one session. Not synchronised across sessions (each has its own file and a unique temporary
     * name); one session's turns are already sequential ({@link Conversation} holds a lock per session).
     */
    public void save(Session s) throws IOException {
        if (!validId(s.id())) {
            throw new IllegalArgumentException("Not a session id: " + s.id());
        }
        Files.createDirectories(root);
        Path tmp = root.resolve("." + s.id() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                 OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
                out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(s));
                out.flush();
                ch.force(true);
            }
            try {
                Files.move(tmp, file(s.id()), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file(s.id()), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    public boolean delete(String id) throws IOException {
        return validId(id) && Files.deleteIfExists(file(id));
    }

    private Path file(String id) {
        return root.resolve(id + ".json");
    }
}
