package dev.sift.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one folder a workspace may still ATTACH from after its lock-down ({@code allowed_directories}): a private
 * folder of links to dataset files, so a session can switch to another dataset ({@link Workspace#use}) while no
 * other file stays reachable. A dataset file is never written after it is built, so a link always reads what
 * was switched to.
 */
final class DatasetLinks {
    private DatasetLinks() { }

    /** The folder of links under the workspace's private spill folder. */
    static Path folder(Path spill) {
        return spill.resolve("datasets");
    }

    /** A new link to {@code dataset}'s file; {@code n} keeps links of earlier switches apart. */
    static Path link(Path spill, Dataset dataset, int n) {
        Path link = folder(spill).resolve(n + "-" + dataset.name() + ".duckdb");
        try {
            Files.createDirectories(link.getParent());
            Files.deleteIfExists(link);
            return Files.createSymbolicLink(link, dataset.file().toAbsolutePath());
        } catch (IOException e) {
            throw new IllegalStateException("Could not link dataset '" + dataset.name() + "' into " + link.getParent()
                    + ": " + e.getMessage(), e);
        }
    }
}
