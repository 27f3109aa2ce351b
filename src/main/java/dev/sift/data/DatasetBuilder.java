package dev.sift.data;

import java.sql.Connection;
import java.util.List;

/**
 * Builds the tables of one dataset into an empty DuckDB database. {@link DatasetStore} owns the file:
 * it calls {@link #build} on a temporary database and publishes it only when the build succeeds, so a
 * builder may throw at any point without leaving a half-built dataset behind.
 */
public interface DatasetBuilder {
    /** A content fingerprint of everything the build reads (file contents, generator version, seed, scale). */
    String fingerprint() throws Exception;

    /** One line for people: where the data comes from, e.g. "synthetic bank (seed 42, scale 1.0)". */
    String describe();

    /** The sources, one line each with secrets masked; recorded in the dataset's manifest. */
    default List<String> sources() {
        return List.of(describe());
    }

    /** Creates and fills the tables (in {@code main}, or one schema per source). Errors are one line naming the bad input. */
    void build(Connection db, Progress progress) throws Exception;

    /** What the last build decided about column types and noticed in the values (empty by default). */
    default LoadReport report() {
        return LoadReport.EMPTY;
    }
}
