package dev.sift.data;

/**
 * Receives progress of long work (dataset builds). Implementations must be cheap (called often) and thread-safe: a
 * source read by several threads reports from each.
 */
@FunctionalInterface
public interface Progress {
    /** {@code total} is -1 when unknown. */
    void report(String stage, long done, long total);

    Progress NONE = (stage, done, total) -> { };
}
