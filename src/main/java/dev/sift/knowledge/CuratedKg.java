package dev.sift.knowledge;

import java.util.List;
import java.util.Map;

/**
 * A parsed curated knowledge-graph file, before it is checked against a dataset: table and column
 * curation (descriptions, units, codes, synonyms) and the curated entries (concepts, metrics, joins,
 * disambiguations, value aliases). {@link KgLoader#overlay} validates it and merges it into the automatic graph.
 * {@code digest} is a hash of the source and text it was parsed from (of both, merged), or null.
 */
public record CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries,
                        List<PredictionTask> predictions, List<VerifiedExample> examples, Map<String, String> types,
                        String digest) {

    /** Without a digest of the text it came from (so its validity is never remembered: {@link KgValidity}). */
    public CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries,
                     List<PredictionTask> predictions, List<VerifiedExample> examples, Map<String, String> types) {
        this(source, description, tables, entries, predictions, examples, types, null);
    }

    public CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries) {
        this(source, description, tables, entries, List.of());
    }

    public CuratedKg(String source, String description, Map<String, TableNote> tables, List<KgEntry> entries,
                     List<PredictionTask> predictions) {
        this(source, description, tables, entries, predictions, List.of(), Map.of());
    }

    /**
     * {@code over} laid on {@code base}: table and column notes of {@code over} replace those of {@code base}
     * column by column, its entries replace entries with the same id, and the rest is kept; the source names both.
     */
    public static CuratedKg merge(CuratedKg base, CuratedKg over) {
        Map<String, TableNote> tables = new java.util.LinkedHashMap<>(base.tables());
        over.tables().forEach((t, note) -> tables.merge(t, note, (a, b) -> {
            Map<String, ColumnNote> cols = new java.util.LinkedHashMap<>(a.columns());
            cols.putAll(b.columns());
            List<String> syn = new java.util.ArrayList<>(a.synonyms());
            b.synonyms().stream().filter(x -> !syn.contains(x)).forEach(syn::add);
            return new TableNote(b.description() != null ? b.description() : a.description(), List.copyOf(syn), cols);
        }));
        java.util.Set<String> ids = new java.util.HashSet<>(over.entries().stream().map(KgEntry::id).toList());
        List<KgEntry> entries = new java.util.ArrayList<>(base.entries().stream().filter(e -> !ids.contains(e.id())).toList());
        entries.addAll(over.entries());
        List<PredictionTask> predictions = new java.util.ArrayList<>(base.predictions());
        predictions.addAll(over.predictions());
        List<VerifiedExample> examples = new java.util.ArrayList<>(base.examples());
        examples.addAll(over.examples());
        Map<String, String> types = new java.util.LinkedHashMap<>(base.types());
        types.putAll(over.types());
        return new CuratedKg(base.source() + " + " + over.source(), over.description() != null ? over.description()
                : base.description(), tables, List.copyOf(entries), List.copyOf(predictions), List.copyOf(examples),
                Map.copyOf(types), base.digest() == null || over.digest() == null ? null
                        : KgLoader.digest(base.digest() + "\n" + over.digest()));
    }

    /** Curation of one table. */
    public record TableNote(String description, List<String> synonyms, Map<String, ColumnNote> columns) { }

    /** Curation of one column. */
    public record ColumnNote(String description, String unit, Map<String, String> codes, List<String> synonyms) { }
}
