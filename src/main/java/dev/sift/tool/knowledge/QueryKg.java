package dev.sift.tool.knowledge;

import dev.sift.data.Names;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.SearchIndex;
import dev.sift.knowledge.ValueIndex;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the dataset's knowledge graph: with no arguments an outline; {@code section=} lists one kind of
 * entry; {@code search=} returns the top-k entries for a text (best with the user's full question) and the
 * stored values it names; {@code node=} the full record of one entry.
 */
public final class QueryKg implements Tool<QueryKg.Args> {
    static final int DEFAULT_K = 8;
    static final int MAX_K = 30;
    static final List<String> SECTIONS = Arrays.stream(KgEntry.Kind.values()).map(KgEntry.Kind::wire).toList();

    public record Args(
            @Arg(value = "list one section: table, column, concept, metric, join, disambiguation or value_alias",
                    required = false) String section,
            @Arg(value = "text to search for, best the user's full question", required = false,
                    aliases = {"query", "q"}) String search,
            @Arg(value = "id of one entry for its full record, e.g. metric:default_rate or column:loan.status",
                    required = false, aliases = {"id"}) String node,
            @Arg(value = "how many search results (default 8, at most 30)", required = false) Integer k) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("query_kg", "The knowledge graph: concepts, metrics (exact SQL), joins, code meanings,"
                + " value aliases ('Prague' → stored value). No args: outline; section=KIND lists; search=TEXT"
                + " matches; node=ID: one record.",
                Args.class, "knowledge-graph entries", Set.of("knowledge"));
    }

    @Override
    public int summaryCap() {
        return 4000;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws ToolCallException {
        int given = (args.section() == null ? 0 : 1) + (args.search() == null ? 0 : 1) + (args.node() == null ? 0 : 1);
        if (given > 1) {
            throw new ToolCallException("query_kg takes at most one of section, search and node; got " + given
                    + ". Call it once per lookup.");
        }
        if (args.k() != null && (args.k() < 1 || args.k() > MAX_K)) {
            throw new ToolCallException("k must be between 1 and " + MAX_K + ", got " + args.k() + ".");
        }
        Knowledge k = ctx.knowledge();
        KnowledgeGraph kg = k.graph();
        if (args.section() != null) {
            return section(kg, args.section());
        }
        if (args.search() != null) {
            return search(k, args.search(), args.k() == null ? DEFAULT_K : args.k());
        }
        if (args.node() != null) {
            return node(kg, args.node());
        }
        return ToolResult.ok(kg.outline() + "\nUse query_kg with search=<the question> for the relevant entries,"
                + " section=<kind> to list one kind, node=<id> for one entry.", Map.of("outline", kg.outline()));
    }

    private static ToolResult section(KnowledgeGraph kg, String section) throws ToolCallException {
        String s = section.trim().toLowerCase(java.util.Locale.ROOT).replaceAll("s$", "").replace("join_path", "join");
        if (!SECTIONS.contains(s)) {
            throw new ToolCallException("Unknown section '" + section + "'. Sections: " + String.join(", ", SECTIONS) + "."
                    + Names.didYouMean(section, SECTIONS));
        }
        List<KgEntry> of = kg.entries().stream().filter(e -> e.kind().wire().equals(s)).toList();
        if (of.isEmpty()) {
            return ToolResult.ok("No " + s + " entries in the knowledge graph of " + kg.dataset()
                    + (kg.source().isEmpty() ? " (it has no curated file; only tables, columns and inferred joins)." : "."),
                    List.of());
        }
        StringBuilder b = new StringBuilder(of.size() + " " + s + " entries:\n");
        of.forEach(e -> b.append("- ").append(e.id()).append(": ").append(e.describe()).append('\n'));
        return ToolResult.ok(b.toString().trim(), of);
    }

    private static ToolResult search(Knowledge k, String text, int n) {
        List<SearchIndex.Hit> hits = k.index().search(text, n);
        List<ValueIndex.Mention> values = k.values().mentions(text);
        if (hits.isEmpty() && values.isEmpty()) {
            return ToolResult.ok("Nothing in the knowledge graph matches '" + text + "'. Try other words, or"
                    + " query_kg with no arguments for the outline.", List.of());
        }
        StringBuilder b = new StringBuilder("Top " + hits.size() + " knowledge-graph matches for '" + text + "':\n");
        List<Map<String, Object>> payload = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            SearchIndex.Hit h = hits.get(i);
            KgEntry e = k.graph().entry(h.doc().id()).orElseThrow();
            b.append(i + 1).append(". ").append(e.id()).append(" — ").append(e.describe());
            if (!h.matched().isEmpty()) {
                b.append(" [matched: ").append(String.join(", ", h.matched())).append(']');
            }
            b.append('\n');
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", e.id());
            item.put("score", h.score());
            item.put("how", h.how());
            item.put("matched", h.matched());
            item.put("entry", e);
            payload.add(item);
        }
        if (!values.isEmpty()) {
            b.append("Values named in the text:\n");
            for (ValueIndex.Mention m : values) {
                b.append("- '").append(m.phrase()).append("' → ").append(String.join(" or ",
                        m.matches().stream().map(ValueIndex.Match::describe).toList())).append('\n');
            }
        }
        return ToolResult.ok(b.toString().trim(), Map.of("hits", payload, "values", values));
    }

    private static ToolResult node(KnowledgeGraph kg, String id) throws ToolCallException {
        KgEntry e = kg.entry(id.trim()).orElse(null);
        if (e == null) {
            List<String> ids = kg.entries().stream().map(KgEntry::id).toList();
            throw new ToolCallException("No knowledge-graph entry '" + id + "'. Ids look like kind:name, e.g. "
                    + "metric:default_rate, column:loan.status, table:loan; query_kg with search=… finds them."
                    + Names.didYouMean(id, ids));
        }
        StringBuilder b = new StringBuilder(e.id()).append('\n').append(e.describe());
        if (!e.phrases().isEmpty()) {
            b.append("\nPhrases: ").append(String.join(", ", e.phrases()));
        }
        if (e instanceof KgEntry.Table t) {
            b.append("\nColumns:");
            kg.columns(t.name()).forEach(c -> b.append("\n- ").append(c.describe()));
            List<String> joins = kg.joins().stream().filter(j -> j.other(t.name()) != null).map(KgEntry.Join::describe).toList();
            if (!joins.isEmpty()) {
                b.append("\nJoins:");
                joins.forEach(j -> b.append("\n- ").append(j));
            }
        } else if (e instanceof KgEntry.Column c && c.values().size() > 12) {
            b.append("\nAll values: ").append(String.join(", ", c.values().stream().map(v -> "'" + v + "'").toList()));
        } else if (e instanceof KgEntry.Metric m) {
            KgSql.from(kg, m.tables()).ifPresent(f -> b.append("\nSQL: SELECT ").append(m.expression()).append(" FROM ").append(f));
        } else if (e instanceof KgEntry.Join j) {
            b.append("\nSQL: JOIN ON ").append(j.condition());
        }
        return ToolResult.ok(b.toString(), e);
    }
}
