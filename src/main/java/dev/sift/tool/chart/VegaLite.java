package dev.sift.tool.chart;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small builder of Vega-Lite (v5) chart specs as JSON, for any tool that returns a picture: inline data
 * values, a mark, encodings, and layers that share the data. Specs are plain data for the UI; nothing here
 * renders. Example:
 * <pre>
 * VegaLite.chart("Monthly amount").values(rows).mark("line")
 *     .encode("x", "period", "temporal", "Month").encode("y", "value", "quantitative", "Total amount").json();
 * </pre>
 */
public final class VegaLite {
    public static final String SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode spec = JSON.createObjectNode();
    private final List<VegaLite> layers = new ArrayList<>();

    private VegaLite() { }

    /** A top-level chart with a title. */
    public static VegaLite chart(String title) {
        VegaLite v = new VegaLite();
        v.spec.put("$schema", SCHEMA);
        if (title != null) {
            v.spec.put("title", title);
        }
        return v;
    }

    /** A layer (mark + encodings) to add to a chart with {@link #layer}. */
    public static VegaLite layerSpec() {
        return new VegaLite();
    }

    /** Inline data: one map per row, keys are field names (values numbers, strings, booleans or null). */
    public VegaLite values(List<? extends Map<String, ?>> rows) {
        ArrayNode values = JSON.createArrayNode();
        for (Map<String, ?> row : rows) {
            values.add(JSON.valueToTree(row));
        }
        spec.putObject("data").set("values", values);
        return this;
    }

    public VegaLite mark(String type) {
        spec.put("mark", type);
        return this;
    }

    /** A mark with properties, e.g. {@code mark("line", Map.of("point", true))}. */
    public VegaLite mark(String type, Map<String, ?> properties) {
        ObjectNode m = JSON.valueToTree(properties);
        m.put("type", type);
        spec.set("mark", m);
        return this;
    }

    /** Encodes a channel (x, y, color, text, tooltip, strokeDash, …) by a field of type quantitative, temporal, nominal or ordinal. */
    public VegaLite encode(String channel, String field, String type) {
        return encode(channel, field, type, null);
    }

    public VegaLite encode(String channel, String field, String type, String title) {
        ObjectNode e = JSON.createObjectNode().put("field", field).put("type", type);
        if (title != null) {
            e.put("title", title);
        }
        return encode(channel, e);
    }

    /** Encodes a channel with a full definition (scale, sort, axis, …). */
    public VegaLite encode(String channel, ObjectNode definition) {
        ObjectNode encoding = spec.get("encoding") instanceof ObjectNode e ? e : spec.putObject("encoding");
        encoding.set(channel, definition);
        return this;
    }

    /** A channel definition to extend before passing it to {@link #encode(String, ObjectNode)}. */
    public static ObjectNode field(String field, String type, String title) {
        ObjectNode e = JSON.createObjectNode().put("field", field).put("type", type);
        if (title != null) {
            e.put("title", title);
        }
        return e;
    }

    /** Any other top-level property (width, height, description, transform, …). */
    public VegaLite set(String property, Object value) {
        spec.set(property, JSON.valueToTree(value));
        return this;
    }

    public VegaLite layer(VegaLite layer) {
        layers.add(layer);
        return this;
    }

    /** The spec as JSON (layers under {@code layer}, sharing the chart's data). */
    public ObjectNode json() {
        ObjectNode out = spec.deepCopy();
        if (!layers.isEmpty()) {
            ArrayNode l = out.putArray("layer");
            for (VegaLite layer : layers) {
                l.add(layer.json());
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return json().toString();
    }
}
