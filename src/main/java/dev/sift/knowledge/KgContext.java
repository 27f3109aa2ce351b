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
    /** Distinct question words a retrieved entry must share to be shown. */
    static final int MIN_SEARCH_WORDS = 2;

    private final Map<String, KgEntry> entries;
    /** Entries only retrieval found (the question names none of their phrases): a long note is shown by its gist. */
    private final java.util.Set<String> searched;
    private final List<ValueIndex.Match> values;
    /** How bare numbers of the question are read instead of as a text value that holds them ({@link ValueFit}). */
    private final List<String> readings;
    /** For the other spellings of a value the question names (case and spacing variants in the column's values). */
    private final KnowledgeGraph graph;

    private KgContext(Map<String, KgEntry> entries, java.util.Set<String> searched, List<ValueIndex.Match> values,
                      List<String> readings, KnowledgeGraph graph) {
        this.entries = entries;
        this.searched = searched;
        this.values = values;
        this.readings = readings;
        this.graph = graph;
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
        ValueFit.Fitted fitted = ValueFit.of(k.graph(), question, k.values().mentions(question));
        // an alias the question's other words contradict is not shown, however its phrase was found
        java.util.Set<String> fits = new java.util.HashSet<>();
        fitted.mentions().forEach(m -> m.matches().forEach(v -> fits.add(v.alias())));
        out.values().removeIf(e -> e.kind() == KgEntry.Kind.VALUE_ALIAS && !fits.contains(e.id()));
        for (ValueIndex.Mention m : fitted.mentions()) {
            for (ValueIndex.Match v : m.matches()) {
                values.add(v);
                if (v.alias() != null) {
                    k.graph().entry(v.alias()).ifPresent(e -> out.putIfAbsent(e.id(), e));
                }
            }
        }
        // value aliases come only from the values the question names, never from a loose word match
        java.util.Set<String> searched = new java.util.HashSet<>();
        for (SearchIndex.Hit h : k.index().search(question, SEARCH_HITS, "concept", "metric", "disambiguation", "join")) {
            // one shared word ("loan") is how every loan concept scores: retrieval needs two of the question's words
            if (h.matched().stream().distinct().count() >= MIN_SEARCH_WORDS) {
                k.graph().entry(h.doc().id()).filter(e -> out.putIfAbsent(e.id(), e) == null)
                        .ifPresent(e -> searched.add(e.id()));
            }
        }
        // a join of keys in different formats finds no rows without its transform: always shown
        k.graph().joins().stream().filter(KgEntry.Join::normalised).forEach(j -> out.putIfAbsent(j.id(), j));
        return new KgContext(out, searched, values, fitted.readings(), k.graph());
    }

    public List<KgEntry> entries() {
        return List.copyOf(entries.values());
    }

    /** Stored values the question names (through aliases or the data). */
    public List<ValueIndex.Match> values() {
        return values;
    }

    public boolean isEmpty() {
        return entries.isEmpty() && values.isEmpty() && readings.isEmpty();
    }

    /** "concept loan → table loan": a concept that only names its own table tells a prompt that shows the table nothing. */
    private static boolean plainTable(KgEntry e) {
        return e instanceof KgEntry.Concept c && c.column() == null && c.expression() == null && c.description() == null
                && c.name().equalsIgnoreCase(c.table());
    }

    /** One line per entry, then the values, within {@code budget} characters (cut between lines). */
    public String render(int budget) {
        return render(budget, true);
    }

    /**
     * As above; {@code joins} false leaves out the joins (a prompt whose dataset facts list every join, with the
     * formats of keys that differ). A long note only retrieval found is named with the call that shows it; what
     * the budget leaves out is named, with that call.
     */
    public String render(int budget, boolean joins) {
        StringBuilder b = new StringBuilder();
        java.util.Map<String, String> lines = new java.util.LinkedHashMap<>(); // two mentions of one value: one line
        for (KgEntry e : entries.values()) {
            if (!joins && (e instanceof KgEntry.Join || plainTable(e))) {
                continue;
            }
            lines.putIfAbsent("- " + line(e) + (e instanceof KgEntry.ValueAlias a
                    ? spellings(a.table(), a.column(), a.value()) : ""), e.id());
        }
        Map<String, List<ValueIndex.Match>> byColumnValue = new LinkedHashMap<>();
        values.stream().filter(v -> v.alias() == null).forEach(v -> byColumnValue.computeIfAbsent(v.table() + "."
                + v.column() + "=" + fold(v.value()), x -> new ArrayList<>()).add(v));
        byColumnValue.values().forEach(group -> lines.putIfAbsent(valueLine(group), null));
        readings.forEach(r -> lines.putIfAbsent("- " + r, null));
        List<String> left = new ArrayList<>();
        int unnamed = 0;
        for (Map.Entry<String, String> l : lines.entrySet()) {
            if (b.length() + l.getKey().length() + 1 > budget) {
                if (l.getValue() == null) {
                    unnamed++;
                } else {
                    left.add(l.getValue());
                }
                continue;
            }
            b.append(l.getKey()).append('\n');
        }
        if (!left.isEmpty()) {
            b.append("- not shown for room: ").append(String.join(", ", left))
                    .append(" (query_kg node=ID shows one)\n");
        }
        if (unnamed > 0) {
            b.append("- ").append(unnamed).append(" more value line").append(unnamed == 1 ? "" : "s")
                    .append(" not shown for room (sample_values source=TABLE column=COLUMN lists a column's values)\n");
        }
        return b.toString().trim();
    }

    /** An entry's line: whole, or for a long note only retrieval found, its name and the call that shows it. */
    private String line(KgEntry e) {
        String whole = e.describe();
        if (!(e instanceof KgEntry.Disambiguation d) || !searched.contains(e.id()) || whole.length() <= GIST) {
            return whole;
        }
        return "disambiguation " + d.name() + " (a note; query_kg node=" + e.id() + " shows it)";
    }

    /** A note only retrieval found is named, not shown, when it is longer than this. */
    static final int GIST = 160;

    /**
     * One line for the values of one column that the question names and that differ only in case or spacing:
     * {@code 'Web' / 'web' are orders.channel = 'Web' / 'web' (one value written 2 ways: …)}.
     */
    private String valueLine(List<ValueIndex.Match> group) {
        ValueIndex.Match first = group.get(0);
        java.util.Set<String> all = new java.util.LinkedHashSet<>();
        group.forEach(v -> all.add(v.value()));
        all.addAll(variantsOf(first.table(), first.column(), first.value()));
        if (all.size() == 1) {
            return "- value in the data: '" + first.value() + "' is " + first.describe();
        }
        String listed = String.join(" / ", all.stream().map(v -> "'" + v + "'").toList());
        return "- value in the data: " + listed + " are " + first.table() + "." + first.column() + " = " + listed
                + (first.note() == null ? "" : " (" + first.note() + ")") + " — one value written " + all.size()
                + " ways: match all of them (e.g. lower(" + first.column() + ") = '" + fold(first.value())
                + "') or say which one you count";
    }

    /** For a value alias: the column's other spellings of its value, e.g. " (the data also has 'Wholesale': …)". */
    private String spellings(String table, String column, String value) {
        List<String> other = variantsOf(table, column, value).stream().filter(v -> !v.equals(value)).toList();
        return other.isEmpty() ? "" : " (the data also has " + String.join(", ", other.stream().map(v -> "'" + v + "'")
                .toList()) + ": match every spelling or say which one you count)";
    }

    private List<String> variantsOf(String table, String column, String value) {
        if (graph == null) {
            return List.of();
        }
        String f = fold(value);
        return graph.column(table, column).map(c -> c.values().stream().filter(v -> fold(v).equals(f)).toList())
                .orElse(List.of());
    }

    private static String fold(String v) {
        return v.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
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
                u = j.pairs().stream().allMatch(p -> s.contains(p.from().toLowerCase(Locale.ROOT))
                        && s.contains(p.to().toLowerCase(Locale.ROOT)))
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
