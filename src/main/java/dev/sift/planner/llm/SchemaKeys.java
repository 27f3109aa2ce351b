package dev.sift.planner.llm;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The part of the schema block a model needs to join and read tables correctly: each table's key, the approved
 * joins between the tables shown written as conditions ({@code client.district_id = district.A1}), and a short
 * meaning per column where the knowledge graph has one (with short code lists). Cut between entries, never
 * inside one, within its own budget, and says what it left out.
 */
public final class SchemaKeys {
    /** Characters of keys, joins and column meanings in the system prompt. */
    public static final int BUDGET = 3000;
    static final int DESCRIPTION_CHARS = 60;
    static final int CODES_CHARS = 200;

    private SchemaKeys() { }

    /** The block for {@code tables} of {@code kg} (names as the graph has them); empty when the graph knows none. */
    public static String render(KnowledgeGraph kg, Collection<String> tables, int budget) {
        List<KgEntry.Join> joins = kg.joins().stream()
                .filter(j -> j.approved() && tables.contains(j.fromTable()) && tables.contains(j.toTable())).toList();
        // a foreign key is said by its join: not listed again as a key or a meaning
        java.util.Set<String> foreign = new java.util.HashSet<>();
        joins.forEach(j -> foreign.add(j.fromTable() + "." + j.fromColumn()));
        List<String> keys = new ArrayList<>();
        List<KgEntry.Column> described = new ArrayList<>();
        for (String t : tables) {
            if (kg.table(t).isEmpty()) {
                continue;
            }
            for (KgEntry.Column c : kg.columns(t)) {
                if (foreign.contains(c.qualified())) {
                    continue;
                }
                if (c.key()) {
                    keys.add(c.qualified());
                }
                if (meaning(c) != null) {
                    described.add(c);
                }
            }
        }
        // within the budget, code lists and code-like names (A1–A16, k_symbol) come before readable ones ("date")
        described.sort(java.util.Comparator.comparingInt(SchemaKeys::priority));
        List<String> meanings = described.stream().map(SchemaKeys::meaning).toList();
        // keys the graph matched across formats find no rows by plain equality: said where the join is listed
        List<String> conditions = joins.stream().map(j -> j.written()
                + (j.normalised() ? " (" + KgEntry.Join.FORMATS + ")" : "")
                + (j.meaning() == null ? "" : " (" + j.meaning() + ")")).toList();
        StringBuilder b = new StringBuilder();
        int[] left = {0};
        section(b, "Keys (unique, non-null): ", ", ", keys, budget, left);
        section(b, "Approved joins (foreign key = key; join only along these): ", "; ", conditions, budget, left);
        section(b, "Column meanings: ", "; ", meanings, budget, left);
        if (left[0] > 0) {
            b.append("… ").append(left[0]).append(" more not shown (query_kg node=column:TABLE.COLUMN shows one).\n");
        }
        return b.toString().strip();
    }

    private static void section(StringBuilder b, String head, String sep, List<String> items, int budget, int[] left) {
        if (items.isEmpty()) {
            return;
        }
        StringBuilder s = new StringBuilder(head);
        int shown = 0;
        for (String item : items) {
            String add = (shown == 0 ? "" : sep) + item;
            if (b.length() + s.length() + add.length() + 1 > budget) {
                left[0]++;
                continue;
            }
            s.append(add);
            shown++;
        }
        if (shown > 0) {
            b.append(s).append('\n');
        }
    }

    static int priority(KgEntry.Column c) {
        return codes(c.codes()) != null ? 0 : !c.name().matches("[a-z][a-z_]{2,}") ? 1 : 2;
    }

    /** {@code district.A11 average salary [CZK per month]}, {@code loan.status: A = …, B = …}; null when unknown. */
    static String meaning(KgEntry.Column c) {
        String d = c.description();
        boolean plainId = d != null && c.key() && d.endsWith("identifier");
        StringBuilder b = new StringBuilder(c.qualified());
        boolean any = false;
        if (d != null && !plainId) {
            b.append(' ').append(d.length() > DESCRIPTION_CHARS ? d.substring(0, DESCRIPTION_CHARS) + "…" : d);
            any = true;
        }
        if (c.unit() != null) {
            b.append(" [").append(c.unit()).append(']');
        }
        String codes = codes(c.codes());
        if (codes != null) {
            b.append(any ? ", codes " : " codes ").append(codes);
            any = true;
        }
        return any ? b.toString() : null;
    }

    private static String codes(Map<String, String> codes) {
        if (codes.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        codes.forEach((k, v) -> parts.add("'" + k + "' = " + v));
        String all = String.join(", ", parts);
        return all.length() <= CODES_CHARS ? all : null;
    }
}
