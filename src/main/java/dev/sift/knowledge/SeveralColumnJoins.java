package dev.sift.knowledge;

import dev.sift.data.Containment;
import dev.sift.data.QueryException;
import dev.sift.data.TableFamilies;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Joins on several columns, inferred where no single column links two tables: {@code deps.(system, name, version)}
 * → {@code packages.(system, name, version)}. Two tables that no join links yet and that share at least two columns
 * by name (of comparable types) are a candidate pair; when none of the shared columns identifies the key side's rows
 * alone but a combination of them does (smallest first, at most {@link #MAX_COLUMNS} columns), the other table's
 * tuples of those columns are looked up in it, and the share found is judged as any join's ({@link
 * KgBuilder#APPROVE_COVERAGE} approves, {@link KgBuilder#CANDIDATE_COVERAGE} proposes). Members of a family of
 * same-shape tables and tables of one shape share every column and are never paired; the queries are bounded per
 * dataset ({@link #MAX_CHECKS}).
 */
final class SeveralColumnJoins {
    private static final Logger LOG = LoggerFactory.getLogger(SeveralColumnJoins.class);
    /** Shared columns looked at per pair of tables, and so the widest join inferred. */
    static final int MAX_COLUMNS = 4;
    /** Queries per dataset: a wide schema is not scanned pair by pair. */
    static final int MAX_CHECKS = 60;

    private SeveralColumnJoins() { }

    /** The joins on several columns between tables {@code found} does not link, at most one per pair of tables. */
    static List<KgEntry.Join> find(Workspace ws, List<KgEntry.Column> columns, List<KgEntry.Join> found) {
        List<TableInfo> tables = new ArrayList<>(ws.datasetTables());
        tables.sort(java.util.Comparator.comparingLong(TableInfo::rows).reversed()); // the larger table refers first
        Set<String> inFamily = new HashSet<>();
        TableFamilies.of(tables).forEach(f -> f.members().forEach(m -> inFamily.add(m.name())));
        Map<String, List<KgEntry.Column>> byTable = new LinkedHashMap<>();
        columns.forEach(c -> byTable.computeIfAbsent(c.table(), k -> new ArrayList<>()).add(c));
        List<KgEntry.Join> out = new ArrayList<>();
        int[] checks = {0};
        for (TableInfo a : tables) {
            for (TableInfo b : tables) {
                if (checks[0] >= MAX_CHECKS) {
                    return out;
                }
                if (a == b || inFamily.contains(a.name()) || inFamily.contains(b.name()) || a.rows() == 0 || b.rows() == 0
                        || linked(a.name(), b.name(), found) || linked(a.name(), b.name(), out)) {
                    continue;
                }
                List<KgEntry.Column> keySide = byTable.getOrDefault(b.name(), List.of());
                List<KgEntry.Column[]> shared = shared(byTable.getOrDefault(a.name(), List.of()), keySide);
                if (shared.size() < 2 || shared.size() == keySide.size() && shared.size() == byTable.get(a.name()).size()) {
                    continue; // fewer than two shared columns, or two tables of one shape (not a join)
                }
                best(ws, a, b, shared, checks).ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * The join of {@code a}'s tuples into {@code b}'s smallest identifying combination of the shared columns, when it
     * covers at least the candidate share and covers {@code b}'s tuples no better the other way round.
     */
    private static Optional<KgEntry.Join> best(Workspace ws, TableInfo a, TableInfo b, List<KgEntry.Column[]> shared,
                                               int[] checks) {
        List<KgEntry.Column[]> cols = shared.subList(0, Math.min(MAX_COLUMNS, shared.size()));
        List<List<String>> sets = subsets(cols.stream().map(p -> p[1].name()).toList());
        List<List<String>> unique;
        try {
            checks[0]++;
            unique = ws.stats().uniqueSets(b, sets);
        } catch (QueryException e) {
            LOG.warn("Could not check the keys of {}: {}", b.name(), e.getMessage());
            return Optional.empty();
        }
        if (unique.isEmpty() || unique.get(0).size() == 1) {
            return Optional.empty(); // no combination is a key, or one column alone is (a one-column join's business)
        }
        List<String> keyCols = unique.get(0);
        List<String> refCols = keyCols.stream().map(k -> cols.stream().filter(p -> p[1].name().equals(k)).findFirst()
                .orElseThrow()[0].name()).toList();
        Containment m;
        try {
            checks[0]++;
            m = ws.stats().containment(new Containment.Tuple(a.name(), refCols, b.name(), keyCols));
        } catch (QueryException e) {
            LOG.warn("Could not check join {}.{} -> {}.{}: {}", a.name(), refCols, b.name(), keyCols, e.getMessage());
            return Optional.empty();
        }
        if (m == null || m.coverage() < KgBuilder.CANDIDATE_COVERAGE) {
            return Optional.empty();
        }
        List<KgEntry.Join.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < keyCols.size(); i++) {
            pairs.add(new KgEntry.Join.Pair(refCols.get(i), keyCols.get(i)));
        }
        return Optional.of(KgEntry.Join.on(a.name() + "_" + String.join("_", refCols), a.name(), b.name(), pairs, null,
                List.of(), false, m.coverage() >= KgBuilder.APPROVE_COVERAGE,
                m.unique() ? KgEntry.Join.ONE_TO_ONE : KgEntry.Join.MANY_TO_ONE, m.coverage()));
    }

    /** Columns of {@code a} and {@code b} with the same name (case aside) and comparable types, in {@code b}'s order. */
    private static List<KgEntry.Column[]> shared(List<KgEntry.Column> a, List<KgEntry.Column> b) {
        List<KgEntry.Column[]> out = new ArrayList<>();
        for (KgEntry.Column kb : b) {
            a.stream().filter(ka -> ka.name().equalsIgnoreCase(kb.name()) && kind(ka.type()) != null
                    && kind(ka.type()).equals(kind(kb.type()))).findFirst().ifPresent(ka -> out.add(new KgEntry.Column[] {ka, kb}));
        }
        return out;
    }

    /** What a key column may hold: whole numbers, text or dates (never measures). */
    private static String kind(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.startsWith("VARCHAR") ? "text" : t.contains("INT") ? "integer" : t.equals("DATE") ? "date" : null;
    }

    /** Every non-empty subset of {@code names}, smallest first and in column order within a size. */
    static List<List<String>> subsets(List<String> names) {
        List<List<String>> out = new ArrayList<>();
        int n = names.size();
        for (int size = 1; size <= n; size++) {
            for (int mask = 1; mask < 1 << n; mask++) {
                if (Integer.bitCount(mask) == size) {
                    List<String> s = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        if ((mask & 1 << i) != 0) {
                            s.add(names.get(i));
                        }
                    }
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static boolean linked(String a, String b, List<KgEntry.Join> joins) {
        return joins.stream().anyMatch(j -> j.other(a) != null && j.other(a).equals(b));
    }
}
