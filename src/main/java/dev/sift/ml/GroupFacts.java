package dev.sift.ml;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of a model's columns describe a group rather than the case: a group key is a column whose values each recur
 * over several scored rows (at most {@value #MAX_DISTINCT_SHARE} of the rows as distinct values) and that determines
 * another varying column (every row with the key's value has the same value of the other: a district's average
 * salary determines its unemployment, both joined onto every loan of the district); the key and the columns it
 * determines are facts of the group the key's value picks out. Such a value is the same for every case of the group, so
 * an explanation states it as a fact of the group ("the district's unemployment_1996 (6.46, the same for all 12
 * loans of that district)"), not as something about the case. The group's name comes from the source SQL when a
 * column is read as {@code table.column AS name} (the table is the group), else "its group".
 */
public final class GroupFacts {
    /** A group key has at most this share of the rows as distinct values. */
    static final double MAX_DISTINCT_SHARE = 0.4;
    /** Share of grouped rows that must agree with their group's value for a key to determine a column. */
    static final double AGREEMENT = 0.95;
    /** A column with one value on this share of the rows or more is nearly constant, not a fact of groups. */
    static final double MAX_MODE_SHARE = 0.8;
    /** Rows looked at to decide (the scored rows, evenly sampled). */
    static final int MAX_ROWS = 20_000;
    private static final Pattern ALIAS = Pattern.compile(
            "(?i)(?:\\(\\s*)?\\b([a-z_][a-z0-9_]*)\\.\"?([a-z_][a-z0-9_]*)\"?(?:\\s+AS\\s+[a-z]+\\s*\\))?\\s+AS\\s+\"?([a-z_][a-z0-9_]*)\"?");

    private final Map<Integer, String> groupOf;
    private final Map<Integer, Integer> keyOf;
    private final String[][] display;

    private GroupFacts(Map<Integer, String> groupOf, Map<Integer, Integer> keyOf, String[][] display) {
        this.groupOf = groupOf;
        this.keyOf = keyOf;
        this.display = display;
    }

    /** Nothing is a group fact (no display values to look at). */
    public static final GroupFacts NONE = new GroupFacts(Map.of(), Map.of(), new String[0][]);

    /**
     * The group-level columns among {@code names} in {@code data} (its display values); {@code sourceSql}, when
     * known, names each group by the table its columns are read from.
     */
    public static GroupFacts of(MlData data, List<String> names, String sourceSql) {
        if (data.display() == null || data.rows() < 4) {
            return NONE;
        }
        int n = Math.min(MAX_ROWS, data.rows());
        String[][] rows = new String[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = data.display()[(int) ((long) i * data.rows() / n)];
        }
        Map<String, String> tables = tables(sourceSql);
        int[] distinct = new int[names.size()];
        for (int c = 0; c < names.size(); c++) {
            distinct[c] = distinct(rows, c);
        }
        Map<Integer, Integer> keyOf = new LinkedHashMap<>();
        for (int k = 0; k < names.size(); k++) {
            if (distinct[k] < 2 || distinct[k] > MAX_DISTINCT_SHARE * n) {
                continue;
            }
            for (int c = 0; c < names.size(); c++) {
                if (c != k && distinct[c] >= 2 && determines(rows, k, c)) {
                    keyOf.merge(c, k, (old, nu) -> distinct[nu] > distinct[old] ? nu : old); // the finest groups
                    keyOf.putIfAbsent(k, k);
                }
            }
        }
        Map<Integer, String> groupOf = new LinkedHashMap<>();
        keyOf.keySet().forEach(c -> groupOf.put(c, tables.get(names.get(c).toLowerCase(java.util.Locale.ROOT))));
        return new GroupFacts(groupOf, keyOf, data.display());
    }

    /** Whether column {@code c} is a fact of a group. */
    public boolean isGroupFact(int c) {
        return keyOf.containsKey(c);
    }

    /** The group's name ("district"), or null when the source does not say. */
    public String group(int c) {
        return groupOf.get(c);
    }

    /** How many scored rows share this case's group: its value of the key column {@code c} belongs to. */
    public int members(int c, String[] caseValues) {
        int k = keyOf.get(c);
        int n = 0;
        for (String[] row : display) {
            n += java.util.Objects.equals(row[k], caseValues[k]) ? 1 : 0;
        }
        return n;
    }

    private static int distinct(String[][] rows, int c) {
        Set<String> seen = new HashSet<>();
        for (String[] r : rows) {
            if (r[c] != null) {
                seen.add(r[c]);
            }
        }
        return seen.size();
    }

    /**
     * Column {@code k} determines column {@code c}: over the rows whose value of {@code k} is known and recurs (at least
     * half the rows where it is known), at least {@value #AGREEMENT} of them have their group's most common value of {@code c} — a little
     * slack, since two districts may share an average salary — and {@code c} is not one value nearly everywhere.
     */
    static boolean determines(String[][] rows, int k, int c) {
        Map<String, Map<String, Integer>> byKey = new HashMap<>();
        Map<String, Integer> overall = new HashMap<>();
        int keyed = 0;
        for (String[] r : rows) {
            String vc = String.valueOf(r[c]);
            overall.merge(vc, 1, Integer::sum);
            if (r[k] != null) { // a missing value is no group
                byKey.computeIfAbsent(r[k], x -> new HashMap<>()).merge(vc, 1, Integer::sum);
                keyed++;
            }
        }
        int grouped = 0;
        int agree = 0;
        for (Map<String, Integer> g : byKey.values()) {
            int size = g.values().stream().mapToInt(Integer::intValue).sum();
            if (size >= 2) {
                grouped += size;
                agree += g.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            }
        }
        int mode = overall.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return grouped * 2 >= Math.max(2, keyed) && agree >= AGREEMENT * grouped && mode < MAX_MODE_SHARE * rows.length;
    }

    /** Output column → source table, from {@code table.column AS name} (optionally inside a cast) in the SQL. */
    static Map<String, String> tables(String sql) {
        Map<String, String> out = new HashMap<>();
        if (sql == null) {
            return out;
        }
        Matcher m = ALIAS.matcher(sql);
        while (m.find()) {
            out.putIfAbsent(m.group(3).toLowerCase(java.util.Locale.ROOT), m.group(1).toLowerCase(java.util.Locale.ROOT));
        }
        return out;
    }
}
