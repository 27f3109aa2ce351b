package dev.sift.bench;

import picocli.CommandLine.Option;

/** {@code --rows N}: the size of the table a benchmark generates; each bench has its own default. */
public final class RowsOption {
    @Option(names = "--rows", paramLabel = "N", description = "rows of the generated table (default: 10,000,000 for"
            + " engine and load-memory, 1,000,000 for load)")
    Long rows;

    /** The rows given, else {@code defaultRows}; fewer than one is refused. */
    long rows(long defaultRows) {
        long n = rows == null ? defaultRows : rows;
        if (n < 1) {
            throw new IllegalArgumentException("--rows must be at least 1, got " + n);
        }
        return n;
    }
}
