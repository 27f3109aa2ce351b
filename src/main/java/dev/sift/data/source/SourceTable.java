package dev.sift.data.source;

import java.util.List;

/**
 * One table (or view) of a source as it will load: where it lives ({@code schema}), its columns with their
 * mapping, and the columns whose maximum tells that rows were added or changed (an identity column, an
 * updated-at timestamp), which the fingerprint reads.
 */
public record SourceTable(String schema, String name, List<SourceColumn> columns, List<String> changeMarkers) {
    public SourceTable {
        columns = List.copyOf(columns);
        changeMarkers = List.copyOf(changeMarkers);
    }
}
