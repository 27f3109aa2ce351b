package dev.sift.data;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Families of same-shape tables: dataset tables with the same columns (names and types, in order) whose names share
 * a stem and differ in one part ({@code usage_2023_01} … {@code usage_2024_12}; ticker tables {@code stocks.AAPL},
 * {@code stocks.MSFT}, … in one schema). A prompt shows a family as one line, and its union (every member's rows with
 * the varying part as column {@code part}) is one query.
 */
public final class TableFamilies {
    /** Fewest members a family has. */
    static final int MIN_MEMBERS = 3;
    /** A group of same-shape tables this large is a family even when its names share no stem (tickers). */
    static final int MIN_UNNAMED = 20;

    /** One family: the name stem before and after the varying part, and its members ordered by name. */
    public record Family(String prefix, String suffix, List<TableInfo> members) {
        /** {@code usage_{part}}: how the prompt and the tools name it. */
        public String name() {
            return prefix + "{part}" + suffix;
        }

        /** The varying part of a member's name. */
        public String part(TableInfo t) {
            return t.name().substring(prefix.length(), t.name().length() - suffix.length());
        }

        public long rows() {
            return members.stream().mapToLong(TableInfo::rows).sum();
        }

        /** Every member's rows with its part as the first column, {@code part} (DuckDB SQL). */
        public String unionSql(List<TableInfo> chosen) {
            StringBuilder b = new StringBuilder();
            for (TableInfo t : chosen) {
                b.append(b.length() == 0 ? "" : "\nUNION ALL ").append("SELECT ").append(Sql.quoteString(part(t)))
                        .append(" AS part, * FROM ").append(t.sqlName());
            }
            return b.toString();
        }
    }

    private TableFamilies() { }

    /** The families among {@code tables} (dataset tables; frames are left out), largest first. */
    public static List<Family> of(List<TableInfo> tables) {
        Map<String, List<TableInfo>> byShape = new LinkedHashMap<>();
        for (TableInfo t : tables) {
            if (t.kind() == TableInfo.Kind.TABLE) {
                byShape.computeIfAbsent(schema(t.name()) + "\u0000" + shape(t), k -> new ArrayList<>()).add(t);
            }
        }
        List<Family> out = new ArrayList<>();
        for (List<TableInfo> group : byShape.values()) {
            if (group.size() >= MIN_MEMBERS) {
                family(group).ifPresent(out::add);
            }
        }
        out.sort(Comparator.comparingInt((Family f) -> -f.members().size()).thenComparing(Family::name));
        return out;
    }

    /** The family a table belongs to, if any. */
    public static Optional<Family> named(List<TableInfo> tables, String name) {
        return of(tables).stream().filter(f -> f.name().equalsIgnoreCase(name) || stem(f.name()).equalsIgnoreCase(stem(name)))
                .findFirst();
    }

    /** {@code usage_{part}}, {@code usage_*} and {@code usage} are one name. */
    private static String stem(String name) {
        return name.replace("{part}", "").replace("*", "").replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
    }

    private static Optional<Family> family(List<TableInfo> group) {
        List<TableInfo> sorted = new ArrayList<>(group);
        sorted.sort(Comparator.comparing(TableInfo::name));
        List<String> names = sorted.stream().map(TableInfo::name).toList();
        String prefix = names.get(0);
        String suffix = names.get(0);
        for (String n : names) {
            prefix = commonPrefix(prefix, n);
            suffix = commonSuffix(suffix, n);
        }
        prefix = cutAfterSeparator(prefix, names.get(0));
        int shortest = names.stream().mapToInt(String::length).min().orElse(0);
        if (prefix.length() + suffix.length() >= shortest) {
            suffix = "";
        }
        suffix = cutBeforeSeparator(suffix, names.get(0));
        String stem = prefix.replace(schema(names.get(0)), "").replaceAll("[^A-Za-z0-9]", "") + suffix.replaceAll("[^A-Za-z0-9]", "");
        if (stem.isEmpty() && group.size() < MIN_UNNAMED) {
            return Optional.empty(); // a few lookup tables that happen to share columns are not a family
        }
        return Optional.of(new Family(prefix, suffix, List.copyOf(sorted)));
    }

    /** {@code schema.} of a qualified name, or empty. */
    private static String schema(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot + 1);
    }

    private static String shape(TableInfo t) {
        StringBuilder b = new StringBuilder();
        t.columns().forEach(c -> b.append(c.name().toLowerCase(Locale.ROOT)).append(' ').append(c.type()).append(','));
        return b.toString();
    }

    private static String commonPrefix(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return a.substring(0, i);
    }

    private static String commonSuffix(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(a.length() - 1 - i) == b.charAt(b.length() - 1 - i)) {
            i++;
        }
        return a.substring(a.length() - i);
    }

    /** The prefix without a trailing partial run ({@code usage_20} → {@code usage_}, {@code sales20} → {@code sales}). */
    private static String cutAfterSeparator(String p, String name) {
        int i = p.length();
        if (i == 0 || i >= name.length() || !Character.isLetterOrDigit(p.charAt(i - 1))
                || !sameRun(p.charAt(i - 1), name.charAt(i))) {
            return p;
        }
        boolean digit = Character.isDigit(p.charAt(i - 1));
        while (i > 0 && Character.isLetterOrDigit(p.charAt(i - 1)) && Character.isDigit(p.charAt(i - 1)) == digit) {
            i--;
        }
        return p.substring(0, i);
    }

    /** The suffix without a leading partial run, mirrored. */
    private static String cutBeforeSeparator(String s, String name) {
        int i = 0;
        int before = name.length() - s.length() - 1;
        if (s.isEmpty() || before < 0 || !Character.isLetterOrDigit(s.charAt(0)) || !sameRun(s.charAt(0), name.charAt(before))) {
            return s;
        }
        boolean digit = Character.isDigit(s.charAt(0));
        while (i < s.length() && Character.isLetterOrDigit(s.charAt(i)) && Character.isDigit(s.charAt(i)) == digit) {
            i++;
        }
        return s.substring(i);
    }

    /** Whether two characters are of one run: both letters or both digits. */
    private static boolean sameRun(char a, char b) {
        return Character.isLetterOrDigit(a) && Character.isLetterOrDigit(b) && Character.isDigit(a) == Character.isDigit(b);
    }
}
