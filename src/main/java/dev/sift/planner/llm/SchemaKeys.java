package dev.sift.planner.llm;

import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.KnowledgeGraph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a model needs to join and read tables correctly. The dataset's facts ({@link #facts}), computed once per
 * dataset and the same in every request: each table's key, the approved joins written as conditions
 * ({@code client.district_id = district.A1}), the candidate joins with the share of values that match (key pairs
 * found by their values). And per question the meanings of the shown tables' columns ({@link #meanings}), the
 * question's first, each whole. Both cut between entries, never inside one, within their own budget, and name what
 * they left out with the call that shows it.
 */
public final class SchemaKeys {
    /** Characters of keys, joins and column meanings in the system prompt. */
    public static final int BUDGET = 3000;
    /** A longer code list is named with the call that lists it, not shown. */
    static final int CODES_CHARS = 400;
    /** The mark of an approved join of keys in different formats, when several are listed. */
    static final String BY_NUMBER = "by number";

    private SchemaKeys() { }

    /**
     * The dataset's facts, the same in every request on it: every table's key, every approved join written as a
     * condition (keys in different formats said so: inline for one such join, once in the heading and "by number" on each
     * for several) and every candidate join with its match share. Cut between
     * entries within {@code budget}, naming what it left out; empty when the graph knows none.
     */
    public static String facts(KnowledgeGraph kg, int budget) {
        List<KgEntry.Join> joins = kg.joins().stream().filter(KgEntry.Join::approved).toList();
        List<KgEntry.Join> candidates = kg.joins().stream().filter(j -> !j.approved()).toList();
        java.util.Set<String> foreign = foreignKeys(joins);
        List<String> keys = new ArrayList<>();
        for (KgEntry e : kg.entries()) {
            if (e instanceof KgEntry.Column c && c.key() && !foreign.contains(c.qualified())) {
                keys.add(c.qualified());
            }
        }
        Left left = new Left();
        StringBuilder b = new StringBuilder();
        section(b, "Keys (unique, non-null): ", ", ", keys, keys, budget, left);
        // keys the graph matched across formats find no rows by plain equality: said where the join is listed, and
        // when several joins are so, said once in the heading and marked "by number" on each
        boolean marked = joins.stream().filter(KgEntry.Join::normalised).count() > 1;
        String formats = " (" + (marked ? BY_NUMBER : KgEntry.Join.FORMATS) + ")";
        section(b, "Approved joins (foreign key = key" + (marked ? "; " + BY_NUMBER + ": " + KgEntry.Join.FORMATS : "")
                + "): ", "; ", joins.stream()
                .map(j -> j.written() + (j.normalised() ? formats : "")
                        + (j.meaning() == null || sameName(j) ? "" : " (" + j.meaning() + ")")).toList(),
                joins.stream().map(KgEntry.Join::written).toList(), budget, left);
        section(b, "Candidate joins (not approved; use one only when no approved join links the tables, and say so): ",
                "; ", candidates.stream().map(SchemaKeys::candidate).toList(),
                candidates.stream().map(KgEntry.Join::written).toList(), budget, left);
        return (b + left.render()).strip();
    }

    /**
     * The column meanings of {@code tables} (names as the graph has them): the {@code linked} columns' first
     * ({@code table.column}), then short code lists; another column's meaning is one query_kg call away, since a
     * readable name explains itself and a code-like one (A11) matters when the question points at it. Foreign keys
     * are said by their joins in the facts. Empty when none is shown.
     */
    public static String meanings(KnowledgeGraph kg, Collection<String> tables, java.util.Set<String> linked, int budget) {
        java.util.Set<String> foreign = foreignKeys(kg.joins().stream().filter(KgEntry.Join::approved).toList());
        List<KgEntry.Column> described = new ArrayList<>();
        boolean unlinked = false;
        for (String t : tables) {
            for (KgEntry.Column c : kg.table(t).isEmpty() ? List.<KgEntry.Column>of() : kg.columns(t)) {
                if (foreign.contains(c.qualified()) || meaning(c) == null) {
                    continue;
                }
                if (priority(c) == 0 || linked.contains(c.qualified())) {
                    described.add(c);
                } else {
                    unlinked = true;
                }
            }
        }
        described.sort(java.util.Comparator.comparingInt(c -> linked.contains(c.qualified()) ? -1 : priority(c)));
        Left left = new Left();
        StringBuilder b = new StringBuilder();
        section(b, "Column meanings: ", "; ", described.stream().map(SchemaKeys::meaning).toList(),
                described.stream().map(KgEntry.Column::qualified).toList(), budget, left);
        String others = "Other columns' meanings: query_kg node=column:TABLE.COLUMN.\n";
        if (unlinked && b.length() + others.length() <= budget) {
            b.append(others);
        }
        return (b + left.render()).strip();
    }

    private static java.util.Set<String> foreignKeys(List<KgEntry.Join> approved) {
        java.util.Set<String> foreign = new java.util.HashSet<>();
        approved.forEach(j -> j.fromColumns().forEach(c -> foreign.add(j.fromTable() + "." + c)));
        return foreign;
    }

    /** A join of a key to the key of the same name ({@code loan.account_id = account.account_id}) says its meaning. */
    private static boolean sameName(KgEntry.Join j) {
        return j.pairs().stream().allMatch(p -> p.from().equalsIgnoreCase(p.to()));
    }

    /** {@code orders.store_num = stores.store_id (100 % of values match; keys differ in format: ON …)}. */
    static String candidate(KgEntry.Join j) {
        return j.written() + " (" + String.format(java.util.Locale.ROOT, "%.0f %%", 100 * j.coverage())
                + " of values match" + (j.normalised() ? "; " + KgEntry.Join.FORMATS + ": ON " + j.on() : "") + ")";
    }

    /** What a budget left out, by name. */
    private static final class Left {
        final List<String> meanings = new ArrayList<>();
        final List<String> other = new ArrayList<>();

        String render() {
            StringBuilder b = new StringBuilder();
            if (!meanings.isEmpty()) {
                b.append("Meanings not shown for room (query_kg node=column:TABLE.COLUMN shows one): ")
                        .append(String.join(", ", meanings)).append(".\n");
            }
            if (!other.isEmpty()) {
                b.append("Keys and joins not shown for room (query_kg section=join lists the joins): ")
                        .append(String.join(", ", other)).append(".\n");
            }
            return b.toString();
        }
    }

    private static void section(StringBuilder b, String head, String sep, List<String> items, List<String> names,
                                int budget, Left left) {
        if (items.isEmpty()) {
            return;
        }
        StringBuilder s = new StringBuilder(head);
        int shown = 0;
        for (int i = 0; i < items.size(); i++) {
            String add = (shown == 0 ? "" : sep) + items.get(i);
            if (b.length() + s.length() + add.length() + 1 > budget) {
                (head.startsWith("Column") ? left.meanings : left.other).add(names.get(i));
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

    /** {@code district.A11 average salary}, {@code loan.status: A = …, B = …}; null when unknown. Units are on the table line. */
    static String meaning(KgEntry.Column c) {
        String d = c.description();
        boolean plainId = d != null && c.key() && d.endsWith("identifier");
        StringBuilder b = new StringBuilder(c.qualified());
        boolean any = false;
        if (d != null && !plainId) {
            b.append(' ').append(d.replace('\n', ' '));
            any = true;
        }
        String codes = codes(c.codes());
        if (codes != null) {
            b.append(any ? ", codes " : " codes ").append(codes);
            any = true;
        } else if (!c.codes().isEmpty()) {
            b.append(any ? ", " : " ").append(c.codes().size()).append(" codes (query_kg node=").append(c.id())
                    .append(" lists them)");
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
