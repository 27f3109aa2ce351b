package dev.sift.data;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads {@link ColumnFacts} for the columns of one dataset table: one full scan for null and negative counts,
 * one scan of at most {@link #SAMPLE_ROWS} rows for distinct values and text-date formats, and a value-count query
 * per text column that has look-alike values. Dates are looked for only in text columns whose sample is date-like.
 */
final class ColumnFactsReader {
    static final int SAMPLE_ROWS = 200_000;
    private static final int SHOWN_GROUPS = 3;
    private static final int VALUE_CHARS = 30;
    static final Pattern DATE_LIKE = Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}.*|\\d{1,2}[/.]\\d{1,2}[/.]\\d{4}"
            + "|[A-Za-z]+ \\d{1,2}, \\d{4}.*|\\d{1,2} [A-Za-z]+ \\d{4}.*");
    /** Label and DuckDB condition per text-date format; "%s" is the column. */
    private static final String[][] FORMATS = {
            {"YYYY-MM-DD", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2}')"},
            // a time's label says what the values hold, seconds and their fraction included: a pattern written
            // from "HH:MM" misses every value with seconds
            {"YYYY-MM-DD HH:MM", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2} \\d{1,2}:\\d{2}')"},
            {"YYYY-MM-DD HH:MM:SS", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2} \\d{1,2}:\\d{2}:\\d{2}')"},
            {"YYYY-MM-DD HH:MM:SS.fraction", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2} \\d{1,2}:\\d{2}:\\d{2}\\.\\d+')"},
            {"YYYY-MM-DDTHH:MM", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2}T\\d{1,2}:\\d{2}')"},
            {"YYYY-MM-DDTHH:MM:SS", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2}T\\d{1,2}:\\d{2}:\\d{2}')"},
            {"YYYY-MM-DDTHH:MM:SS with a fraction or zone", "regexp_full_match(%s, '\\d{4}-\\d{1,2}-\\d{1,2}T\\d{1,2}:\\d{2}:\\d{2}"
                    + "(\\.\\d+(Z|[+-]\\d{2}:?\\d{2})?|Z|[+-]\\d{2}:?\\d{2})')"},
            {"DD/MM/YYYY", "regexp_full_match(%s, '\\d{1,2}/\\d{1,2}/\\d{4}') AND TRY_CAST(split_part(%s, '/', 1) AS INT) > 12"},
            {"MM/DD/YYYY", "regexp_full_match(%s, '\\d{1,2}/\\d{1,2}/\\d{4}') AND TRY_CAST(split_part(%s, '/', 2) AS INT) > 12"},
            {"NN/NN/YYYY (day or month first: no value tells)", "regexp_full_match(%s, '\\d{1,2}/\\d{1,2}/\\d{4}')"
                    + " AND TRY_CAST(split_part(%s, '/', 1) AS INT) <= 12 AND TRY_CAST(split_part(%s, '/', 2) AS INT) <= 12"},
            {"DD.MM.YYYY", "regexp_full_match(%s, '\\d{1,2}\\.\\d{1,2}\\.\\d{4}')"},
            {"Month DD, YYYY at HH:MM AM", "regexp_full_match(%s, '[A-Za-z]+ \\d{1,2}, \\d{4} at \\d{1,2}:\\d{2} ?[AaPp][Mm]')"},
            {"Month DD, YYYY", "regexp_full_match(%s, '[A-Za-z]+ \\d{1,2}, \\d{4}')"},
            {"DD Month YYYY, HH:MM", "regexp_full_match(%s, '\\d{1,2} [A-Za-z]+ \\d{4},? \\d{1,2}:\\d{2}')"},
            {"DD Month YYYY, HH:MM:SS", "regexp_full_match(%s, '\\d{1,2} [A-Za-z]+ \\d{4},? \\d{1,2}:\\d{2}:\\d{2}')"},
            {"DD Month YYYY", "regexp_full_match(%s, '\\d{1,2} [A-Za-z]+ \\d{4}')"}};

    private ColumnFactsReader() { }

    static List<ColumnFacts> read(Connection connection, String qualified, long rows, List<String[]> cols, List<String> samples)
            throws SQLException {
        int n = cols.size();
        long[] nulls = new long[n];
        long[] negatives = new long[n];
        StringBuilder full = new StringBuilder("SELECT 0");
        for (String[] c : cols) {
            String q = Sql.quoteIdent(c[0]);
            full.append(", count(*) - count(").append(q).append(')');
            full.append(numeric(c[1]) ? ", count(*) FILTER (WHERE " + q + " < 0), count(*) FILTER (WHERE " + q + " > 0)"
                    : ", 0, 0");
        }
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(full + " FROM " + qualified)) {
            rs.next();
            for (int i = 0; i < n; i++) {
                nulls[i] = rs.getLong(2 + 3 * i);
                long neg = rs.getLong(3 + 3 * i);
                negatives[i] = NegativeValues.suspect(cols.get(i)[0], neg, rs.getLong(4 + 3 * i)) ? neg : 0;
            }
        }
        String sample = "(SELECT * FROM " + qualified + " LIMIT " + SAMPLE_ROWS + ")";
        List<Variants> variants = new ArrayList<>();
        List<List<String>> dates = new ArrayList<>();
        List<String> documents = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean text = cols.get(i)[1].startsWith("VARCHAR");
            variants.add(text ? variants(connection, sample, cols.get(i)[0]) : Variants.NONE);
            boolean dateLike = text && ColumnFacts.dateLike(samples.get(i));
            dates.add(dateLike ? dateFormats(connection, sample, cols.get(i)[0]) : List.of());
            documents.add(DocumentShape.read(connection, sample, cols.get(i)[0], cols.get(i)[1], samples.get(i)));
        }
        List<ColumnFacts> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ColumnFacts(nulls[i], negatives[i], variants.get(i).groups(), dates.get(i), documents.get(i),
                    rows > SAMPLE_ROWS ? SAMPLE_ROWS : 0, variants.get(i).manyValues()));
        }
        return out;
    }

    private static boolean numeric(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.startsWith("DECIMAL") || List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "FLOAT",
                "DOUBLE", "REAL").contains(t);
    }

    /** Look-alike values of one column, and whether it has many distinct values (names, free text). */
    private record Variants(List<String> groups, boolean manyValues) {
        static final Variants NONE = new Variants(List.of(), false);
    }

    /** Look-alike values: all groups of a low-cardinality column, else the case/spacing groups, a few shown. */
    private static Variants variants(Connection connection, String sample, String column) throws SQLException {
        String q = Sql.quoteIdent(column);
        long distinct;
        long folded;
        long nonNull;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT count(DISTINCT " + q
                + "), count(DISTINCT lower(trim(" + q + "))), count(" + q + ") FROM " + sample)) {
            rs.next();
            distinct = rs.getLong(1);
            folded = rs.getLong(2);
            nonNull = rs.getLong(3);
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        boolean few = ValueVariants.eligible(distinct, nonNull);
        if (!few && folded == distinct) {
            return Variants.NONE;
        }
        String sql = few ? "SELECT " + q + ", count(*) FROM " + sample + " WHERE " + q + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
                : "SELECT " + q + ", count(*) FROM " + sample + " WHERE lower(trim(" + q + ")) IN (SELECT lower(trim(" + q
                + ")) FROM " + sample + " GROUP BY 1 HAVING count(DISTINCT " + q + ") > 1 ORDER BY 1 LIMIT "
                + SHOWN_GROUPS + ") GROUP BY 1 ORDER BY 2 DESC, 1";
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
        }
        List<String> out = new ArrayList<>();
        List<ValueVariants.Group> groups = ValueVariants.find(column, counts);
        for (ValueVariants.Group g : groups.subList(0, Math.min(SHOWN_GROUPS, groups.size()))) {
            List<String> vs = new ArrayList<>();
            g.values().forEach((v, c) -> vs.add("'" + cut(v) + "' (" + c + ")"));
            out.add(String.join("/", vs));
        }
        long more = few ? groups.size() - out.size() : (distinct - folded) - out.size();
        if (more > 0 && !out.isEmpty()) {
            out.add("… " + more + " more");
        }
        return new Variants(out, !few);
    }

    private static String cut(String v) {
        return Clip.words(v.replace("'", "''"), VALUE_CHARS);
    }

    /** "412, 82%": a count and its share of the non-null values. */
    private static String share(long count, long of) {
        return count + ", " + Math.round(100.0 * count / Math.max(1, of)) + "%";
    }

    /** The text-date formats found, most rows first, then how many values fit none. */
    private static List<String> dateFormats(Connection connection, String sample, String column) throws SQLException {
        String q = Sql.quoteIdent(column);
        StringBuilder sql = new StringBuilder("SELECT count(").append(q).append(')');
        for (String[] f : FORMATS) {
            sql.append(", count(*) FILTER (WHERE ").append(f[1].replace("%s", q)).append(')');
        }
        List<Object[]> found = new ArrayList<>();
        long other;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql + " FROM " + sample)) {
            rs.next();
            other = rs.getLong(1);
            for (int i = 0; i < FORMATS.length; i++) {
                long c = rs.getLong(2 + i);
                if (c > 0) {
                    found.add(new Object[] {FORMATS[i][0], c});
                }
                other -= c;
            }
        }
        found.sort((a, b) -> Long.compare((Long) b[1], (Long) a[1]));
        long nonNull = other + found.stream().mapToLong(f -> (Long) f[1]).sum();
        List<String> out = new ArrayList<>();
        found.forEach(f -> out.add(f[0] + " (" + share((Long) f[1], nonNull) + ")"));
        if (!out.isEmpty() && other > 0) {
            out.add("other (" + share(other, nonNull) + ")");
        }
        return out;
    }
}
