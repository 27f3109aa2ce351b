package dev.sift.knowledge;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person calls the columns of a result, from the knowledge graph: a chart's axis reads "Region", not "A3";
 * "Average loan amount (CZK)", not "average_loan_amount". A result column is traced to the table column it selects
 * ({@code district.A3 AS A3}), to a metric of the same name, or to a column of that name in a table the query
 * reads; failing all three it is the column's own name in words.
 */
public final class ResultLabels {
    private static final Pattern SELECTED = Pattern.compile("(?i)\"?(\\w+)\"?\\.\"?(\\w+)\"?\\s+AS\\s+\"?([\\w ]+?)\"?\\s*(?:,|FROM\\b|$)");
    private static final Pattern PERIOD = Pattern.compile("(?i)(year|month|quarter|week|day)\\(\\s*\"?(\\w+)\"?\\.\"?(\\w+)\"?\\s*\\)");
    private static final Pattern TABLES = Pattern.compile("(?i)\\b(?:FROM|JOIN)\\s+\"?(\\w+)\"?");

    private final KnowledgeGraph kg;

    public ResultLabels(KnowledgeGraph kg) {
        this.kg = kg;
    }

    /**
     * The label of a table column: the name of a concept that maps to it (when it differs from the column's own
     * name), else its description when that is short (four words at most, no parentheses).
     */
    public static Optional<String> column(KnowledgeGraph kg, String table, String column) {
        String qualified = table + "." + column;
        for (KgEntry.Concept c : kg.concepts()) {
            if (qualified.equalsIgnoreCase(c.column()) && !Phrases.key(c.name()).equals(Phrases.key(column))) {
                return Optional.of(c.name().replace('_', ' '));
            }
        }
        return kg.column(table, column).map(KgEntry.Column::description)
                .filter(d -> d != null && !d.isBlank() && d.split("\\s+").length <= 4 && !d.contains("("));
    }

    /** A column's label, else its name in words ("A3" → "region"; "balance" → "balance"). */
    public static String columnOrName(KnowledgeGraph kg, String table, String column) {
        return column(kg, table, column).orElseGet(() -> words(column));
    }

    /** What a person calls the rows of a table: its first one-word plural synonym ("loans"), else "table rows". */
    public static String rows(KnowledgeGraph kg, String table) {
        return kg.table(table).flatMap(t -> t.synonyms().stream().filter(s -> s.endsWith("s") && !s.contains(" "))
                .findFirst()).orElse(words(table) + " rows");
    }

    /**
     * A measure in words with its unit, for a chart's title and axis: "total loan amount (CZK)", "average salary";
     * a count of rows ({@code column} null) is "number of loans".
     */
    public static String measure(KnowledgeGraph kg, String table, String column, String agg) {
        if (column == null || agg.equalsIgnoreCase("count") && column.isEmpty()) {
            return "number of " + rows(kg, table);
        }
        String word = switch (agg.toLowerCase(Locale.ROOT)) {
            case "sum" -> "total";
            case "avg", "mean" -> "average";
            case "min" -> "lowest";
            case "max" -> "highest";
            case "count" -> "number of";
            default -> agg.toLowerCase(Locale.ROOT);
        };
        String unit = kg.column(table, column).map(KgEntry.Column::unit)
                .filter(u -> u != null && !u.isBlank() && !u.startsWith("share") && !word.equals("number of"))
                .map(u -> " (" + u + ")").orElse("");
        String label = columnOrName(kg, table, column);
        return (label.toLowerCase(Locale.ROOT).startsWith(word + " ") ? label : word + " " + label) + unit;
    }

    /** The label of result column {@code name} of {@code sql}, capitalised ("Region", "Year", "Loan count"). */
    public String of(String sql, String name) {
        return capital(find(sql == null ? "" : sql, name).orElseGet(() -> words(name)));
    }

    private Optional<String> find(String sql, String name) {
        Matcher p = PERIOD.matcher(sql);
        while (p.find()) {
            if (aliased(sql, p.end(), name)) {
                return Optional.of(p.group(1).toLowerCase(Locale.ROOT));
            }
        }
        Matcher m = SELECTED.matcher(sql);
        while (m.find()) {
            if (m.group(3).trim().equalsIgnoreCase(name) && kg.table(m.group(1)).isPresent()) {
                Optional<String> l = column(kg, m.group(1), m.group(2));
                if (l.isPresent()) {
                    return l;
                }
            }
        }
        for (KgEntry.Metric metric : kg.metrics()) {
            if (metric.name().equalsIgnoreCase(name)) {
                String unit = metric.unit() == null || metric.unit().startsWith("share") ? "" : " (" + metric.unit() + ")";
                return Optional.of(words(name) + unit);
            }
        }
        Set<String> tables = new LinkedHashSet<>();
        Matcher t = TABLES.matcher(sql);
        while (t.find()) {
            tables.add(t.group(1));
        }
        for (String table : tables) {
            if (kg.column(table, name).isPresent()) {
                Optional<String> l = column(kg, table, name);
                if (l.isPresent()) {
                    return l;
                }
            }
        }
        // a frame's column named like a column of exactly one table (no query to trace it by)
        List<String> holders = kg.tables().stream().map(KgEntry.Table::name).filter(tb -> kg.column(tb, name).isPresent())
                .toList();
        return tables.isEmpty() && holders.size() == 1 ? column(kg, holders.get(0), name) : Optional.empty();
    }

    /** True when the expression ending at {@code end} is selected as {@code name} ({@code year(loan.date) AS year}). */
    private static boolean aliased(String sql, int end, String name) {
        Matcher a = Pattern.compile("(?i)\\s+AS\\s+\"?" + Pattern.quote(name) + "\"?(?!\\w)").matcher(sql);
        return a.region(end, sql.length()).lookingAt();
    }

    /** A column name in words: "loan_count" → "loan count", "n" → "count". */
    static String words(String name) {
        if (name.equalsIgnoreCase("n") || name.equalsIgnoreCase("count_star()")) {
            return "count";
        }
        return name.replace('_', ' ').trim();
    }

    public static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
