package dev.sift.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Start-up cleanup of temporary folders a killed server left behind: upload folders ({@code sift-upload-*}),
 * DuckDB spill folders ({@code sift-spill-*}) and the multipart copies of uploads in flight
 * ({@code sift-multipart-PID}). Only folders with nothing touched for {@link #AGE} go, so a folder another
 * running process still uses stays; a multipart folder goes at once when its process has ended.
 */
final class Leftovers {
    static final Duration AGE = Duration.ofHours(6);
    static final String MULTIPART = "sift-multipart-";
    static final List<String> PREFIXES = List.of("sift-upload-", "sift-spill-", MULTIPART);
    private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);

    private Leftovers() { }

    /** Removes stale leftovers directly under {@code root}; returns how many folders went. */
    static int clean(Path root, Instant now) {
        int removed = 0;
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, p -> Files.isDirectory(p)
                && PREFIXES.stream().anyMatch(pre -> p.getFileName().toString().startsWith(pre)))) {
            for (Path d : dirs) {
                if (ended(d) || newest(d).isBefore(now.minus(AGE))) {
                    delete(d);
                    removed++;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Could not clean leftover temporary folders in {}: {}", root, e.getMessage());
        }
        if (removed > 0) {
            LOG.info("Removed {} leftover temporary folder(s) from {}", removed, root);
        }
        return removed;
    }

    /** This process's folder of multipart copies, under {@code root} (the home's {@code tmp}). */
    static Path multipartFolder(Path root) {
        return root.resolve(MULTIPART + ProcessHandle.current().pid());
    }

    /** A multipart folder whose process is gone: no one can be writing to it. */
    private static boolean ended(Path dir) {
        String name = dir.getFileName().toString();
        if (!name.startsWith(MULTIPART)) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(name.substring(MULTIPART.length()))).isEmpty();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static Instant newest(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> {
                try {
                    return Files.getLastModifiedTime(p).toInstant();
                } catch (IOException e) {
                    return Instant.MAX; // vanished or unreadable while we look: someone is using it
                }
            }).max(Comparator.naturalOrder()).orElse(Instant.MAX);
        }
    }

    /** Deletes a folder and everything in it. */
    static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
