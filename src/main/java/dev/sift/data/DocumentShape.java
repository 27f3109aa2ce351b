package dev.sift.data;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a column holds when its values are documents, so a query reads them by the right keys: the common keys of
 * JSON objects, with the share of objects that have each ({@code JSON keys 'Monday' (83%), …}); the keys of
 * Python-literal dicts stored as text ({@code "{'lot': True}"}, which JSON functions cannot read) or the common
 * items of Python-literal lists; and, inside a JSON column, the fields whose values are Python-literal dicts, with
 * their keys. Read from the sampled rows; null when the column holds no documents.
 */
final class DocumentShape {
    /** Keys or items shown per column, most frequent first. */
    static final int SHOWN = 6;
    /** Fields of a JSON column whose Python-literal dicts are spelled out. */
    static final int NESTED_FIELDS = 2;
    /** Keys of a Python-literal dict ({'key': …, 'other': …}): a quoted name after '{' or ','. */
    private static final String PY_KEYS = "'[{,]\\s*''([^'']{1,40})''\\s*:'";
    /** Items of a Python-literal list of strings (['a', 'b']). */
    private static final String PY_ITEMS = "'''([^'']{1,40})'''";

    private DocumentShape() { }

    /** The mark of {@code column} (a JSON column, or text whose sample starts a document), or null. */
    static String read(Connection connection, String sample, String column, String type, String sampleValue)
            throws SQLException {
        String q = Sql.quoteIdent(column);
        if (type.equalsIgnoreCase("JSON")) {
            return json(connection, sample, q);
        }
        String start = sampleValue == null ? "" : sampleValue.strip();
        if (!type.startsWith("VARCHAR") || !(start.startsWith("{") || start.startsWith("["))) {
            return null;
        }
        String trimmed = "ltrim(" + q + ")";
        String jsonObject = "json_valid(" + q + ") AND " + trimmed + " LIKE '{%'";
        String pyDict = trimmed + " LIKE '{%' AND NOT json_valid(" + q + ") AND regexp_matches(" + q + ", " + PY_KEYS + ")";
        String pyList = trimmed + " LIKE '[%' AND NOT json_valid(" + q + ") AND " + q + " LIKE '%''%'";
        long[] n = counts(connection, "SELECT count(" + q + "), count(*) FILTER (WHERE " + jsonObject + "), count(*) FILTER"
                + " (WHERE " + pyDict + "), count(*) FILTER (WHERE " + pyList + ") FROM " + sample, 4);
        long half = (n[0] + 1) / 2;
        if (n[1] >= half && n[1] > 0) {
            return "JSON text, keys " + frequent(connection, "unnest(json_keys(" + q + "))", sample, jsonObject, n[1]);
        }
        if (n[2] >= half && n[2] > 0) {
            return "Python-literal dicts, keys " + frequent(connection,
                    "unnest(list_distinct(regexp_extract_all(" + q + ", " + PY_KEYS + ", 1)))", sample, pyDict, n[2]);
        }
        if (n[3] >= half && n[3] > 0) {
            return "Python-literal lists, common items " + frequent(connection,
                    "unnest(list_distinct(regexp_extract_all(" + q + ", " + PY_ITEMS + ", 1)))", sample, pyList, n[3]);
        }
        return null;
    }

    /** A JSON column's keys, then the fields among them that hold Python-literal dicts, with those dicts' keys. */
    private static String json(Connection connection, String sample, String q) throws SQLException {
        String objects = "json_type(" + q + ") = 'OBJECT'";
        long total = counts(connection, "SELECT count(*) FILTER (WHERE " + objects + ") FROM " + sample, 1)[0];
        if (total == 0) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        String mark = "JSON keys " + frequent(connection, "unnest(json_keys(" + q + "))", sample, objects, total, keys);
        List<String> nested = new ArrayList<>();
        for (String key : keys) {
            if (nested.size() == NESTED_FIELDS) {
                break;
            }
            String field = "(" + q + "->>" + Sql.quoteString(key) + ")";
            String dicts = field + " LIKE '{%' AND regexp_matches(" + field + ", " + PY_KEYS + ")";
            long n = counts(connection, "SELECT count(*) FILTER (WHERE " + dicts + ") FROM " + sample, 1)[0];
            if (n > 0) {
                nested.add("'" + cut(key) + "' holds Python-literal dicts, keys " + frequent(connection,
                        "unnest(list_distinct(regexp_extract_all(" + field + ", " + PY_KEYS + ", 1)))", sample, dicts, n));
            }
        }
        return nested.isEmpty() ? mark : mark + "; " + String.join("; ", nested);
    }

    private static String frequent(Connection connection, String unnest, String sample, String where, long of)
            throws SQLException {
        return frequent(connection, unnest, sample, where, of, new ArrayList<>());
    }

    /** {@code 'a' (100%), 'b' (40%), … 3 more}: the values {@code unnest} yields per row, by the share of rows. */
    private static String frequent(Connection connection, String unnest, String sample, String where, long of,
                                   List<String> shown) throws SQLException {
        List<String> parts = new ArrayList<>();
        java.util.Set<Long> shares = new java.util.HashSet<>();
        long distinct = 0;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT k, count(*) AS n,"
                + " count(*) OVER () FROM (SELECT " + unnest + " AS k FROM " + sample + " WHERE " + where + ") GROUP BY k"
                + " ORDER BY n DESC, k LIMIT " + SHOWN)) {
            while (rs.next()) {
                shown.add(rs.getString(1));
                long share = Math.round(100.0 * rs.getLong(2) / Math.max(1, of));
                shares.add(share);
                parts.add("'" + cut(rs.getString(1)) + "' (" + share + "%)");
                distinct = rs.getLong(3);
            }
        }
        if (parts.size() > 1 && shares.size() == 1) { // every key in the same share of rows: said once
            parts.replaceAll(p -> p.substring(0, p.lastIndexOf(" (")));
            parts.set(parts.size() - 1, parts.get(parts.size() - 1) + " (" + shares.iterator().next() + "% each)");
        }
        return String.join(", ", parts) + (distinct > parts.size() ? ", … " + (distinct - parts.size()) + " more" : "");
    }

    private static long[] counts(Connection connection, String sql, int n) throws SQLException {
        long[] out = new long[n];
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            for (int i = 0; i < n; i++) {
                out[i] = rs.getLong(i + 1);
            }
        }
        return out;
    }

    private static String cut(String s) {
        String v = s.replace("'", "''");
        return v.length() > 30 ? v.substring(0, 30) + "…" : v;
    }
}
