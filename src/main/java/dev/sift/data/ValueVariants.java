package dev.sift.data;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Values of one low-cardinality text column that are probably the same thing written differently: case (or
 * spacing) variants ({@code 'Web'/'web'}) and near-duplicates ({@code 'Electronic'/'Electronics'}: one letter
 * apart, or a plural), so that a load report and the data-quality report can name them. Only columns with at
 * most {@link #MAX_DISTINCT} distinct values, at most a third of the rows, are looked at: names and free text
 * have many look-alikes that are different things.
 */
public final class ValueVariants {
    public static final int MAX_DISTINCT = 50;

    /** Values of {@code column} that look like one value; {@code values} maps each to its row count. */
    public record Group(String column, String kind, Map<String, Long> values) {
        public String describe() {
            List<String> parts = new ArrayList<>();
            values.forEach((v, n) -> parts.add("'" + v + "' (" + n + ")"));
            return column + ": " + kind + " " + String.join(", ", parts);
        }
    }

    private ValueVariants() { }

    /** Whether a column with these counts is low-cardinality enough to look at. */
    public static boolean eligible(long distinct, long nonNullRows) {
        return distinct >= 2 && distinct <= MAX_DISTINCT && distinct * 3 <= nonNullRows;
    }

    /** The groups among {@code counts} (value → rows), case variants first. */
    public static List<Group> find(String column, Map<String, Long> counts) {
        Map<String, Map<String, Long>> byFold = new LinkedHashMap<>();
        counts.forEach((v, n) -> byFold.computeIfAbsent(fold(v), k -> new LinkedHashMap<>()).put(v, n));
        List<Group> out = new ArrayList<>();
        for (Map<String, Long> g : byFold.values()) {
            if (g.size() > 1) {
                out.add(new Group(column, "case variants", g));
            }
        }
        List<String> folds = new ArrayList<>(byFold.keySet());
        for (int i = 0; i < folds.size(); i++) {
            for (int j = i + 1; j < folds.size(); j++) {
                String a = folds.get(i);
                String b = folds.get(j);
                if (near(a, b)) {
                    Map<String, Long> both = new LinkedHashMap<>(byFold.get(a));
                    both.putAll(byFold.get(b));
                    out.add(new Group(column, "near-duplicates", both));
                }
            }
        }
        return out;
    }

    static String fold(String v) {
        return Normalizer.normalize(v, Normalizer.Form.NFKC).trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** A plural of the other, or (both at least 5 letters) one edit apart. */
    static boolean near(String a, String b) {
        if (a.equals(b + "s") || b.equals(a + "s") || a.equals(b + "es") || b.equals(a + "es")) {
            return true;
        }
        if (a.length() < 5 || b.length() < 5 || Math.abs(a.length() - b.length()) > 1 || a.matches(".*\\d.*")) {
            return false;
        }
        return oneEdit(a, b);
    }

    private static boolean oneEdit(String a, String b) {
        if (a.length() > b.length()) {
            return oneEdit(b, a);
        }
        int i = 0;
        while (i < a.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (a.length() == b.length()) {
            return a.substring(i + 1).equals(b.substring(i + 1));
        }
        return a.substring(i).equals(b.substring(i + 1));
    }
}
