package dev.sift.knowledge;

import java.util.List;
import java.util.Map;

/**
 * A parsed curated knowledge-graph file, before it is checked against a dataset: table and column
 * curation (descriptions, units, codes, synonyms) and the curated entries (concepts, metrics, joins,
 * disambiguations, value aliases). {@link KgLoader#overlay} validates it and merges it into the automatic graph.
 */
public record CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries,
                        List<PredictionTask> predictions) {

    public CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries) {
        this(source, description, tables, entries, List.of());
    }

    /** Curation of one table. */
    public record TableNote(String description, List<String> synonyms, Map<String, ColumnNote> columns) { }

    /** Curation of one column. */
    public record ColumnNote(String description, String unit, Map<String, String> codes, List<String> synonyms) { }
}
