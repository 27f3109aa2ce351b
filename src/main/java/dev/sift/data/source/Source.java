package dev.sift.data.source;

import dev.sift.data.Progress;

import java.sql.Connection;

/**
 * One place data lives (a file, a database file, a dump folder, a server, an object store), read into one
 * schema of a dataset's DuckDB file. A dataset built from several sources gives each its own schema, named by
 * the source's alias; a dataset of one source uses {@code main}.
 *
 * <p>Contract: {@link #describe()} and every error message name the source with secrets masked; a source never
 * writes to where it reads from; {@link #load} streams in bounded memory and reports rows per table.
 */
public interface Source {
    /** A fingerprint of what a load would read: file contents; for a server its schema, row counts, max ids. */
    String fingerprint() throws Exception;

    /** One line for people, secrets masked, e.g. "PostgreSQL postgresql://sift:***@localhost:5432/shop". */
    String describe();

    /** Creates and fills this source's tables in {@code schema} (which exists) of {@code db}. */
    void load(Connection db, String schema, Progress progress) throws Exception;
}
