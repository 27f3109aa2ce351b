package dev.sift.text;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds Vega-Lite (v5) specs for the chart kinds Sift offers, from rows whose columns were validated
 * already. Counting kinds take rows that are already aggregated ({@code n} per group), so a chart over a
 * large table never ships the table to the browser.
 */
public final class ChartSpec {
    static final String SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
    /** The name of the count column in pre-aggregated rows. */
    public static final String COUNT = "n";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> NUMERIC = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
            "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "REAL");

    private ChartSpec() { }

    /** A field of a chart: its column and Vega-Lite type. */
    public record Field(String name, String type) {
        public static Field of(String column, String duckType) {
            return new Field(column, typeOf(duckType));
        }
    }

    /** quantitative for numbers, temporal for dates and times, nominal otherwise. */
    public static String typeOf(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT);
        if (NUMERIC.contains(t) || t.startsWith("DECIMAL")) {
            return "quantitative";
        }
        if (t.startsWith("DATE") || t.startsWith("TIMESTAMP") || t.equals("TIME")) {
            return "temporal";
        }
        return "nominal";
    }

    public static ObjectNode build(String kind, Field x, Field y, Field color, String title, List<String> columns,
                                   List<List<Object>> rows) {
        return build(kind, x, y, color, title, columns, rows, null);
    }

    /**
     * The chart with axis and legend titles from {@code titles} (a column name, or {@link #COUNT} for the count of rows,
     * to what a person calls it); null keeps the columns' own names.
     */
    public static ObjectNode build(String kind, Field x, Field y, Field color, String title, List<String> columns,
                                   List<List<Object>> rows, java.util.function.UnaryOperator<String> titles) {
        ObjectNode spec = JSON.createObjectNode();
        spec.put("$schema", SCHEMA);
        if (title != null && !title.isBlank()) {
            spec.put("title", title);
        }
        spec.put("width", "container");
        spec.put("height", 260);
        ArrayNode values = spec.putObject("data").putArray("values");
        for (List<Object> row : rows) {
            ObjectNode o = values.addObject();
            for (int i = 0; i < columns.size(); i++) {
                put(o, columns.get(i), row.get(i));
            }
        }
        if (x != null && x.type().equals("quantitative") && x.name().matches("(?i)(.*_)?year") && !kind.equals("scatter")
                && !kind.equals("histogram")) {
            x = new Field(x.name(), "ordinal"); // 1997, not "1,997" on a continuous axis
        }
        ObjectNode enc = encode(spec, kind, x, y, color, rows.size());
        if (titles != null) {
            retitle(enc, titles);
        }
        spec.set("encoding", enc);
        return spec;
    }

    /** The mark of {@code kind} (set on {@code spec}) and its encoding: which field goes on which channel. */
    private static ObjectNode encode(ObjectNode spec, String kind, Field x, Field y, Field color, int rows) {
        ObjectNode enc = JSON.createObjectNode();
        switch (kind) {
            case "bar" -> {
                spec.putObject("mark").put("type", "bar").put("tooltip", true);
                ObjectNode fx = field(x);
                if (!x.type().equals("quantitative") && !x.type().equals("temporal")) {
                    fx.put("sort", "-y");
                    fx.putObject("axis").put("labelAngle", rows > 12 ? -45 : 0);
                }
                enc.set("x", fx);
                enc.set("y", y == null ? count() : field(y));
            }
            case "line" -> {
                spec.putObject("mark").put("type", "line").put("point", true).put("tooltip", true);
                enc.set("x", field(x));
                enc.set("y", field(y));
            }
            case "scatter" -> {
                spec.putObject("mark").put("type", "point").put("tooltip", true);
                enc.set("x", field(x));
                enc.set("y", field(y));
            }
            case "histogram" -> {
                spec.putObject("mark").put("type", "bar").put("tooltip", true);
                enc.set("x", field(x).put("bin", true).put("title", x.name()));
                enc.set("y", count());
            }
            case "pie" -> {
                spec.putObject("mark").put("type", "arc").put("tooltip", true);
                enc.set("theta", y == null ? count() : field(y));
                enc.set("color", field(x));
            }
            case "heatmap" -> {
                spec.putObject("mark").put("type", "rect").put("tooltip", true);
                enc.set("x", field(x));
                enc.set("y", field(y));
                enc.set("color", color == null ? count() : field(color));
            }
            default -> throw new IllegalArgumentException("Unknown chart kind " + kind);
        }
        if (color != null && !kind.equals("heatmap")) {
            enc.set("color", field(color));
        }
        return enc;
    }

    /** Each channel's title as a person calls its column ({@link #COUNT} for a count of rows); blank keeps the name. */
    private static void retitle(ObjectNode enc, java.util.function.UnaryOperator<String> titles) {
        enc.fields().forEachRemaining(e -> {
            ObjectNode channel = (ObjectNode) e.getValue();
            String named = channel.path("aggregate").asText().equals("sum") && channel.path("field").asText().equals(COUNT)
                    && channel.path("title").asText().equals("count") ? COUNT : channel.path("field").asText();
            String t = titles.apply(named);
            if (t != null && !t.isBlank()) {
                channel.put("title", t);
            }
        });
    }

    /** Pre-aggregated counts: a sum over the {@code n} column, titled as a count. */
    private static ObjectNode count() {
        return JSON.createObjectNode().put("field", COUNT).put("type", "quantitative").put("aggregate", "sum")
                .put("title", "count");
    }

    private static ObjectNode field(Field f) {
        return JSON.createObjectNode().put("field", f.name()).put("type", f.type());
    }

    /** Numbers and booleans keep their JSON type; anything else (dates, text) is written as text. */
    private static void put(ObjectNode o, String k, Object v) {
        o.set(k, v == null || v instanceof Number || v instanceof Boolean ? JSON.valueToTree(v)
                : JSON.getNodeFactory().textNode(v.toString()));
    }
}
