package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The knowledge-graph entries relevant to one question, for a model's prompt: entries the question names
 * exactly (concepts, metrics, disambiguations, value aliases), stored values it names, and the best
 * retrieval hits, rendered one line each within a character budget. Also tells which of them a piece of
 * SQL actually used.
 */
public final class KgContext {
    /** Retrieval hits added after the exact mentions. */
    static final int SEARCH_HITS = 8;

    private final Map<String, KgEntry> entries;
    private final List<ValueIndex.Match> values;

    private KgContext(Map<String, KgEntry> entries, List<ValueIndex.Match> values) {
        this.entries = entries;
        this.values = values;
    }

    /** The relevant entries of {@code k} for {@code question}. */
    public static KgContext forQuestion(Knowledge k, String question) {
        Map<String, KgEntry> out = new LinkedHashMap<>();
        for (KnowledgeGraph.Mention m : k.graph().mentions(question)) {
            for (KgEntry e : m.entries()) {
                if (e.kind() != KgEntry.Kind.TABLE && e.kind() != KgEntry.Kind.COLUMN) {
                    out.putIfAbsent(e.id(), e);
                }
            }
        }
        List<ValueIndex.Match> values = new ArrayList<>();
        for (ValueIndex.Mention m : k.values().mentions(question)) {
            for (ValueIndex.Match v : m.matches()) {
                values.add(v);
                if (v.alias() != null) {
                    k.graph().entry(v.alias()).ifPresent(e -> out.putIfAbsent(e.id(), e));
                }
            }
        }
        // value aliases come only from the values the question names, never from a loose word match
        for (SearchIndex.Hit h : k.index().search(question, SEARCH_HITS, "concept", "metric", "disambiguation", "join")) {
            if (!h.matched().isEmpty()) {
                k.graph().entry(h.doc().id()).ifPresent(e -> out.putIfAbsent(e.id(), e));
            }
        }
        // a join of keys in different formats finds no rows without its transform: always shown
        k.graph().joins().stream().filter(KgEntry.Join::normalised).forEach(j -> out.putIfAbsent(j.id(), j));
        return new KgContext(out, values);
    }

    public List<KgEntry> entries() {
        return List.copyOf(entries.values());
    }

    /** Stored values the question names (through aliases or the data). */
    public List<ValueIndex.Match> values() {
        return values;
    }

    public boolean isEmpty() {
        return entries.isEmpty() && values.isEmpty();
    }

    /** One line per entry, then the values, within {@code budget} characters (cut between lines). */
    public String render(int budget) {
        StringBuilder b = new StringBuilder();
        java.util.Set<String> lines = new java.util.LinkedHashSet<>(); // two mentions of one value: one line
        entries.values().forEach(e -> lines.add("- " + e.describe()));
        values.stream().filter(v -> v.alias() == null).forEach(v -> lines.add("- value in the data: '" + v.value()
                + "' is " + v.describe()));
        int left = 0;
        for (String l : lines) {
            if (b.length() + l.length() + 1 > budget) {
                left++;
                continue;
            }
            b.append(l).append('\n');
        }
        if (left > 0) {
            b.append("- … ").append(left).append(" more (query_kg search=… shows them)\n");
        }
        return b.toString().trim();
    }

    /** Whether SQL text contains an expression, with or without its {@code table.} qualifiers. */
    static boolean containsExpression(String sql, String expression) {
        String s = norm(sql);
        String e = norm(expression);
        return s.contains(e) || s.replaceAll("\\b[a-z_][a-z0-9_]*\\.", "").contains(e.replaceAll("\\b[a-z_][a-z0-9_]*\\.", ""));
    }

    private static String norm(String x) {
        return x.toLowerCase(Locale.ROOT).replace("\"", "").replaceAll("\\s+", " ").replaceAll(" ?([(),=]) ?", "$1");
    }

    /** The ids of the entries (and described values) that {@code sql} makes use of. */
    public List<String> usedBy(String sql) {
        String s = sql.toLowerCase(Locale.ROOT).replace("\"", "");
        List<String> used = new ArrayList<>();
        for (KgEntry e : entries.values()) {
            boolean u;
            if (e instanceof KgEntry.ValueAlias a) {
                u = s.contains("'" + a.value().toLowerCase(Locale.ROOT) + "'");
            } else if (e instanceof KgEntry.Metric m) {
                u = containsExpression(s, m.expression());
            } else if (e instanceof KgEntry.Join j) {
                u = s.contains(j.fromColumn().toLowerCase(Locale.ROOT)) && s.contains(j.toColumn().toLowerCase(Locale.ROOT))
                        && s.contains(j.fromTable().toLowerCase(Locale.ROOT)) && s.contains(j.toTable().toLowerCase(Locale.ROOT));
            } else if (e instanceof KgEntry.Concept c) {
                u = c.column() != null ? s.contains(KgLoader.columnOf(c.column()).toLowerCase(Locale.ROOT))
                        && s.contains(KgLoader.tableOf(c.column()).toLowerCase(Locale.ROOT))
                        : c.expression() != null && containsExpression(s, c.expression());
            } else {
                u = false;
            }
            if (u) {
                used.add(e.id());
            }
        }
        for (ValueIndex.Match v : values) {
            if (v.alias() == null && s.contains("'" + v.value().toLowerCase(Locale.ROOT) + "'")) {
                used.add("value:" + v.table() + "." + v.column() + "='" + v.value() + "'");
            }
        }
        return used;
    }
}
