package dev.sift.tool;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Optional;

/**
 * A tool's outcome on two channels: {@code summary} is what the planner sees (short, capped);
 * {@code payload} is the rich result for people and later tools, and never enters a prompt.
 */
public record ToolResult(boolean ok, String summary, Object payload, String error, Map<String, Object> meta) {
    private static final String ARTIFACT = "artifact";
    private static final String CHART = "chart";
    /** The meta key of a chart that comes with a result whose payload is something else (a trend, a forecast). */
    private static final String CHART_SPEC = "chart_spec";
    /** Meta key of a warning the final answer must carry (a weak model): the loop adds it to the notes and answer. */
    public static final String CAVEAT = "caveat";
    /** Meta key of a fact about how the result was computed that the run's notes carry (e.g. on a sample). */
    public static final String NOTE = "note";

    public static ToolResult ok(String summary, Object payload) {
        return new ToolResult(true, summary, payload, null, Map.of());
    }

    public static ToolResult ok(String summary, Object payload, Map<String, Object> meta) {
        return new ToolResult(true, summary, payload, null, meta);
    }

    /**
     * The chart this result is or comes with (a Vega-Lite spec), if any: the one place that decides "is this a
     * chart". A trend, forecast or correlation result keeps its own payload and carries its chart beside it.
     */
    public Optional<JsonNode> chart() {
        if (!ok) {
            return Optional.empty();
        }
        if (CHART.equals(meta.get(ARTIFACT)) && payload instanceof JsonNode spec) {
            return Optional.of(spec);
        }
        return meta.get(CHART_SPEC) instanceof JsonNode spec ? Optional.of(spec) : Optional.empty();
    }

    /** A result whose payload is not a chart but which comes with one ({@code chart}, a Vega-Lite spec). */
    public static ToolResult withChart(String summary, Object payload, JsonNode chart, Map<String, Object> meta) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(meta);
        m.put(CHART_SPEC, chart);
        return new ToolResult(true, summary, payload, null, Map.copyOf(m));
    }

    /** The warning this result says the final answer must carry, if any (see {@link #CAVEAT}). */
    public Optional<String> caveat() {
        return meta.get(CAVEAT) instanceof String c && !c.isBlank() ? Optional.of(c) : Optional.empty();
    }

    /** How this result was computed, when the run's notes should say so (see {@link #NOTE}). */
    public Optional<String> note() {
        return meta.get(NOTE) instanceof String n && !n.isBlank() ? Optional.of(n) : Optional.empty();
    }

    /** This result with {@code note} in front of its summary and in its meta (see {@link #NOTE}). */
    public ToolResult noted(String note) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(meta);
        m.put(NOTE, note);
        return new ToolResult(ok, note + "\n" + summary, payload, error, java.util.Collections.unmodifiableMap(m));
    }

    /** This result noted with what the result's byte budget cut (see {@link #noted}); unchanged when nothing was. */
    public ToolResult withCuts(dev.sift.data.CellCuts cuts) {
        return cuts.any() ? noted("Note: " + cuts.statement()) : this;
    }

    /** Meta with a caveat added when there is one. */
    public static Map<String, Object> withCaveat(Map<String, Object> meta, Optional<String> caveat) {
        if (caveat.isEmpty()) {
            return meta;
        }
        Map<String, Object> m = new java.util.LinkedHashMap<>(meta);
        m.put(CAVEAT, caveat.get());
        return java.util.Collections.unmodifiableMap(m);
    }

    /** A chart: {@code spec} is its Vega-Lite specification; {@code meta} says more (its kind). */
    public static ToolResult chart(String summary, JsonNode spec, Map<String, Object> meta) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(meta);
        m.put(ARTIFACT, CHART);
        return new ToolResult(true, summary, spec, null, Map.copyOf(m));
    }

    /**
     * A failure the planner can act on; {@code error} says what went wrong and what to do. Only the registry makes
     * one, from the {@link dev.sift.data.FixableException} a tool threw.
     */
    static ToolResult error(String error) {
        return new ToolResult(false, "Error: " + error, null, error, Map.of());
    }
}
