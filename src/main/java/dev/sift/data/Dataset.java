package dev.sift.data;

import java.nio.file.Path;
import java.util.List;

/**
 * A dataset: an immutable DuckDB file plus what was recorded when it was built, or a live dataset whose
 * tables stay on an engine ({@code live} is then the engine's URL with secrets masked, and {@code file} the
 * connection file holding the engine's cached schema; see {@code dev.sift.data.engine}).
 */
public record Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                      List<TableSummary> tables, String live) {

    public record TableSummary(String name, long rows) { }

    /** A dataset built into a DuckDB file. */
    public Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                   List<TableSummary> tables) {
        this(name, file, fingerprint, description, builtAt, tables, null);
    }

    /** Whether the data lives on an engine (nothing copied) rather than in a DuckDB file. */
    public boolean onEngine() {
        return live != null;
    }

    public long rows(String table) {
        return tables.stream().filter(t -> t.name().equals(table)).mapToLong(TableSummary::rows).findFirst().orElse(-1);
    }
}
