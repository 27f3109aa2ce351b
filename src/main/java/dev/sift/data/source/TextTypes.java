package dev.sift.data.source;

import dev.sift.data.LoadReport;
import dev.sift.data.Sql;
import dev.sift.data.ValueVariants;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Types for text columns of a freshly loaded table. A column whose non-null values all have one unambiguous
 * date or timestamp format ({@link #FORMATS}: ISO dates and timestamps, {@code DD.MM.YYYY},
 * {@code YYYY-MM-DD HH:MM}, …) becomes DATE or TIMESTAMP; one whose values are all numbers written with a
 * currency sign or thousands separators ({@code £1,249.00}) becomes a number. Day/month orders that cannot be
 * told apart ({@code 07/04/2021}) and columns mixing formats stay text and go into the {@link LoadReport} with
 * the count of values per format and the {@code --types} that fixes them. The user's own types
 * ({@link ColumnType}) are applied first and must fit every value.
 */
final class TextTypes {
    /** A recognised way of writing a date or number: a full-match regex, and how to convert (null: ambiguous). */
    record Format(String name, String regex, String kind, String strptime) { }

    static final List<Format> FORMATS = List.of(
            new Format("YYYY-MM-DD", "\\d{4}-\\d{2}-\\d{2}", "DATE", "%Y-%m-%d"),
            new Format("YYYY/MM/DD", "\\d{4}/\\d{2}/\\d{2}", "DATE", "%Y/%m/%d"),
            new Format("YYYY-MM-DD HH:MM", "\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}", "TIMESTAMP", null),
            new Format("YYYY-MM-DD HH:MM:SS", "\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?", "TIMESTAMP", null),
            new Format("DD.MM.YYYY", "\\d{1,2}\\.\\d{1,2}\\.\\d{4}", "DATE", "%d.%m.%Y"),
            new Format("DD.MM.YYYY HH:MM", "\\d{1,2}\\.\\d{1,2}\\.\\d{4} \\d{1,2}:\\d{2}", "TIMESTAMP", "%d.%m.%Y %H:%M"),
            new Format("DD/MM/YYYY or MM/DD/YYYY", "\\d{1,2}/\\d{1,2}/\\d{4}", "DATE", null),
            new Format("DD-MM-YYYY or MM-DD-YYYY", "\\d{1,2}-\\d{1,2}-\\d{4}", "DATE", null),
            new Format("number with currency or thousands separators",
                    "[-+]?[£$€]?\\s?[-+]?(\\d{1,3}(,\\d{3})+|\\d+)(\\.\\d+)?", "NUMBER", null));
    /** The strptime formats a user most likely means for an ambiguous format, for the suggested fix. */
    private static final Map<String, String> GUESS = Map.of("DD/MM/YYYY or MM/DD/YYYY", "%d/%m/%Y",
            "DD-MM-YYYY or MM-DD-YYYY", "%d-%m-%Y", "YYYY-MM-DD", "%Y-%m-%d", "YYYY/MM/DD", "%Y/%m/%d",
            "DD.MM.YYYY", "%d.%m.%Y", "YYYY-MM-DD HH:MM", "%Y-%m-%d %H:%M", "YYYY-MM-DD HH:MM:SS", "%Y-%m-%d %H:%M:%S");

    /** Rows of a file's start read to guess a column's format before the table is written. */
    static final int SAMPLE_ROWS = 2048;

    private TextTypes() { }

    /**
     * What one scan found in a text column: its non-blank values, per format how many match, the smallest match and
     * how many of those a conversion turns into NULL; whether any value has a decimal point; distinct and non-null
     * values (for the look-alike check).
     */
    record Stats(long total, long[] matches, String[] examples, long[] invalid, boolean decimals, long distinct,
                 long nonNull) { }

    /** Any of the formats: one test per value before the formats are told apart (most text matches none). */
    private static final String ANY_FORMAT = String.join("|", FORMATS.stream().map(f -> "(?:" + f.regex() + ")").toList());

    /**
     * The formats the first {@link #SAMPLE_ROWS} rows of {@code reader} suggest, for the text columns whose sampled
     * values all have one convertible date or timestamp format: the table can then be written with those columns
     * converted, each value checked on the way ({@link #guarded}), instead of written as text and rewritten.
     */
    static Map<String, Format> guess(Connection db, String reader, List<String> textColumns) throws SQLException {
        Map<String, Format> out = new LinkedHashMap<>();
        if (textColumns.isEmpty()) {
            return out;
        }
        List<Format> convertible = FORMATS.stream().filter(TextTypes::convertible).toList();
        StringBuilder sql = new StringBuilder("SELECT 0");
        for (String col : textColumns) {
            String v = "trim(" + Sql.quoteIdent(col) + "::VARCHAR)";
            sql.append(", count(*) FILTER (WHERE ").append(v).append(" <> '')");
            for (Format f : convertible) {
                sql.append(", count(*) FILTER (WHERE regexp_full_match(").append(v).append(", ")
                        .append(Sql.quoteString(f.regex())).append("))");
            }
        }
        sql.append(" FROM (SELECT ").append(String.join(", ", textColumns.stream().map(Sql::quoteIdent).toList()))
                .append(" FROM ").append(reader, 0, reader.length() - 1).append(", sample_size=").append(SAMPLE_ROWS)
                .append(") LIMIT ").append(SAMPLE_ROWS).append(')'); // the sniff reads no more rows than the sample
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            rs.next();
            int k = 2;
            for (String col : textColumns) {
                long total = rs.getLong(k++);
                for (Format f : convertible) {
                    if (rs.getLong(k++) == total && total > 0) {
                        out.put(col, f);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Converts a guessed column while the table is written, and fails the statement (so the loader writes text and
     * looks at every value) at the first non-blank value that is not in the format or not a valid date.
     */
    static String guarded(String col, Format f) {
        String q = Sql.quoteIdent(col);
        String t = "trim(" + q + ")";
        String re = Sql.quoteString(f.regex());
        // the first branch takes values without blanks around them (nearly all) without trimming them
        return "CASE WHEN regexp_full_match(" + q + ", " + re + ") THEN " + strict(q, f) + " WHEN " + q + " IS NULL OR " + t
                + " = '' THEN NULL WHEN regexp_full_match(" + t + ", " + re + ") THEN " + strict(t, f)
                + " ELSE error('not in the sampled format') END";
    }

    /** The text {@code v} in format {@code f} as a date or timestamp; the statement fails when it is not one. */
    private static String strict(String v, Format f) {
        return f.strptime() == null ? "CAST(replace(" + v + ", 'T', ' ') AS TIMESTAMP)"
                : "CAST(strptime(" + v + ", " + Sql.quoteString(f.strptime()) + ") AS " + f.kind() + ")";
    }

    private static boolean convertible(Format f) {
        return !f.kind().equals("NUMBER") && (f.strptime() != null || f.name().startsWith("YYYY-MM-DD "));
    }

    /**
     * Types and look-alike values of a freshly written table, from one scan of its text columns: the user's types
     * ({@code --types}) first, then the formats of the other text columns ({@code inferTypes}: not for Parquet, which
     * carries its own), one rewrite of the table for every column that is converted, then the look-alike values of
     * the columns that stay text. {@code converted} are the columns already written converted ({@link #guess}).
     */
    static void check(Connection db, String schema, String table, List<ColumnType> userTypes, Map<String, Format> converted,
                      boolean inferTypes, LoadReport.Builder report) throws SQLException {
        List<String> done = new ArrayList<>();
        if (inferTypes) {
            for (ColumnType t : userTypes) {
                if (t.table().equals(table)) {
                    applyUser(db, schema, table, t, report);
                    done.add(t.column().toLowerCase(Locale.ROOT));
                }
            }
        }
        List<String> text = textColumns(db, schema, table);
        Map<String, Stats> stats = scan(db, tbl(schema, table), text, inferTypes);
        Map<String, Long> written = converted.isEmpty() ? Map.of() : counts(db, schema, table, converted.keySet());
        Map<String, String> conversions = new LinkedHashMap<>();
        for (String col : columns(db, schema, table)) {
            Format f = converted.get(col);
            if (f != null) {
                report.converted(table + "." + col, f.kind().toLowerCase(Locale.ROOT), written.get(col) + " values in " + f.name());
            } else if (inferTypes && stats.containsKey(col) && !done.contains(col.toLowerCase(Locale.ROOT))) {
                String expr = decide(table, col, stats.get(col), report);
                if (expr != null) {
                    conversions.put(col, expr);
                }
            }
        }
        convert(db, schema, table, conversions); // one rewrite of the table for all its typed columns
        for (String col : text) {
            Stats st = stats.get(col);
            if (!conversions.containsKey(col) && ValueVariants.eligible(st.distinct(), st.nonNull())) {
                report.variants(ValueVariants.find(table + "." + col, valueCounts(db, schema, table, col)));
            }
        }
    }

    /**
     * One scan of {@code relation} reading every check's aggregate for its text {@code columns}: distinct and non-null
     * values, and with {@code formats} the non-blank ones, whether any has a decimal point and how many look like any
     * format; then, only for a column where some do, a look at those values per format ({@link #formats}).
     */
    static Map<String, Stats> scan(Connection db, String relation, List<String> columns, boolean formats) throws SQLException {
        Map<String, Stats> out = new LinkedHashMap<>();
        if (columns.isEmpty()) {
            return out;
        }
        StringBuilder sql = new StringBuilder("SELECT 0");
        for (String col : columns) {
            String q = Sql.quoteIdent(col);
            sql.append(", count(DISTINCT ").append(q).append("), count(").append(q).append(')');
            if (formats) { // flat aggregates: DuckDB then tests a dictionary-compressed column once per distinct value
                sql.append(", count(*) FILTER (WHERE trim(").append(q).append(") <> ''), bool_or(contains(").append(q)
                        .append(", '.')), count(*) FILTER (WHERE regexp_full_match(trim(").append(q).append("), ")
                        .append(Sql.quoteString(ANY_FORMAT)).append("))");
            }
        }
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql + " FROM " + relation)) {
            rs.next();
            int k = 2;
            for (String col : columns) {
                long distinct = rs.getLong(k++);
                long nonNull = rs.getLong(k++);
                long total = formats ? rs.getLong(k++) : 0;
                boolean decimals = formats && rs.getBoolean(k++);
                long formatted = formats ? rs.getLong(k++) : 0;
                out.put(col, new Stats(total, new long[FORMATS.size()], new String[FORMATS.size()],
                        new long[FORMATS.size()], decimals, distinct, nonNull));
                if (formatted > 0) {
                    formats(db, relation, col, out.get(col));
                }
            }
        }
        return out;
    }

    /** Per format, the values of {@code col} in it, the smallest, and how many a conversion fails on, into {@code st}. */
    private static void formats(Connection db, String relation, String col, Stats st) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT 0");
        for (Format f : FORMATS) {
            String test = "regexp_full_match(v, " + Sql.quoteString(f.regex()) + ")";
            sql.append(", count(*) FILTER (WHERE ").append(test).append("), min(v) FILTER (WHERE ").append(test)
                    .append("), count(*) FILTER (WHERE ").append(test).append(" AND ")
                    .append(convertible(f) ? tryConvert("v", f) + " IS NULL" : "false").append(')');
        }
        String v = "trim(" + Sql.quoteIdent(col) + ")";
        sql.append(" FROM (SELECT ").append(v).append(" AS v FROM ").append(relation).append(" WHERE regexp_full_match(")
                .append(v).append(", ").append(Sql.quoteString(ANY_FORMAT)).append("))");
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            rs.next();
            for (int i = 0; i < FORMATS.size(); i++) {
                st.matches()[i] = rs.getLong(2 + 3 * i);
                st.examples()[i] = rs.getString(3 + 3 * i);
                st.invalid()[i] = rs.getLong(4 + 3 * i);
            }
        }
    }

    /** The value {@code v} (trimmed text) in format {@code f} as a date or timestamp, NULL when it is not one. */
    private static String tryConvert(String v, Format f) {
        return f.strptime() == null ? "TRY_CAST(replace(" + v + ", 'T', ' ') AS TIMESTAMP)"
                : "CAST(try_strptime(" + v + ", " + Sql.quoteString(f.strptime()) + ") AS " + f.kind() + ")";
    }

    /** Finds the column's format from its scan; returns the expression that converts it, or null when it stays text. */
    private static String decide(String table, String col, Stats st, LoadReport.Builder report) {
        Map<Format, Long> counts = new LinkedHashMap<>();
        Map<Format, String> examples = new LinkedHashMap<>();
        for (int i = 0; i < FORMATS.size(); i++) {
            if (st.matches()[i] > 0) {
                counts.put(FORMATS.get(i), st.matches()[i]);
                examples.put(FORMATS.get(i), st.examples()[i]);
            }
        }
        long total = st.total();
        if (total == 0 || counts.isEmpty()) {
            return null;
        }
        String where = table + "." + col;
        String q = Sql.quoteIdent(col);
        if (counts.size() == 1 && counts.values().iterator().next() == total) {
            Format f = counts.keySet().iterator().next();
            if (f.kind().equals("NUMBER")) {
                report.converted(where, "number", total + " values like '" + examples.get(f) + "'");
                return "CAST(replace(regexp_replace(trim(" + q + "), '[£$€\\s]', '', 'g'), ',', '') AS "
                        + (st.decimals() ? "DOUBLE" : "BIGINT") + ")";
            }
            if (convertible(f)) {
                long bad = st.invalid()[FORMATS.indexOf(f)];
                if (bad == 0) {
                    report.converted(where, f.kind().toLowerCase(Locale.ROOT), total + " values in " + f.name());
                    return tryConvert("trim(" + q + ")", f);
                }
                report.keptText(where, Map.of(f.name() + " (" + bad + " not valid dates)", total),
                        "--types " + where + "=" + f.kind().toLowerCase(Locale.ROOT) + ":" + GUESS.getOrDefault(f.name(), "FORMAT"),
                        List.of(examples.get(f)));
                return null;
            }
        }
        keptText(where, total, counts, examples, report);
        return null;
    }

    /** A column of mixed or ambiguous formats stays text, reported with its formats and the fix, unless mostly text. */
    private static void keptText(String where, long total, Map<Format, Long> counts, Map<Format, String> examples,
                                 LoadReport.Builder report) {
        long dated = counts.entrySet().stream().filter(e -> !e.getKey().kind().equals("NUMBER")).mapToLong(Map.Entry::getValue).sum();
        Map<String, Long> byName = new LinkedHashMap<>();
        counts.forEach((f, n) -> byName.put(f.name(), n));
        if (total - counts.values().stream().mapToLong(Long::longValue).sum() > 0) {
            byName.put("other text", total - counts.values().stream().mapToLong(Long::longValue).sum());
        }
        if (dated * 2 < total && !counts.containsKey(FORMATS.get(FORMATS.size() - 1))) {
            return; // a text column with a few date-like values is text
        }
        boolean dates = dated * 2 >= total;
        String fix = dates ? "--types " + where + "=" + (counts.keySet().stream().anyMatch(f -> f.kind().equals("TIMESTAMP"))
                ? "timestamp" : "date") + ":" + String.join("|", counts.keySet().stream().filter(f -> !f.kind().equals("NUMBER"))
                .map(f -> GUESS.getOrDefault(f.name(), "FORMAT")).distinct().toList())
                : "--types " + where + "=number";
        report.keptText(where, byName, fix, counts.keySet().stream().map(examples::get).toList());
    }

    private static void applyUser(Connection db, String schema, String table, ColumnType t, LoadReport.Builder report) throws SQLException {
        String col = textColumns(db, schema, table).stream().filter(c -> c.equalsIgnoreCase(t.column())).findFirst().orElse(null);
        String where = table + "." + t.column();
        if (col == null) {
            List<String> all = columns(db, schema, table);
            if (all.stream().anyMatch(c -> c.equalsIgnoreCase(t.column()))) {
                report.note(where + " is already typed on load; --types " + where + " left it as it is");
                return;
            }
            throw new IllegalArgumentException("--types " + t.spec() + ": table " + table + " has no column '" + t.column()
                    + "'; its columns are " + String.join(", ", all));
        }
        if (t.kind().equals("text")) {
            report.converted(where, "text", "kept as text (--types)");
            return;
        }
        String q = Sql.quoteIdent(col);
        String expr = t.expression(q);
        long bad = failures(db, schema, table, q, expr);
        if (bad > 0) {
            String example;
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT min(" + q + ") FROM "
                    + tbl(schema, table) + " WHERE trim(" + q + ") <> '' AND (" + expr + ") IS NULL")) {
                rs.next();
                example = rs.getString(1);
            }
            throw new IllegalArgumentException("--types " + t.spec() + ": " + bad + " values of " + where + " do not fit, e.g. '"
                    + example + "'; give every format the column uses, separated by '|' (e.g. date:%Y-%m-%d|%d/%m/%Y),"
                    + " or leave the column as text");
        }
        convert(db, schema, table, col, expr);
        report.converted(where, t.kind(), "as --types " + t.spec() + " says");
    }

    /** Rows per value of a low-cardinality text column, most frequent first. */
    private static Map<String, Long> valueCounts(Connection db, String schema, String table, String col) throws SQLException {
        String q = Sql.quoteIdent(col);
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT " + q + ", count(*) FROM "
                + tbl(schema, table) + " WHERE " + q + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1")) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
        }
        return counts;
    }

    /** Non-null values of each of {@code columns}. */
    private static Map<String, Long> counts(Connection db, String schema, String table, java.util.Collection<String> columns)
            throws SQLException {
        List<String> cols = List.copyOf(columns);
        Map<String, Long> out = new LinkedHashMap<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT " + String.join(", ",
                cols.stream().map(c -> "count(" + Sql.quoteIdent(c) + ")").toList()) + " FROM " + tbl(schema, table))) {
            rs.next();
            for (int i = 0; i < cols.size(); i++) {
                out.put(cols.get(i), rs.getLong(i + 1));
            }
        }
        return out;
    }

    private static String tbl(String schema, String table) {
        return Sql.quoteIdent(schema) + "." + Sql.quoteIdent(table);
    }

    /** Non-blank values that {@code expr} turns into NULL. */
    private static long failures(Connection db, String schema, String table, String q, String expr) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + tbl(schema, table)
                + " WHERE trim(" + q + ") <> '' AND (" + expr + ") IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void convert(Connection db, String schema, String table, String col, String expr) throws SQLException {
        convert(db, schema, table, Map.of(col, expr));
    }

    /** Rewrites the table once with each column of {@code exprs} converted (blank text becomes NULL). */
    private static void convert(Connection db, String schema, String table, Map<String, String> exprs) throws SQLException {
        if (exprs.isEmpty()) {
            return;
        }
        StringBuilder replace = new StringBuilder();
        exprs.forEach((col, expr) -> {
            String q = Sql.quoteIdent(col);
            replace.append(replace.length() == 0 ? "" : ", ").append("CASE WHEN trim(").append(q).append(") = '' THEN NULL ELSE ")
                    .append(expr).append(" END AS ").append(q);
        });
        try (Statement st = db.createStatement()) {
            st.execute("CREATE OR REPLACE TABLE " + tbl(schema, table) + " AS SELECT * REPLACE (" + replace + ") FROM "
                    + tbl(schema, table));
        }
    }

    private static List<String> textColumns(Connection db, String schema, String table) throws SQLException {
        return columns(db, schema, table, true);
    }

    private static List<String> columns(Connection db, String schema, String table) throws SQLException {
        return columns(db, schema, table, false);
    }

    private static List<String> columns(Connection db, String schema, String table, boolean textOnly) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT column_name, data_type FROM"
                + " information_schema.columns WHERE table_schema = " + Sql.quoteString(schema) + " AND table_name = " + Sql.quoteString(table)
                + " ORDER BY ordinal_position")) {
            while (rs.next()) {
                if (!textOnly || rs.getString(2).startsWith("VARCHAR")) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
