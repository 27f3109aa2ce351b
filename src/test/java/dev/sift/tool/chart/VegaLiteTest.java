package dev.sift.tool.chart;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class VegaLiteTest {

    @Test
    void builds_a_single_view_spec_with_inline_data() {
        String json = VegaLite.chart("Loans per year").values(List.of(ordered("y", 1996, "n", 3)))
                .mark("bar").encode("x", "y", "ordinal", "Year").encode("y", "n", "quantitative").json().toString();
        assertThat(json).isEqualTo("{\"$schema\":\"https://vega.github.io/schema/vega-lite/v5.json\",\"title\":\"Loans per year\","
                + "\"data\":{\"values\":[{\"y\":1996,\"n\":3}]},\"mark\":\"bar\",\"encoding\":{\"x\":{\"field\":\"y\","
                + "\"type\":\"ordinal\",\"title\":\"Year\"},\"y\":{\"field\":\"n\",\"type\":\"quantitative\"}}}");
    }

    /** Map.of has no fixed order; the row's keys must serialise in the order given. */
    private static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    @Test
    void layers_share_the_chart_data_and_keep_their_own_marks() {
        var spec = VegaLite.chart(null).values(List.of(Map.of("t", "2020-01-01", "v", 1.5)))
                .layer(VegaLite.layerSpec().mark("line", Map.of("point", true)).encode("x", "t", "temporal"))
                .layer(VegaLite.layerSpec().mark("rule").encode("y", "v", "quantitative"))
                .set("width", 400).json();
        assertThat(spec.has("title")).isFalse();
        assertThat(spec.get("layer")).hasSize(2);
        assertThat(spec.at("/layer/0/mark/type").asText()).isEqualTo("line");
        assertThat(spec.at("/layer/0/mark/point").asBoolean()).isTrue();
        assertThat(spec.at("/layer/1/encoding/y/field").asText()).isEqualTo("v");
        assertThat(spec.at("/layer/1/data").isMissingNode()).isTrue();
        assertThat(spec.get("width").asInt()).isEqualTo(400);
    }
}
