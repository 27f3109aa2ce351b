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

    private TextTypes() { }

    /** Applies the user's types for {@code table}, then infers the rest; findings go to {@code report}. */
    static void apply(Connection db, String schema, String table, List<ColumnType> userTypes, LoadReport.Builder report)
            throws SQLException {
        List<String> done = new ArrayList<>();
        for (ColumnType t : userTypes) {
            if (t.table().equals(table)) {
                applyUser(db, schema, table, t, report);
                done.add(t.column().toLowerCase(Locale.ROOT));
            }
        }
        Map<String, String> conversions = new LinkedHashMap<>();
        for (String col : textColumns(db, schema, table)) {
            if (!done.contains(col.toLowerCase(Locale.ROOT))) {
                String expr = infer(db, schema, table, col, report);
                if (expr != null) {
                    conversions.put(col, expr);
                }
            }
        }
        convert(db, schema, table, conversions); // one rewrite of the table for all its typed columns
    }

    /** Any of the formats: one test per value before the formats are told apart (most text matches none). */
    private static final String ANY_FORMAT = String.join("|", FORMATS.stream().map(f -> "(?:" + f.regex() + ")").toList());

    /** Finds the column's format; returns the expression that converts it, or null when it stays text. */
    private static String infer(Connection db, String schema, String table, String col, LoadReport.Builder report) throws SQLException {
        String q = Sql.quoteIdent(col);
        StringBuilder sql = new StringBuilder("SELECT count(v)");
        StringBuilder flags = new StringBuilder();
        for (int i = 0; i < FORMATS.size(); i++) {
            sql.append(", count(v) FILTER (WHERE f").append(i).append("), min(v) FILTER (WHERE f").append(i).append(')');
            flags.append(", CASE WHEN m THEN regexp_full_match(v, ").append(Sql.quoteString(FORMATS.get(i).regex()))
                    .append(") ELSE false END AS f").append(i); // CASE tests only the values that matched one
        }
        sql.append(" FROM (SELECT v").append(flags).append(" FROM (SELECT v, regexp_full_match(v, ")
                .append(Sql.quoteString(ANY_FORMAT)).append(") AS m FROM (SELECT trim(").append(q).append(") AS v FROM ")
                .append(tbl(schema, table)).append(") WHERE v <> ''))");
        long total;
        Map<Format, Long> counts = new LinkedHashMap<>();
        Map<Format, String> examples = new LinkedHashMap<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            rs.next();
            total = rs.getLong(1);
            for (int i = 0; i < FORMATS.size(); i++) {
                long n = rs.getLong(2 + 2 * i);
                if (n > 0) {
                    counts.put(FORMATS.get(i), n);
                    examples.put(FORMATS.get(i), rs.getString(3 + 2 * i));
                }
            }
        }
        if (total == 0 || counts.isEmpty()) {
            return null;
        }
        String where = table + "." + col;
        if (counts.size() == 1 && counts.values().iterator().next() == total) {
            Format f = counts.keySet().iterator().next();
            if (f.kind().equals("NUMBER")) {
                report.converted(where, "number", total + " values like '" + examples.get(f) + "'");
                return "CAST(replace(regexp_replace(trim(" + q + "), '[£$€\\s]', '', 'g'), ',', '') AS "
                        + (numbersHaveDecimals(db, schema, table, q) ? "DOUBLE" : "BIGINT") + ")";
            }
            if (f.strptime() != null || f.name().startsWith("YYYY-MM-DD ")) {
                String expr = f.strptime() == null ? "TRY_CAST(replace(trim(" + q + "), 'T', ' ') AS TIMESTAMP)"
                        : "CAST(try_strptime(trim(" + q + "), " + Sql.quoteString(f.strptime()) + ") AS " + f.kind() + ")";
                long bad = failures(db, schema, table, q, expr);
                if (bad == 0) {
                    report.converted(where, f.kind().toLowerCase(Locale.ROOT), total + " values in " + f.name());
                    return expr;
                }
                report.keptText(where, Map.of(f.name() + " (" + bad + " not valid dates)", total),
                        "--types " + where + "=" + f.kind().toLowerCase(Locale.ROOT) + ":" + GUESS.getOrDefault(f.name(), "FORMAT"),
                        List.of(examples.get(f)));
                return null;
            }
        }
        long dated = counts.entrySet().stream().filter(e -> !e.getKey().kind().equals("NUMBER")).mapToLong(Map.Entry::getValue).sum();
        Map<String, Long> byName = new LinkedHashMap<>();
        counts.forEach((f, n) -> byName.put(f.name(), n));
        if (total - counts.values().stream().mapToLong(Long::longValue).sum() > 0) {
            byName.put("other text", total - counts.values().stream().mapToLong(Long::longValue).sum());
        }
        if (dated * 2 < total && !counts.containsKey(FORMATS.get(FORMATS.size() - 1))) {
            return null; // a text column with a few date-like values is text
        }
        boolean dates = dated * 2 >= total;
        String fix = dates ? "--types " + where + "=" + (counts.keySet().stream().anyMatch(f -> f.kind().equals("TIMESTAMP"))
                ? "timestamp" : "date") + ":" + String.join("|", counts.keySet().stream().filter(f -> !f.kind().equals("NUMBER"))
                .map(f -> GUESS.getOrDefault(f.name(), "FORMAT")).distinct().toList())
                : "--types " + where + "=number";
        report.keptText(where, byName, fix, counts.keySet().stream().map(examples::get).toList());
        return null;
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

    /** Case variants and near-duplicates in the table's low-cardinality text columns. */
    static void variants(Connection db, String schema, String table, LoadReport.Builder report) throws SQLException {
        for (String col : textColumns(db, schema, table)) {
            String q = Sql.quoteIdent(col);
            long distinct;
            long rows;
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(DISTINCT " + q + "), count("
                    + q + ") FROM " + tbl(schema, table))) {
                rs.next();
                distinct = rs.getLong(1);
                rows = rs.getLong(2);
            }
            if (!ValueVariants.eligible(distinct, rows)) {
                continue;
            }
            Map<String, Long> counts = new LinkedHashMap<>();
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT " + q + ", count(*) FROM "
                    + tbl(schema, table) + " WHERE " + q + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1")) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
            report.variants(ValueVariants.find(table + "." + col, counts));
        }
    }

    private static String tbl(String schema, String table) {
        return Sql.quoteIdent(schema) + "." + Sql.quoteIdent(table);
    }

    private static boolean numbersHaveDecimals(Connection db, String schema, String table, String q) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT bool_or(contains(" + q + ", '.')) FROM "
                + tbl(schema, table))) {
            rs.next();
            return rs.getBoolean(1);
        }
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
