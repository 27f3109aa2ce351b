package dev.sift.data.source;

import dev.sift.data.Sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A GeoJSON FeatureCollection (RFC 7946) read as a table: one row per feature, its properties as columns, its
 * {@code id}, and a point's coordinates as {@code longitude}, {@code latitude} and {@code elevation_or_depth}
 * (the standard's third coordinate is elevation; feeds such as USGS earthquakes write depth below the surface
 * there). Features that are not all points keep their geometry as one JSON column. Without this, DuckDB's JSON
 * reader makes the whole collection one row.
 */
final class GeoJson {
    private static final Pattern COLLECTION = Pattern.compile("\"type\"\\s*:\\s*\"FeatureCollection\"");

    private GeoJson() { }

    /** The SELECT that reads the features, and what the load report says about it. */
    record Features(String select, String note) { }

    /** Whether a JSON file's start shows a top-level object that is a FeatureCollection. */
    static boolean is(byte[] head) {
        String s = new String(head, StandardCharsets.UTF_8).stripLeading();
        return s.startsWith("{") && COLLECTION.matcher(s).find();
    }

    /** The features of {@code file} as a parenthesised SELECT, named for what their columns turn out to be. */
    static Features features(Connection db, Path file, String table) throws SQLException, IOException {
        String from = "(SELECT unnest(features) AS f FROM read_json_auto(" + Sql.quoteString(file.toString())
                + ", maximum_object_size=" + Math.max(16L << 20, Files.size(file) + 1) + "))";
        String properties = null;
        String geometry = null;
        boolean hasId = false;
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT f.* FROM " + from)) {
            while (rs.next()) {
                switch (rs.getString(1)) {
                    case "properties" -> properties = rs.getString(2);
                    case "geometry" -> geometry = rs.getString(2);
                    case "id" -> hasId = true;
                    default -> { } // 'type' is always 'Feature'; other members are rare
                }
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("File " + file + " is a GeoJSON FeatureCollection without a 'features'"
                    + " list of objects: " + FileSupport.reason(e), e);
        }
        List<String> select = new ArrayList<>();
        Set<String> names = new HashSet<>();
        if (properties != null && properties.startsWith("STRUCT(")) {
            select.add("unnest(f.properties)");
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                    "DESCRIBE SELECT unnest(f.properties) FROM " + from)) {
                while (rs.next()) {
                    names.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        } else if (properties != null) {
            select.add("f.properties AS properties");
            names.add("properties");
        }
        if (hasId) {
            select.add("f.id AS " + Sql.quoteIdent(free("id", names)));
        }
        String points = "";
        if (geometry != null && allPoints(db, from, geometry)) {
            String prefix = names.contains("longitude") || names.contains("latitude") ? "point_" : "";
            select.add("f.geometry.coordinates[1] AS " + prefix + "longitude");
            select.add("f.geometry.coordinates[2] AS " + prefix + "latitude");
            select.add("f.geometry.coordinates[3] AS " + prefix + "elevation_or_depth");
            points = "; each point's coordinates as " + prefix + "longitude, " + prefix + "latitude and " + prefix
                    + "elevation_or_depth (the standard's third coordinate is elevation; some feeds, such as USGS"
                    + " earthquakes, write depth in km there)";
        } else if (geometry != null) {
            select.add("f.geometry::JSON AS " + Sql.quoteIdent(free("geometry", names)));
            points = "; the geometries, not all points, as one JSON column";
        }
        if (select.isEmpty()) {
            throw new IllegalArgumentException("File " + file + " is a GeoJSON FeatureCollection whose features have"
                    + " neither properties nor geometry: nothing to load");
        }
        return new Features("(SELECT " + String.join(", ", select) + " FROM " + from + ")",
                table + ": a GeoJSON FeatureCollection, read as one row per feature with its properties as columns"
                        + points);
    }

    private static boolean allPoints(Connection db, String from, String geometryType) throws SQLException {
        if (!geometryType.startsWith("STRUCT(") || !geometryType.contains("coordinates DOUBLE[]")) {
            return false;
        }
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT count(*) FILTER (WHERE f.geometry.type IS DISTINCT FROM 'Point') FROM " + from)) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    private static String free(String name, Set<String> taken) {
        return taken.contains(name) ? "feature_" + name : name;
    }
}
