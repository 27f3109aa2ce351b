package dev.sift.data.source;

import dev.sift.data.DateRange;
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
import dev.sift.data.source.TextFormats.Format;

/**
 * Types for text columns of a freshly loaded table. A column whose non-null values all have one date or timestamp
 * format ({@link TextFormats}: ISO dates and timestamps, {@code DD.MM.YYYY}, {@code YYYY/MM/DD HH:MM},
 * {@code Jun 12 1998}, a slash date whose values show the day/month order, …) becomes DATE or TIMESTAMP; one whose values are all numbers written with a
 * currency sign or thousands separators ({@code £1,249.00}) becomes a number. Day/month orders that cannot be
 * told apart ({@code 07/04/2021}) and columns mixing formats stay text and go into the {@link LoadReport} with
 * the count of values per format and the {@code --types} that fixes them. The user's own types
 * ({@link ColumnType}) are applied first and must fit every value.
 */
final class TextTypes {
    /** The formats, from {@link TextFormats}. */
    static final List<Format> FORMATS = TextFormats.FORMATS;

    /** Rows of a file's start read to guess a column's format before the table is written. */
    static final int SAMPLE_ROWS = 2048;

    private TextTypes() { }

    /**
     * What one scan found in a text column: its non-blank values, per format how many match, the smallest match and
     * how many of those a conversion turns into NULL; whether any value has a decimal point; distinct and non-null
     * values (for the look-alike check).
     */
    record Stats(long total, long[] matches, String[] examples, long[][] invalid, String[][] invalidExamples,
                 long[] missing, boolean decimals, long distinct, long nonNull) { }

    /** Text that stands for a missing value in exports (R's NA, spreadsheets' N/A, "-"), lower case. */
    static final String MISSING = "('na', 'n/a', 'null', 'none', 'nan', '-', '--', '?', '.', '..')";

    private static final String ANY_FORMAT = TextFormats.ANY_FORMAT;

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
        List<Format> convertible = FORMATS.stream().filter(f -> f.convertible() && f.unambiguous()).toList();
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
        return "CASE WHEN regexp_full_match(" + q + ", " + re + ") THEN " + f.strictConvert(q) + " WHEN " + q + " IS NULL OR "
                + t + " = '' THEN NULL WHEN regexp_full_match(" + t + ", " + re + ") THEN " + f.strictConvert(t)
                + " ELSE error('not in the sampled format') END";
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
        if (inferTypes) {
            jsonScalars(db, schema, table, report);
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
        dateRange(db, schema, table, report);
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
                        new long[FORMATS.size()][], new String[FORMATS.size()][], new long[1], decimals, distinct, nonNull));
                if (formatted > 0) {
                    formats(db, relation, col, out.get(col));
                }
            }
        }
        return out;
    }

    /**
     * Per format, the values of {@code col} in it and the smallest; per reading of it, how many it does not turn into a
     * valid date and the smallest of those, into {@code st}.
     */
    private static void formats(Connection db, String relation, String col, Stats st) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT count(*) FILTER (WHERE lower(v) IN " + MISSING + ")");
        for (Format f : FORMATS) {
            String test = "regexp_full_match(v, " + Sql.quoteString(f.regex()) + ")";
            sql.append(", count(*) FILTER (WHERE ").append(test).append("), min(v) FILTER (WHERE ").append(test).append(')');
            for (int r = 0; r < f.slots(); r++) {
                String bad = test + " AND " + (f.number() || f.code() ? "false" : f.tryConvert("v", r) + " IS NULL");
                sql.append(", count(*) FILTER (WHERE ").append(bad).append("), min(v) FILTER (WHERE ").append(bad).append(')');
            }
        }
        String v = "trim(" + Sql.quoteIdent(col) + ")";
        sql.append(" FROM (SELECT ").append(v).append(" AS v FROM ").append(relation).append(" WHERE regexp_full_match(")
                .append(v).append(", ").append(Sql.quoteString(ANY_FORMAT)).append(") OR lower(").append(v).append(") IN ")
                .append(MISSING).append(')');
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql.toString())) {
            rs.next();
            st.missing()[0] = rs.getLong(1);
            int k = 2;
            for (int i = 0; i < FORMATS.size(); i++) {
                st.matches()[i] = rs.getLong(k++);
                st.examples()[i] = rs.getString(k++);
                int slots = FORMATS.get(i).slots();
                st.invalid()[i] = new long[slots];
                st.invalidExamples()[i] = new String[slots];
                for (int r = 0; r < slots; r++) {
                    st.invalid()[i][r] = rs.getLong(k++);
                    st.invalidExamples()[i][r] = rs.getString(k++);
                }
            }
        }
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
        long total = st.total() - st.missing()[0];
        if (total <= 0 || counts.isEmpty()) {
            return null;
        }
        String where = table + "." + col;
        String q = Sql.quoteIdent(col);
        String missing = st.missing()[0] == 0 ? "" : "; " + st.missing()[0] + " values like 'NA' read as missing";
        if (counts.keySet().stream().anyMatch(Format::code) && counts.keySet().stream().allMatch(f -> f.code() || f.number())
                && counts.values().stream().mapToLong(Long::longValue).sum() == total) {
            report.note(where + ": " + counts.keySet().stream().filter(Format::code).map(counts::get).findFirst().orElse(0L)
                    + " values are digits with leading zeros (e.g. '" + examples.get(counts.keySet().stream()
                    .filter(Format::code).findFirst().orElseThrow()) + "'): codes, kept as text; --types " + where
                    + "=number makes them numbers");
            return null;
        }
        if (counts.size() == 1 && counts.values().iterator().next() == total) {
            Format f = counts.keySet().iterator().next();
            int i = FORMATS.indexOf(f);
            if (f.number()) {
                report.converted(where, "number", total + " values like '" + examples.get(f) + "'" + missing);
                return "CAST(replace(regexp_replace(trim(" + q + "), '[£$€\\s]', '', 'g'), ',', '') AS "
                        + (st.decimals() ? "DOUBLE" : "BIGINT") + ")";
            }
            return oneDateFormat(where, q, f, i, total, st, examples.get(f), missing, report);
        }
        keptText(where, total, counts, examples, report);
        return null;
    }

    /** A column whose values all have the date format {@code f} (index {@code i}): typed when one reading fits them all. */
    private static String oneDateFormat(String where, String q, Format f, int i, long total, Stats st, String example,
                                        String missing, LoadReport.Builder report) {
        String kind = f.kind().toLowerCase(Locale.ROOT);
        if (f.twoDigitYear()) {
            report.keptText(where, Map.of(f.name(), total), "--types " + where + "=" + kind + ":" + f.spec(0),
                    List.of(example));
            report.note(where + ": two-digit years ('" + example + "') stay text, since the century is not in"
                    + " the data; with " + f.spec(0) + " DuckDB reads 00-68 as 2000-2068 and 69-99 as 1969-1999");
            return null;
        }
        List<Integer> valid = new ArrayList<>();
        for (int r = 0; r < f.slots(); r++) {
            if (st.invalid()[i][r] == 0) {
                valid.add(r);
            }
        }
        if (valid.size() == 1) {
            int r = valid.get(0);
            String shown = f.unambiguous() ? "" : ", " + (f.spec(r).startsWith("%d") ? "day" : "month") + " first: '"
                    + st.invalidExamples()[i][1 - r] + "' shows it";
            report.converted(where, kind, total + " values in " + f.name() + shown + missing);
            return f.tryConvert("trim(" + q + ")", r);
        }
        if (valid.size() > 1) { // every value reads both ways: the day/month order is the user's to say
            report.keptText(where, Map.of(f.name(), total), "--types " + where + "=" + kind + ":" + f.spec(0),
                    List.of(example));
            report.note(where + ": no value shows whether the day or the month comes first (e.g. '" + example
                    + "'); if the month does: --types " + where + "=" + kind + ":" + f.spec(1));
            return null;
        }
        int best = 0;
        for (int r = 1; r < f.slots(); r++) {
            best = st.invalid()[i][r] < st.invalid()[i][best] ? r : best;
        }
        report.keptText(where, Map.of(f.name() + " (" + st.invalid()[i][best] + " not valid dates)", total),
                "--types " + where + "=" + kind + ":" + f.spec(best), List.of(st.invalidExamples()[i][best]));
        return null;
    }

    /** A column of mixed or ambiguous formats stays text, reported with its formats and the fix, unless mostly text. */
    private static void keptText(String where, long total, Map<Format, Long> counts, Map<Format, String> examples,
                                 LoadReport.Builder report) {
        long dated = counts.entrySet().stream().filter(e -> e.getKey().convertible() || e.getKey().twoDigitYear())
                .mapToLong(Map.Entry::getValue).sum();
        Map<String, Long> byName = new LinkedHashMap<>();
        counts.forEach((f, n) -> byName.put(f.name(), n));
        if (total - counts.values().stream().mapToLong(Long::longValue).sum() > 0) {
            byName.put("other text", total - counts.values().stream().mapToLong(Long::longValue).sum());
        }
        boolean number = counts.keySet().stream().anyMatch(Format::number);
        if (dated * 2 < total && !(number && counts.entrySet().stream().filter(e -> e.getKey().number())
                .mapToLong(Map.Entry::getValue).sum() * 2 >= total)) {
            return; // a text column with a few date-like or number-like values is text
        }
        boolean dates = dated * 2 >= total;
        String fix = dates ? "--types " + where + "=" + (counts.keySet().stream().anyMatch(f -> f.kind().equals("TIMESTAMP"))
                ? "timestamp" : "date") + ":" + String.join("|", counts.keySet().stream().filter(f -> !f.number() && !f.code())
                .map(f -> f.spec(0)).distinct().toList())
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
                    + tbl(schema, table) + " WHERE trim(" + q + ") <> '' AND lower(trim(" + q + ")) NOT IN " + MISSING + " AND (" + expr + ") IS NULL")) {
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

    /**
     * JSON fields that DuckDB types JSON because their values mix strings and numbers (film titles, nine of which are
     * {@code 1776}), with no object or array among them, become text, so the text typing and the value index see them.
     */
    private static void jsonScalars(Connection db, String schema, String table, LoadReport.Builder report) throws SQLException {
        List<String> json = new ArrayList<>();
        for (String[] c : columnTypes(db, schema, table)) {
            if (c[1].equals("JSON")) {
                json.add(c[0]);
            }
        }
        for (String col : json) {
            String q = Sql.quoteIdent(col);
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE json_type("
                    + q + ") IN ('OBJECT', 'ARRAY')), count(*) FILTER (WHERE json_type(" + q + ") = 'VARCHAR'), count(" + q
                    + ") FROM " + tbl(schema, table))) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    continue; // nested values: a document column
                }
                long strings = rs.getLong(2);
                long others = rs.getLong(3) - strings;
                st.execute("ALTER TABLE " + tbl(schema, table) + " ALTER " + q + " TYPE VARCHAR USING json_extract_string("
                        + q + ", '$')");
                report.converted(table + "." + col, "text", strings + " strings and " + others
                        + " other values (numbers, true/false) read as text");
            }
        }
    }

    /** Dates before 1900 or after today in the table's date and timestamp columns, as notes ({@link DateRange}). */
    private static void dateRange(Connection db, String schema, String table, LoadReport.Builder report) throws SQLException {
        List<String> dates = new ArrayList<>();
        for (String[] c : columnTypes(db, schema, table)) {
            if (DateRange.temporal(c[1])) {
                dates.add(c[0]);
            }
        }
        if (dates.isEmpty()) {
            return;
        }
        StringBuilder range = new StringBuilder("SELECT current_date::VARCHAR"); // min and max first: nearly always in range
        for (String col : dates) {
            String q = Sql.quoteIdent(col);
            range.append(", ").append(DateRange.tooEarly("min(" + q + ")")).append(", ").append(DateRange.future("max(" + q + ")"));
        }
        List<String> out = new ArrayList<>();
        String today;
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(range + " FROM " + tbl(schema, table))) {
            rs.next();
            today = rs.getString(1);
            for (int i = 0; i < dates.size(); i++) {
                if (rs.getBoolean(2 + 2 * i) || rs.getBoolean(3 + 2 * i)) {
                    out.add(dates.get(i));
                }
            }
        }
        for (String col : out) {
            String q = Sql.quoteIdent(col);
            String where = table + "." + col;
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE "
                    + DateRange.future(q) + "), max(" + q + ")::VARCHAR, count(*) FILTER (WHERE " + DateRange.tooEarly(q)
                    + "), min(" + q + ")::VARCHAR FROM " + tbl(schema, table))) {
                rs.next();
                long future = rs.getLong(1);
                long early = rs.getLong(3);
                if (future > 0) {
                    report.note(where + ": " + future + (future == 1 ? " date is" : " dates are") + " in the future (after "
                            + today + "), the latest " + rs.getString(2) + ": errors in the source, unless they are"
                            + " planned dates");
                }
                if (early > 0) {
                    report.note(where + ": " + early + (early == 1 ? " date is" : " dates are") + " before "
                            + DateRange.EARLIEST.substring(0, 4) + ", the earliest " + rs.getString(4)
                            + ": placeholders or errors in the source?");
                }
            }
        }
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
                + " WHERE trim(" + q + ") <> '' AND lower(trim(" + q + ")) NOT IN " + MISSING + " AND (" + expr + ") IS NULL")) {
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
            replace.append(replace.length() == 0 ? "" : ", ").append("CASE WHEN trim(").append(q).append(") = '' OR lower(trim(")
                    .append(q).append(")) IN ").append(MISSING).append(" THEN NULL ELSE ")
                    .append(expr).append(" END AS ").append(q);
        });
        try (Statement st = db.createStatement()) {
            st.execute("CREATE OR REPLACE TABLE " + tbl(schema, table) + " AS SELECT * REPLACE (" + replace + ") FROM "
                    + tbl(schema, table));
        }
    }

    /** {name, type} of each column of the table. */
    private static List<String[]> columnTypes(Connection db, String schema, String table) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT column_name, data_type FROM"
                + " information_schema.columns WHERE table_schema = " + Sql.quoteString(schema) + " AND table_name = "
                + Sql.quoteString(table) + " ORDER BY ordinal_position")) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        return out;
    }

    private static List<String> textColumns(Connection db, String schema, String table) throws SQLException {
        return columns(db, schema, table, true);
    }

    private static List<String> columns(Connection db, String schema, String table) throws SQLException {
        return columns(db, schema, table, false);
    }

    private static List<String> columns(Connection db, String schema, String table, boolean textOnly) throws SQLException {
        return columnTypes(db, schema, table).stream().filter(c -> !textOnly || c[1].startsWith("VARCHAR")).map(c -> c[0])
                .toList();
    }
}
