package dev.sift.knowledge;

import dev.sift.data.Clip;

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

    /**
     * The tables a question points at, best first, each with its score and why, and the columns it matched. Tables
     * score by the retrieval rank of their entries, stored values the question names, being named outright, and half
     * of their best-scoring join partner's score; a table that matched nothing is not in it.
     */
    public record Ranking(List<String> tables, Map<String, Double> score, Map<String, String> why,
                          Set<String> matchedColumns) {
        /** The best {@code max} tables, plus the tables that connect them along join paths. */
        public List<String> withConnectors(KnowledgeGraph kg, int max, Map<String, String> reasons) {
            List<String> chosen = new ArrayList<>(tables.subList(0, Math.min(max, tables.size())));
            chosen.forEach(t -> reasons.put(t, why.getOrDefault(t, "")));
            kg.joinTree(chosen).ifPresent(tree -> tree.forEach(j -> {
                for (String t : List.of(j.fromTable(), j.toTable())) {
                    if (!chosen.contains(t)) {
                        chosen.add(t);
                        reasons.put(t, "joins the chosen tables (" + j.describe().replaceFirst(" \\(.*", "") + ")");
                    }
                }
            }));
            return chosen;
        }
    }

    /**
     * The tables a prompt shows whole for a question, most relevant first, why each, and the columns the question
     * names (directly, through a concept or a value). A table is in it when the question names it, one of its
     * columns, a concept, metric or join on it, or one of its values; a phrase that fits several tables alike
     * ("amount": loan, trans and order) counts only when none of those tables is named otherwise. Then the tables
     * that connect them along join paths. With no such evidence, the best retrieved tables (at most
     * {@link #FALLBACK_TABLES}, each scoring at least half of the best).
     */
    public record Focus(List<String> tables, Map<String, String> why, Set<String> columns) { }

    /** Tables shown for a question that names none: the best retrieved, at most this many. */
    static final int FALLBACK_TABLES = 3;

    public static Focus focus(String question, Knowledge k) {
        KnowledgeGraph kg = k.graph();
        List<Evidence> evidence = new ArrayList<>();
        for (KnowledgeGraph.Mention m : kg.mentions(question)) {
            evidence.add(Evidence.of("'" + m.phrase() + "' → ", m.entries().stream().map(SchemaLinker::reading)
                    .filter(r -> !r.tables().isEmpty()).toList()));
        }
        for (ValueIndex.Mention m : k.values().mentions(question)) {
            evidence.add(Evidence.of("'" + m.phrase() + "' → value ", m.matches().stream().map(v -> new Reading(v.table()
                    + "." + v.column() + " = '" + v.value() + "'", List.of(v.table()), "column:" + v.table() + "." + v.column(),
                    false)).toList()));
        }
        Map<String, String> why = new LinkedHashMap<>();
        Set<String> columns = new LinkedHashSet<>();
        evidence.stream().filter(Evidence::definite).forEach(e -> e.add(why, columns));
        evidence.stream().filter(e -> !e.definite() && e.tables().stream().noneMatch(why::containsKey))
                .forEach(e -> e.add(why, columns));
        Ranking ranking = rank(question, k);
        List<String> chosen = new ArrayList<>(ranking.tables().stream().filter(why::containsKey).toList());
        why.keySet().stream().filter(t -> !chosen.contains(t)).forEach(chosen::add);
        if (chosen.isEmpty() && !ranking.tables().isEmpty()) {
            double best = ranking.score().get(ranking.tables().get(0));
            ranking.tables().stream().filter(t -> ranking.score().get(t) >= best / 2).limit(FALLBACK_TABLES)
                    .forEach(t -> {
                        chosen.add(t);
                        why.put(t, ranking.why().getOrDefault(t, "retrieved"));
                    });
        }
        kg.joinTree(chosen).ifPresent(tree -> tree.forEach(j -> {
            for (String t : List.of(j.fromTable(), j.toTable())) {
                if (!chosen.contains(t)) {
                    chosen.add(t);
                    why.put(t, "joins the tables the question names (" + j.written() + ")");
                }
            }
        }));
        Map<String, String> ordered = new LinkedHashMap<>();
        chosen.forEach(t -> ordered.put(t, why.get(t)));
        return new Focus(List.copyOf(chosen), ordered, columns);
    }

    /**
     * One reading of a phrase: an entry, the tables it is on, its column (null for a table or metric), and whether it
     * names a table (the table itself, or a concept that stands for one).
     */
    private record Reading(String what, List<String> tables, String column, boolean namesTable) { }

    /** A phrase of the question and its readings; definite when they all point at the same tables. */
    private record Evidence(String said, List<Reading> readings) {
        /** A phrase that names a table is read as that table ("account": table account, not column trans.account). */
        static Evidence of(String said, List<Reading> readings) {
            List<Reading> naming = readings.stream().filter(Reading::namesTable).toList();
            return new Evidence(said, naming.isEmpty() ? readings : naming);
        }

        Set<String> tables() {
            Set<String> out = new LinkedHashSet<>();
            readings.forEach(r -> out.addAll(r.tables()));
            return out;
        }

        boolean definite() {
            return !readings.isEmpty() && readings.stream().map(r -> Set.copyOf(r.tables())).distinct().count() == 1;
        }

        void add(Map<String, String> why, Set<String> columns) {
            for (Reading r : readings) {
                r.tables().forEach(t -> why.putIfAbsent(t, said + r.what()));
                if (r.column() != null) {
                    columns.add(r.column());
                }
            }
        }
    }

    /** What an entry the question names points at: its tables, and its column ({@code column:t.c}) when it has one. */
    private static Reading reading(KgEntry e) {
        if (e instanceof KgEntry.Column c) {
            return new Reading(e.id(), List.of(c.table()), c.id(), false);
        } else if (e instanceof KgEntry.Concept c && c.column() != null) {
            String table = c.column().substring(0, c.column().lastIndexOf('.'));
            return new Reading(e.id(), List.of(table), "column:" + c.column(), false);
        } else if (e instanceof KgEntry.ValueAlias a) {
            return new Reading(e.id(), List.of(a.table()), "column:" + a.table() + "." + a.column(), false);
        }
        boolean names = e instanceof KgEntry.Table || (e instanceof KgEntry.Concept c && c.expression() == null);
        return new Reading(e.id(), tablesOf(e), null, names);
    }

    /** Ranks the tables of the dataset's knowledge for {@code question}. */
    public static Ranking rank(String question, Knowledge k) {
        return rank(question, k.graph(), k.index(), k.values());
    }

    public static Ranking rank(String question, KnowledgeGraph kg, SearchIndex index, ValueIndex values) {
        Map<String, Double> score = new LinkedHashMap<>();
        Map<String, String> why = new LinkedHashMap<>();
        Set<String> matchedColumns = new LinkedHashSet<>();
        List<SearchIndex.Hit> hits = index.search(question, 40, "table", "column", "concept", "metric", "value_alias", "join");
        for (int r = 0; r < hits.size(); r++) {
            SearchIndex.Hit h = hits.get(r);
            KgEntry e = kg.entry(h.doc().id()).orElse(null);
            if (e == null) {
                continue;
            }
            if (e instanceof KgEntry.Column c && !h.matched().isEmpty()) {
                matchedColumns.add(c.id());
            }
            for (String t : tablesOf(e)) {
                score.merge(t, 1.0 / (SearchIndex.RRF_K + r + 1), Double::sum);
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
        List<String> all = kg.tables().stream().map(KgEntry.Table::name).toList();
        Set<String> words = new LinkedHashSet<>(Phrases.words(question));
        for (String t : all) {
            if (words.containsAll(Phrases.words(t))) { // every word of the name: "loans", "hotel … invoices"
                score.merge(t, 3.0 / SearchIndex.RRF_K, Double::sum);
                why.put(t, "named in the question");
            }
        }
        neighbours(kg, score, why);
        List<String> ranked = new ArrayList<>(score.keySet());
        ranked.sort(Comparator.comparing((String t) -> -score.get(t)).thenComparing(all::indexOf));
        return new Ranking(List.copyOf(ranked), Map.copyOf(score), why, matchedColumns);
    }

    /**
     * A table joined to a strong table is likelier than an equally matched stranger: adds half of the best
     * neighbour's score to every table that matched something itself.
     */
    private static void neighbours(KnowledgeGraph kg, Map<String, Double> score, Map<String, String> why) {
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
        Ranking ranking = rank(question, kg, index, values);
        Map<String, String> why = new LinkedHashMap<>();
        List<String> chosen = ranking.withConnectors(kg, MAX_TABLES, why);
        StringBuilder b = new StringBuilder();
        List<String> shown = new ArrayList<>();
        for (String t : chosen) {
            String l = line(kg, t, ranking.matchedColumns());
            if (b.length() + l.length() + 1 > budgetChars * 0.8 && !shown.isEmpty()) {
                break;
            }
            b.append(l).append('\n');
            shown.add(t);
        }
        b.append(joinsAndOthers(kg, all, shown));
        Map<String, String> whyShown = new LinkedHashMap<>();
        shown.forEach(t -> whyShown.put(t, why.getOrDefault(t, "")));
        return new Linked(List.copyOf(shown), whyShown, b.toString().trim(), tokens(b.length()), allTokens, true);
    }

    /** The joins among the tables shown, then the names of the tables left out. */
    private static String joinsAndOthers(KnowledgeGraph kg, List<String> all, List<String> shown) {
        StringBuilder b = new StringBuilder();
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
        return b.toString();
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
                joinCols.addAll(j.fromColumns());
            }
            if (j.toTable().equals(table)) {
                joinCols.addAll(j.toColumns());
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
                s = Clip.words(s, SAMPLE_CHARS);
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
