package dev.sift.knowledge;

import dev.sift.data.ColumnFacts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The stored values a question names, kept only where its other words agree. A bare year that a text column
 * happens to hold ('2018' in a list of elite years) is first a date of the tables the question is about, and a
 * bare number first a number of them: the text value is kept only when the question names its column (or, for a
 * number, its table), and the reading is said instead ("'2018' is a year: compare it with review.date"). A value
 * of one column is contradicted when the question names another column right beside it ("city Jordan" is not a
 * name, "rating 4" not a text value), and is not shown.
 */
public final class ValueFit {
    /** Years a bare four-digit number is read as. */
    static final int FIRST_YEAR = 1800;
    static final int LAST_YEAR = 2100;

    /** The mentions whose values fit, and one line per bare number read on the question's own columns instead. */
    public record Fitted(List<ValueIndex.Mention> mentions, List<String> readings) { }

    private record ColumnMention(int start, int end, Set<String> columns) { }

    private final KnowledgeGraph kg;
    private final List<ColumnMention> columnMentions = new ArrayList<>();
    private final Set<String> namedColumns = new LinkedHashSet<>();
    private final Set<String> tables = new LinkedHashSet<>();

    private ValueFit(KnowledgeGraph kg, String question) {
        this.kg = kg;
        Set<String> words = new LinkedHashSet<>(Phrases.words(question));
        Set<String> columnTables = new LinkedHashSet<>();
        for (KnowledgeGraph.Mention m : kg.mentions(question)) {
            Set<String> cols = new LinkedHashSet<>();
            for (KgEntry e : m.entries()) {
                if (e instanceof KgEntry.Column c) {
                    cols.add(key(c.table(), c.name()));
                } else if (e instanceof KgEntry.Table t) {
                    tables.add(t.name());
                }
            }
            if (!cols.isEmpty()) {
                columnMentions.add(new ColumnMention(m.start(), m.end(), cols));
                namedColumns.addAll(cols);
                Set<String> of = new LinkedHashSet<>();
                cols.forEach(c -> of.add(c.substring(0, c.lastIndexOf('.'))));
                if (of.size() == 1) { // "rating" of one table names it; "date" of five names none
                    columnTables.addAll(of);
                }
            }
        }
        for (KgEntry.Table t : kg.tables()) { // a qualified name is named by its own part: "reviews" for db.review
            String bare = t.name().substring(t.name().lastIndexOf('.') + 1);
            if (!Phrases.words(bare).isEmpty() && words.containsAll(Phrases.words(bare))) {
                tables.add(t.name());
            }
        }
        if (tables.isEmpty()) {
            tables.addAll(columnTables);
        }
    }

    /** The values of {@code mentions} (found in {@code question}) that fit the question's other words. */
    public static Fitted of(KnowledgeGraph kg, String question, List<ValueIndex.Mention> mentions) {
        ValueFit fit = new ValueFit(kg, question);
        List<ValueIndex.Mention> kept = new ArrayList<>();
        List<String> readings = new ArrayList<>();
        for (ValueIndex.Mention m : mentions) {
            List<ValueIndex.Match> fitting = new ArrayList<>();
            List<ValueIndex.Match> set = new ArrayList<>();
            List<String> reading = fit.reading(m.phrase());
            for (ValueIndex.Match v : m.matches()) {
                if (fit.contradicted(m, v)) {
                    continue;
                }
                if (!reading.isEmpty() && fit.textValue(v) && !fit.namedColumns.contains(key(v.table(), v.column()))) {
                    set.add(v);
                    continue;
                }
                fitting.add(v);
            }
            if (!fitting.isEmpty()) {
                kept.add(new ValueIndex.Mention(m.start(), m.end(), m.phrase(), List.copyOf(fitting)));
            }
            if (!set.isEmpty()) {
                String where = fit.ofNamedTables(reading) ? " tables the question names (" : " dataset ("; // see reading
                readings.add("'" + m.phrase() + "' is " + (year(m.phrase()) ? "a year: compare it with a date of the"
                        : "a number: compare it with a number of the") + where
                        + String.join(", ", reading) + "), not with the stored text "
                        + String.join(", ", set.stream().map(v -> v.table() + "." + v.column() + " = '" + v.value() + "'")
                        .toList()));
            }
        }
        return new Fitted(List.copyOf(kept), List.copyOf(readings));
    }

    /** A value beside which the question names another column of its own: "city Jordan" is no name. */
    private boolean contradicted(ValueIndex.Mention m, ValueIndex.Match v) {
        String col = key(v.table(), v.column());
        for (ColumnMention c : columnMentions) {
            if ((c.end() == m.start() || c.start() == m.end()) && !c.columns().contains(col)) {
                return true;
            }
        }
        return false;
    }

    /**
     * For a bare year, the date columns of the question's tables, or when they have none (or it names none), the
     * dataset's date columns (at most {@link #DATE_COLUMNS}): a year in a question is a date before it is a text value
     * that holds it ('2018' in a list of elite years), unless nothing in the data is date-like. For another bare
     * number, the numeric columns of the question's tables when it names tables (a number of a table it does not name
     * is no code of it); else none.
     */
    private List<String> reading(String phrase) {
        if (!phrase.matches("\\d+([.,]\\d+)?")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String t : tables) {
            for (KgEntry.Column c : kg.columns(t)) {
                if (year(phrase) ? date(c) : !c.key() && numeric(c.type())) {
                    out.add(c.qualified());
                }
            }
        }
        if (out.isEmpty() && year(phrase)) {
            kg.tables().forEach(t -> kg.columns(t.name()).stream().filter(ValueFit::date).forEach(c -> out.add(c.qualified())));
            if (out.size() > DATE_COLUMNS) {
                out.subList(DATE_COLUMNS, out.size()).clear();
                out.add("…");
            }
        }
        return out;
    }

    /** Dataset date columns named for a year when the question's own tables have none. */
    static final int DATE_COLUMNS = 4;

    /** Whether {@code reading} is of the question's own tables (else of the whole dataset). */
    private boolean ofNamedTables(List<String> reading) {
        return reading.stream().anyMatch(c -> tables.stream().anyMatch(t -> c.startsWith(t + ".")));
    }

    private boolean textValue(ValueIndex.Match v) {
        boolean text = kg.column(v.table(), v.column()).map(c -> c.type().toUpperCase(Locale.ROOT).startsWith("VARCHAR"))
                .orElse(false);
        // a number's code of a table the question names stays (accounts with frequency 1 may mean a code)
        return text && (year(v.value()) || !tables.contains(v.table()));
    }

    static boolean year(String phrase) {
        if (!phrase.matches("\\d{4}")) {
            return false;
        }
        int y = Integer.parseInt(phrase);
        return y >= FIRST_YEAR && y <= LAST_YEAR;
    }

    private static boolean date(KgEntry.Column c) {
        String t = c.type().toUpperCase(Locale.ROOT);
        return t.startsWith("DATE") || t.startsWith("TIMESTAMP") || t.startsWith("VARCHAR") && ColumnFacts.dateLike(c.sample());
    }

    private static boolean numeric(String type) {
        return type.toUpperCase(Locale.ROOT).matches("(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|REAL|DOUBLE|DECIMAL.*"
                + "|NUMERIC.*|U?(TINY|SMALL|BIG)?INT.*)");
    }

    private static String key(String table, String column) {
        return (table + "." + column).toLowerCase(Locale.ROOT);
    }
}
