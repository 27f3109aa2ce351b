package dev.sift.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Which text columns of a query's result are plain columns of dataset tables whose stored values are all short, so the
 * result's byte budget ({@link ResultBudget}) can leave them as they are: a value no longer than the cell budget comes
 * back whole from the wrapped query too, and wrapping costs a second prepare. Read from DuckDB's own parse of the query
 * (the guard's {@code json_serialize_sql} tree) and the longest stored value of each column, which DuckDB keeps in its
 * storage statistics ({@code stats(column)}: "Max String Length"). Only what is certain counts: one plain SELECT over
 * base tables of the attached dataset (joins allowed; no CTE, subquery, table function, set operation or renamed
 * columns), a select item that is a bare column name resolving to a stored (not generated) VARCHAR column. Anything
 * else is unknown and stays wrapped. Not thread-safe: one workspace's queries, one at a time.
 */
final class StoredLengths {
    /** What an unknown length reads as. */
    static final long UNKNOWN = -1;
    private static final Pattern MAX_LENGTH = Pattern.compile("Max String Length: (\\d+)\\]");
    /**
     * Schema names a table name may carry that DuckDB does not read as a schema of the dataset: catalogs, and schemas
     * it finds on the search path or in the system catalog first ({@code frames.x} is a frame even when the dataset has
     * a schema {@code frames}). Not resolved here.
     */
    private static final Set<String> OTHER_SCHEMAS = Set.of("data", "memory", "temp", "system", "frames", "pg_catalog",
            "information_schema");

    /** What a stored column is: plain text (its length known from statistics), text computed on reading, or other. */
    private enum Kind { TEXT, COMPUTED_TEXT, OTHER }

    private final Connection connection;
    /** What is known of the workspace's current dataset (shared by the workspaces on it). */
    private final Supplier<Shared> dataset;
    /** The dataset's, for the statement being read. */
    private Shared current;

    /**
     * What is known of one dataset's stored text, read on first use through whichever workspace asks first. Safe for
     * several workspaces at once: two that read the same thing at the same time both read it, with the same result.
     */
    static final class Shared {
        /** Per base table ("schema.table", lower case): its columns, lower case, by kind; null until read. */
        private volatile Map<String, Map<String, Kind>> tables;
        /** Per table read so far: the longest stored value of each plain text column, in bytes. */
        private final Map<String, Map<String, Long>> lengths = new ConcurrentHashMap<>();
    }

    StoredLengths(Connection connection, Supplier<Shared> dataset) {
        this.connection = connection;
        this.dataset = dataset;
    }

    /**
     * Per result column, the longest value it can hold in bytes when that is certain (a bare column of a dataset
     * table), else {@link #UNKNOWN}; null when the select list cannot be matched to the {@code columns} of the result.
     */
    long[] of(JsonNode tree, int columns) {
        current = dataset.get();
        JsonNode statements = tree.path("statements");
        JsonNode node = statements.size() == 1 ? statements.get(0).path("node") : null;
        if (node == null || !"SELECT_NODE".equals(node.path("type").asText())
                || node.path("cte_map").path("map").size() > 0) {
            return null;
        }
        JsonNode items = node.path("select_list");
        boolean stars = false;
        for (JsonNode item : items) {
            String fn = item.path("function_name").asText("").toLowerCase(Locale.ROOT);
            boolean star = "STAR".equals(item.path("class").asText());
            if (fn.equals("unnest") || fn.equals("unlist") || (!star && item.findValues("class").stream()
                    .anyMatch(c -> "STAR".equals(c.asText())))) {
                return null; // it may stand for several columns, or none: positions would not match
            }
            stars |= star;
        }
        List<Source> sources = new ArrayList<>();
        try {
            if (!sources(node.path("from_table"), sources)) {
                return null;
            }
            return stars ? withStars(items, sources, columns) : byPosition(items, sources, columns);
        } catch (SQLException e) {
            return null; // the statistics could not be read: nothing is certain, everything is wrapped
        }
    }

    /** One select item per result column: each bare column name gets its table's longest value. */
    private long[] byPosition(JsonNode items, List<Source> sources, int columns) throws SQLException {
        if (items.size() != columns) {
            return null;
        }
        long[] longest = new long[columns];
        Arrays.fill(longest, UNKNOWN);
        for (int i = 0; i < columns; i++) {
            JsonNode item = items.get(i);
            if ("COLUMN_REF".equals(item.path("class").asText())) {
                longest[i] = longest(item.path("column_names"), sources);
            }
        }
        return longest;
    }

    /**
     * A select list with a star ({@code SELECT *}, {@code SELECT l.*, d.A3}): positions are not known without expanding
     * it, so the answer is one length for every column, the longest of all the tables' text columns and the bare names,
     * and only when each item is a plain star (no REPLACE, no COLUMNS) or a bare name of known length.
     */
    private long[] withStars(JsonNode items, List<Source> sources, int columns) throws SQLException {
        long longest = 0;
        for (JsonNode item : items) {
            long bytes;
            if ("COLUMN_REF".equals(item.path("class").asText())) {
                bytes = longest(item.path("column_names"), sources);
            } else if (item.path("replace_list").size() == 0 && !item.path("columns").asBoolean(true)
                    && item.path("expr").isNull() && (item.path("relation_name").asText("").isEmpty()
                    || sources.stream().anyMatch(s -> s.binding().equalsIgnoreCase(item.path("relation_name").asText())))) {
                bytes = 0;
                for (Source s : sources) { // every text column of every table must be known
                    Map<String, Long> known = lengths(s.key());
                    for (Map.Entry<String, Kind> c : tables().get(s.key()).entrySet()) {
                        if (c.getValue() != Kind.OTHER && !known.containsKey(c.getKey())) {
                            return null;
                        }
                    }
                    bytes = Math.max(bytes, known.values().stream().mapToLong(Long::longValue).max().orElse(0));
                }
            } else {
                return null;
            }
            if (bytes < 0) {
                return null;
            }
            longest = Math.max(longest, bytes);
        }
        long[] all = new long[columns];
        Arrays.fill(all, longest);
        return all;
    }

    /** A table in the FROM clause: the name its columns are qualified by, and its key ("schema.table"). */
    private record Source(String binding, String key) { }

    /** Adds the dataset base tables of a FROM clause; false when it holds anything else. */
    private boolean sources(JsonNode from, List<Source> out) throws SQLException {
        switch (from.path("type").asText()) {
            case "JOIN" -> {
                return sources(from.path("left"), out) && sources(from.path("right"), out);
            }
            case "BASE_TABLE" -> {
                String catalog = from.path("catalog_name").asText("").toLowerCase(Locale.ROOT);
                String schema = from.path("schema_name").asText("").toLowerCase(Locale.ROOT);
                String table = from.path("table_name").asText("").toLowerCase(Locale.ROOT);
                if (!(catalog.isEmpty() || catalog.equals("data")) || from.path("column_name_alias").size() > 0
                        || !from.path("at_clause").isNull() || (catalog.isEmpty() && OTHER_SCHEMAS.contains(schema))) {
                    return false;
                }
                String key = (schema.isEmpty() ? "main" : schema) + "." + table;
                if (!tables().containsKey(key)) {
                    return false;
                }
                String alias = from.path("alias").asText("");
                out.add(new Source((alias.isEmpty() ? table : alias).toLowerCase(Locale.ROOT), key));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** The longest stored value a bare column name can bring, or {@link #UNKNOWN}. */
    private long longest(JsonNode names, List<Source> sources) throws SQLException {
        if (names.size() < 1 || names.size() > 2) {
            return UNKNOWN;
        }
        String column = names.get(names.size() - 1).asText("").toLowerCase(Locale.ROOT);
        List<Source> candidates = new ArrayList<>();
        for (Source s : sources) {
            boolean named = names.size() == 1 || (names.size() == 2 && s.binding().equals(
                    names.get(0).asText("").toLowerCase(Locale.ROOT)));
            if (named && tables().get(s.key()).containsKey(column)) {
                candidates.add(s);
            }
        }
        if (candidates.isEmpty()) {
            return UNKNOWN;
        }
        long longest = 0; // a name found in several tables (USING, NATURAL) may bring either table's value
        for (Source s : candidates) {
            Long bytes = lengths(s.key()).get(column);
            if (bytes == null) {
                return UNKNOWN;
            }
            longest = Math.max(longest, bytes);
        }
        return longest;
    }

    /**
     * The dataset's base tables and their columns, read once. A column with a default may be generated (computed when
     * read, with no stored length), so text with a default counts as computed.
     */
    private Map<String, Map<String, Kind>> tables() throws SQLException {
        Map<String, Map<String, Kind>> tables = current.tables;
        if (tables == null) {
            Map<String, Map<String, Kind>> read = new HashMap<>();
            // two small reads: joining duckdb_columns() to duckdb_tables() took 10-60 ms
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT table_schema,"
                    + " table_name FROM information_schema.tables WHERE table_catalog = 'data' AND table_type = 'BASE TABLE'")) {
                while (rs.next()) {
                    read.put((rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT), new HashMap<>());
                }
            }
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT schema_name,"
                    + " table_name, column_name, CASE WHEN data_type <> 'VARCHAR' THEN 'OTHER' WHEN column_default IS NULL"
                    + " THEN 'TEXT' ELSE 'COMPUTED_TEXT' END FROM duckdb_columns() WHERE database_name = 'data'")) {
                while (rs.next()) {
                    Map<String, Kind> table = read.get((rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT));
                    if (table != null) { // a view's columns are not stored
                        table.put(rs.getString(3).toLowerCase(Locale.ROOT), Kind.valueOf(rs.getString(4)));
                    }
                }
            }
            tables = read;
            current.tables = read;
        }
        return tables;
    }

    /** The longest stored value of each plain text column of one table, from DuckDB's statistics; read once. */
    private Map<String, Long> lengths(String key) throws SQLException {
        Map<String, Long> known = current.lengths.get(key);
        if (known != null) {
            return known;
        }
        List<String> text = tables().get(key).entrySet().stream().filter(e -> e.getValue() == Kind.TEXT)
                .map(Map.Entry::getKey).toList();
        Map<String, Long> read = new HashMap<>();
        if (!text.isEmpty()) {
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < text.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append("stats(").append(Sql.quoteIdent(text.get(i))).append(')');
            }
            int dot = key.indexOf('.');
            sql.append(" FROM data.").append(Sql.quoteIdent(key.substring(0, dot))).append('.')
                    .append(Sql.quoteIdent(key.substring(dot + 1))).append(" LIMIT 1");
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
                if (rs.next()) { // an empty table has no row to read them from: its lengths stay unknown
                    for (int i = 0; i < text.size(); i++) {
                        long bytes = maxLength(rs.getString(i + 1));
                        if (bytes >= 0) {
                            read.put(text.get(i), bytes);
                        }
                    }
                }
            }
        }
        current.lengths.put(key, read);
        return read;
    }

    /**
     * "[Min: A, Max: D, Has Unicode: false, Max String Length: 1][Has Null: …]" → 1; {@link #UNKNOWN} when the
     * length is not known ("?"). The minimum and maximum shown are 8-byte prefixes, too short to hold the pattern.
     */
    static long maxLength(String stats) {
        long found = UNKNOWN;
        if (stats != null) {
            for (Matcher m = MAX_LENGTH.matcher(stats); m.find(); ) {
                found = Long.parseLong(m.group(1));
            }
        }
        return found;
    }
}
