package dev.sift.data;

import java.nio.file.Path;
import java.util.List;

/**
 * A built dataset: an immutable DuckDB file plus what was recorded when it was built. {@code sources} are the
 * places it was built from, one line each with secrets masked ({@code "user_database: DuckDB file …"}); a table of
 * a dataset with several sources is named {@code schema.table}, one of a single source just {@code table}.
 *
 * <p>Or a live dataset whose tables stay on an engine: {@code live} is then the engine's URL with secrets masked,
 * and {@code file} the connection file holding the engine's cached schema (see {@code dev.sift.data.engine}).
 */
public record Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                      List<TableSummary> tables, List<String> sources, String live) {

    public record TableSummary(String name, long rows) { }

    public Dataset {
        sources = sources == null ? List.of() : List.copyOf(sources); // manifests written before sources were kept
    }

    public Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                   List<TableSummary> tables, List<String> sources) {
        this(name, file, fingerprint, description, builtAt, tables, sources, null);
    }

    public Dataset(String name, Path file, String fingerprint, String description, String builtAt,
                   List<TableSummary> tables) {
        this(name, file, fingerprint, description, builtAt, tables, List.of(), null);
    }

    /** Whether the data lives on an engine (nothing copied) rather than in a DuckDB file. */
    public boolean onEngine() {
        return live != null;
    }

    public long rows(String table) {
        return tables.stream().filter(t -> t.name().equals(table)).mapToLong(TableSummary::rows).findFirst().orElse(-1);
    }
}
