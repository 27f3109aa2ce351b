package dev.sift.data;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/** Files written whole or not at all, for the records Sift keeps beside its data (caches, validity stamps). */
public final class AtomicFiles {
    private AtomicFiles() { }

    /** What is written into the file. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code content} to a fresh temporary file beside {@code file} (one name per writer, so concurrent writers
     * never share one; not createTempFile, whose owner-only mode would stick to the published file), then moves it over
     * {@code file}: atomically where the file system can, else by a plain replace. The temporary file never outlives
     * the call.
     */
    public static void write(Path file, Content content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + "-" + UUID.randomUUID()
                + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a stray temporary file is harmless
            }
        }
    }
}
