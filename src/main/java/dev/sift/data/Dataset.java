package dev.sift.data;

import java.nio.file.Path;
import java.util.List;

/** A built dataset: an immutable DuckDB file plus what was recorded when it was built. */
public record Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                      List<TableSummary> tables) {

    public record TableSummary(String name, long rows) { }

    public long rows(String table) {
        return tables.stream().filter(t -> t.name().equals(table)).mapToLong(TableSummary::rows).findFirst().orElse(-1);
    }
}
