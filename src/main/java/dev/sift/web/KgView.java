package dev.sift.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;

import java.util.List;
import java.util.Map;

/**
 * The knowledge graph as the app shows it ({@code GET /api/datasets/{name}/kg}): tables with their columns, joins with
 * their status (approved or candidate, measured or from the file), metrics, concepts and saved answers, and where the
 * dataset's knowledge file is.
 */
record KgView(String dataset, String file, @JsonProperty("file_exists") boolean fileExists, String source,
              List<Table> tables, List<Join> joins, List<Metric> metrics, List<Concept> concepts, List<Example> examples) {

    /** Values of a column shown at most (the graph keeps those of low-cardinality columns). */
    private static final int VALUES = 12;

    record Column(String name, String type, boolean key, String description, List<String> values, List<String> synonyms) { }

    record Table(String name, long rows, String description, List<String> synonyms, List<Column> columns) { }

    record Join(String name, String from, String to, boolean approved, boolean curated, String cardinality,
                double coverage, String meaning) { }

    record Metric(String name, String description, String expression, String grain, List<String> tables,
                  List<String> synonyms, String unit, boolean curated) { }

    record Concept(String name, String description, List<String> synonyms, String target) { }

    record Example(String question, String sql) { }

    /** What a change wrote: the file, the section and the entry as written. */
    record Saved(String file, String section, Map<String, Object> entry) { }

    static KgView of(KnowledgeGraph g, String file, boolean exists) {
        List<Table> tables = g.tables().stream().map(t -> new Table(t.name(), t.rows(), t.description(), t.synonyms(),
                g.columns(t.name()).stream().map(c -> new Column(c.name(), c.type(), c.key(), c.description(),
                        c.values().stream().limit(VALUES).toList(), c.synonyms())).toList())).toList();
        List<Join> joins = g.joins().stream().map(j -> new Join(j.name(), j.fromWritten(),
                j.toWritten(), j.approved(), j.curated(), j.cardinality(), j.coverage(), j.meaning()))
                .toList();
        List<Metric> metrics = g.metrics().stream().map(m -> new Metric(m.name(), m.description(), m.expression(), m.grain(),
                m.tables(), m.synonyms(), m.unit(), m.curated())).toList();
        List<Concept> concepts = g.concepts().stream().map((KgEntry.Concept c) -> new Concept(c.name(), c.description(),
                c.synonyms(), c.column() != null ? c.column() : c.expression() != null ? c.expression() : c.table())).toList();
        return new KgView(g.dataset(), file, exists, g.source().orElse(null), tables, joins, metrics, concepts,
                g.examples().stream().map(x -> new Example(x.question(), x.sql())).toList());
    }
}
