package dev.sift.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** A query as DuckDB's parser sees it: how a live workspace decides where SQL runs, and what Sift's SQL is rendered from. */
final class LiveRouting {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** DuckDB's parse ({@code json_serialize_sql}) and the {schema, table} of every table reference that is no CTE. */
    record Parse(JsonNode root, List<String[]> refs) { }

    private LiveRouting() { }

    /** The parse; empty when DuckDB cannot parse the SQL as a query (the engine's own syntax, such as Spark's backquotes). */
    static Optional<Parse> parse(Connection connection, String sql) {
        String serialized;
        try (PreparedStatement ps = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                serialized = rs.getString(1);
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
        JsonNode root;
        try {
            root = JSON.readTree(serialized);
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
        if (root.path("error").asBoolean(false)) {
            return Optional.empty();
        }
        Set<String> ctes = new HashSet<>();
        List<String[]> refs = new ArrayList<>();
        walk(root, ctes, refs);
        List<String[]> out = new ArrayList<>();
        for (String[] r : refs) {
            if (!(r[0].isEmpty() && ctes.contains(r[1].toLowerCase(Locale.ROOT)))) {
                out.add(r);
            }
        }
        return Optional.of(new Parse(root, out));
    }

    private static void walk(JsonNode node, Set<String> ctes, List<String[]> refs) {
        if (node.isObject()) {
            if ("BASE_TABLE".equals(node.path("type").asText()) && node.has("table_name")) {
                refs.add(new String[] {node.path("schema_name").asText(""), node.path("table_name").asText()});
            }
            JsonNode cteMap = node.path("cte_map").path("map");
            if (cteMap.isArray()) {
                cteMap.forEach(e -> ctes.add(e.path("key").asText().toLowerCase(Locale.ROOT)));
            }
            node.fields().forEachRemaining(f -> walk(f.getValue(), ctes, refs));
        } else if (node.isArray()) {
            node.forEach(n -> walk(n, ctes, refs));
        }
    }
}
