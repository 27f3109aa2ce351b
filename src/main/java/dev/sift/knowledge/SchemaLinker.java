package dev.sift.knowledge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Picks the tables a question needs from a large schema so the schema block a model sees stays within a
 * budget. Tables score by the retrieval rank of their entries (table, columns, concepts, metrics, joins,
 * value aliases), by stored values the question names, and by being named outright; the best
 * {@link #MAX_TABLES} are kept, then the tables that connect them along join paths are added. Wide tables
 * keep their key and join columns and the columns the question matched. A schema that fits the budget
 * whole is shown whole.
 */
public final class SchemaLinker {
    /** Tables kept by relevance (join partners come on top). */
    public static final int MAX_TABLES = 10;
    /** Columns shown per table before eliding the unmatched ones. */
    static final int MAX_COLUMNS = 16;
    private static final int SAMPLE_CHARS = 30;
    private static final int OTHER_NAMES = 40;

    /**
     * The result: the tables shown (most relevant first), why each was kept, the rendered block, and its
     * size against rendering every table (tokens estimated as characters / 4).
     */
    public record Linked(List<String> tables, Map<String, String> why, String block, int tokens, int allTokens,
                         boolean linked) { }

    /** The whole-schema rendering of a graph, kept with the knowledge it renders. */
    private record Whole(String text) { }

    private SchemaLinker() { }

    /** Links with the dataset's knowledge (graph, index and values). */
    public static Linked link(String question, Knowledge k, int budgetChars) {
        return link(question, k.graph(), k.index(), k.values(), k.derived(Whole.class, x -> new Whole(whole(x.graph())))
                .text(), budgetChars);
    }

    public static Linked link(String question, KnowledgeGraph kg, SearchIndex index, ValueIndex values, int budgetChars) {
        return link(question, kg, index, values, whole(kg), budgetChars);
    }

    private static String whole(KnowledgeGraph kg) {
        StringBuilder b = new StringBuilder();
        for (KgEntry.Table t : kg.tables()) {
            b.append(line(kg, t.name(), Set.of())).append('\n');
        }
        return b.toString();
    }

    private static Linked link(String question, KnowledgeGraph kg, SearchIndex index, ValueIndex values, String full,
                               int budgetChars) {
        List<String> all = kg.tables().stream().map(KgEntry.Table::name).toList();
        int allTokens = tokens(full.length());
        if (full.length() <= budgetChars) {
            Map<String, String> why = new LinkedHashMap<>();
            all.forEach(t -> why.put(t, "whole schema fits the budget"));
            return new Linked(all, why, full.trim(), allTokens, allTokens, false);
        }
        Map<String, Double> score = new LinkedHashMap<>();
        Map<String, String> why = new LinkedHashMap<>();
        Set<String> matchedColumns = new LinkedHashSet<>();
        List<SearchIndex.Hit> hits = index.search(question, 40, "table", "column", "concept", "metric", "value_alias", "join");
        for (int r = 0; r < hits.size(); r++) {
            SearchIndex.Hit h = hits.get(r);
            double s = 1.0 / (SearchIndex.RRF_K + r + 1);
            KgEntry e = kg.entry(h.doc().id()).orElse(null);
            if (e == null) {
                continue;
            }
            if (e instanceof KgEntry.Column c && !h.matched().isEmpty()) {
                matchedColumns.add(c.id());
            }
            for (String t : tablesOf(e)) {
                score.merge(t, s, Double::sum);
                why.putIfAbsent(t, "retrieved " + h.doc().id() + (h.matched().isEmpty() ? ""
                        : " (matched " + String.join(", ", h.matched()) + ")"));
            }
        }
        for (ValueIndex.Mention m : ValueFit.of(kg, question, values.mentions(question)).mentions()) {
            for (ValueIndex.Match v : m.matches()) {
                score.merge(v.table(), 2.0 / SearchIndex.RRF_K, Double::sum);
                why.put(v.table(), "the question names value '" + v.value() + "' of " + v.table() + "." + v.column());
                matchedColumns.add("column:" + v.table() + "." + v.column());
            }
        }
        Set<String> words = new LinkedHashSet<>(Phrases.words(question));
        for (String t : all) {
            if (words.containsAll(Phrases.words(t))) { // every word of the name: "loans", "hotel … invoices"
                score.merge(t, 3.0 / SearchIndex.RRF_K, Double::sum);
                why.put(t, "named in the question");
            }
        }
        // a table joined to a strong table is likelier than an equally matched stranger: add half of the best
        // neighbour's score to every table that matched something itself
        Map<String, Double> base = new LinkedHashMap<>(score);
        for (Map.Entry<String, Double> e : base.entrySet()) {
            double best = 0;
            String via = null;
            for (KgEntry.Join j : kg.joinsOf(e.getKey())) {
                String n = j.other(e.getKey());
                double s = base.getOrDefault(n, 0.0);
                if (s > best) {
                    best = s;
                    via = n;
                }
            }
            if (via != null) {
                score.merge(e.getKey(), best / 2, Double::sum);
                why.putIfAbsent(e.getKey(), "joins " + via);
            }
        }
        List<String> ranked = new ArrayList<>(score.keySet());
        ranked.sort(Comparator.comparing((String t) -> -score.get(t)).thenComparing(all::indexOf));
        List<String> chosen = new ArrayList<>(ranked.subList(0, Math.min(MAX_TABLES, ranked.size())));
        kg.joinTree(chosen).ifPresent(tree -> tree.forEach(j -> {
            for (String t : List.of(j.fromTable(), j.toTable())) {
                if (!chosen.contains(t)) {
                    chosen.add(t);
                    why.put(t, "joins the chosen tables (" + j.describe().replaceFirst(" \\(.*", "") + ")");
                }
            }
        }));
        StringBuilder b = new StringBuilder();
        List<String> shown = new ArrayList<>();
        for (String t : chosen) {
            String l = line(kg, t, matchedColumns);
            if (b.length() + l.length() + 1 > budgetChars * 0.8 && !shown.isEmpty()) {
                break;
            }
            b.append(l).append('\n');
            shown.add(t);
        }
        List<String> joins = new ArrayList<>();
        for (KgEntry.Join j : kg.joins()) {
            if (shown.contains(j.fromTable()) && shown.contains(j.toTable())) {
                joins.add(j.normalised() ? j.condition() + " (" + KgEntry.Join.FORMATS + (j.approved() ? ""
                        : String.format(java.util.Locale.ROOT, "; a candidate: %.0f %% of values found", 100 * j.coverage()))
                        + ")" : j.condition());
            }
        }
        if (!joins.isEmpty()) {
            b.append("Joins: ").append(String.join("; ", joins)).append('\n');
        }
        List<String> others = all.stream().filter(t -> !shown.contains(t)).toList();
        if (!others.isEmpty()) {
            b.append("… ").append(others.size()).append(" more tables not shown (query_kg search=… or inspect_data"
                    + " table=NAME shows them): ").append(String.join(", ", others.subList(0, Math.min(OTHER_NAMES,
                    others.size())))).append(others.size() > OTHER_NAMES ? ", …" : "").append('\n');
        }
        Map<String, String> whyShown = new LinkedHashMap<>();
        shown.forEach(t -> whyShown.put(t, why.getOrDefault(t, "")));
        return new Linked(List.copyOf(shown), whyShown, b.toString().trim(), tokens(b.length()), allTokens, true);
    }

    private static List<String> tablesOf(KgEntry e) {
        if (e instanceof KgEntry.Table t) {
            return List.of(t.name());
        } else if (e instanceof KgEntry.Column c) {
            return List.of(c.table());
        } else if (e instanceof KgEntry.Concept c) {
            return c.table() == null ? List.of() : List.of(c.table());
        } else if (e instanceof KgEntry.Metric m) {
            return m.tables();
        } else if (e instanceof KgEntry.ValueAlias a) {
            return List.of(a.table());
        } else if (e instanceof KgEntry.Join j) {
            return List.of(j.fromTable(), j.toTable());
        }
        return List.of();
    }

    /**
     * {@code table loan (682 rows): loan_id INTEGER key | status VARCHAR e.g. 'B' …}; a wide table keeps its
     * key and join columns and the {@code matched} ones, and says how many it elided.
     */
    public static String line(KnowledgeGraph kg, String table, Set<String> matched) {
        KgEntry.Table t = kg.table(table).orElseThrow();
        List<KgEntry.Column> cols = kg.columns(table);
        Set<String> joinCols = new LinkedHashSet<>();
        for (KgEntry.Join j : kg.joinsOf(t.name())) {
            if (j.fromTable().equals(table)) {
                joinCols.add(j.fromColumn());
            }
            if (j.toTable().equals(table)) {
                joinCols.add(j.toColumn());
            }
        }
        List<KgEntry.Column> keep = cols;
        if (cols.size() > MAX_COLUMNS) {
            keep = cols.stream().filter(c -> c.key() || joinCols.contains(c.name()) || matched.contains(c.id())).toList();
            if (keep.size() < MAX_COLUMNS) {
                List<KgEntry.Column> more = new ArrayList<>(keep);
                cols.stream().filter(c -> !more.contains(c)).limit(MAX_COLUMNS - keep.size()).forEach(more::add);
                more.sort(Comparator.comparing(cols::indexOf));
                keep = more;
            }
        }
        StringBuilder b = new StringBuilder("table ").append(KgSql.table(table)).append(" (").append(t.rows())
                .append(" rows): ");
        for (int i = 0; i < keep.size(); i++) {
            KgEntry.Column c = keep.get(i);
            b.append(i == 0 ? "" : " | ").append(c.name()).append(' ').append(c.type());
            if (c.key()) {
                b.append(" key");
            }
            if (c.sample() != null) {
                String s = c.sample().replaceAll("\\s+", " ");
                s = s.length() > SAMPLE_CHARS ? s.substring(0, SAMPLE_CHARS) + "…" : s;
                boolean text = c.type().startsWith("VARCHAR") || c.type().equals("DATE") || c.type().startsWith("TIMESTAMP");
                b.append(" e.g. ").append(text ? "'" + s.replace("'", "''") + "'" : s);
            }
        }
        if (keep.size() < cols.size()) {
            b.append(" | … ").append(cols.size() - keep.size()).append(" more columns");
        }
        return b.toString();
    }

    static int tokens(int chars) {
        return (chars + 3) / 4;
    }
}
