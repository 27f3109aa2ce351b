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

    /** A statement that changes the workspace, run under its time limit. */
    interface Runner {
        void run(String sql) throws QueryException;
    }

    /**
     * Attaches {@code other} as catalog {@code data} in place of {@code current}, through a link; when it does not
     * attach, {@code current} is attached again (also through a link: its own path is out of reach after the
     * lock-down) and the error is thrown.
     */
    static void swap(Runner run, Path spill, Dataset current, Dataset other) throws QueryException {
        Path link = link(spill, other);
        run.run("USE memory"); // the default database cannot be detached
        run.run("DETACH data");
        try {
            run.run("ATTACH " + Sql.quoteString(link.toString()) + " AS data (READ_ONLY)");
        } catch (QueryException e) {
            run.run("ATTACH " + Sql.quoteString(link(spill, current).toString()) + " AS data (READ_ONLY)");
            throw e;
        } finally {
            run.run("USE data");
            run.run("SET search_path = 'data.main,memory.frames'"); // USE reset it
        }
    }

    /** A link to {@code dataset}'s file, replacing one of that name (only a detached dataset's link can be replaced). */
    static Path link(Path spill, Dataset dataset) {
        Path link = folder(spill).resolve(dataset.name() + ".duckdb");
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
