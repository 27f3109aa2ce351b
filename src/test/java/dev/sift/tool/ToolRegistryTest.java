package dev.sift.tool;

import dev.sift.Sift;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Broken tools fail when the registry is built, not on their first call. */
class ToolRegistryTest {

    record NoArgs() { }

    record Undescribed(String x) { }

    record ColumnsWithoutSource(@Arg(value = "c", kind = Arg.Kind.COLUMN) String column) { }

    record BadType(@Arg("a map") java.util.Map<String, String> m) { }

    private static Tool<Record> tool(String name, String description, Class<? extends Record> args) {
        return new Tool<>() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec(name, description, args, "x", Set.of());
            }

            @Override
            public ToolResult run(Record a, ToolContext ctx) {
                return ToolResult.ok("x", null);
            }
        };
    }

    @Test
    void the_default_tools_form_a_valid_registry() {
        assertThat(Sift.defaultTools().names()).startsWith("inspect_data", "sample_values", "run_sql", "show_frame", "summarize_result")
                .contains("train_model", "predict", "explain_prediction", "evaluate_predictions", "list_models",
                        "select_model", "compare_models", "check_drift", "kmeans_clusters", "anomaly_scan")
                .contains("profile_data", "data_quality_report", "correlation_analysis", "trend_analysis", "pivot",
                        "forecast", "transform_column", "sample_rows", "auto_insights")
                .contains("query_kg", "text_to_sql", "clarify", "make_chart");
    }

    @Test
    void rejects_invalid_specs_at_build_time() {
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a", "d", NoArgs.class), tool("a", "d", NoArgs.class))))
                .hasMessage("Two tools are named 'a'");
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("RunSql", "d", NoArgs.class))))
                .hasMessage("Tool name 'RunSql' is not snake_case");
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a", " ", NoArgs.class))))
                .hasMessage("Tool a has no description");
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a", "d", Undescribed.class))))
                .hasMessage("Argument 'x' of Undescribed has no @Arg description");
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a", "d", ColumnsWithoutSource.class))))
                .hasMessage("Tool a must have one SOURCE argument for its columns");
        assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a", "d", BadType.class))))
                .hasMessageStartingWith("Unsupported argument type interface java.util.Map");
    }

    private static Tool<Record> throwing(Exception e) {
        return new Tool<>() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("slow", "d", NoArgs.class, "x", Set.of());
            }

            @Override
            public ToolResult run(Record a, ToolContext ctx) throws dev.sift.data.FixableException {
                if (e instanceof dev.sift.data.FixableException f) {
                    throw f;
                }
                throw (RuntimeException) e;
            }
        };
    }

    @Test
    void a_timeout_or_invalid_name_in_a_tools_query_is_the_planners_to_fix_other_failures_are_bugs() throws Exception {
        var timeout = new dev.sift.data.QueryException(dev.sift.data.QueryException.Kind.TIMEOUT, "Query cancelled.");
        assertThat(ToolRegistry.runTool(throwing(timeout), new NoArgs(), null)).satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.summary()).isEqualTo("Error: Query cancelled.");
        });
        var invalid = new dev.sift.data.QueryException(dev.sift.data.QueryException.Kind.INVALID, "Bad label.");
        assertThat(ToolRegistry.runTool(throwing(invalid), new NoArgs(), null).error()).isEqualTo("Bad label.");
        var failed = new dev.sift.data.QueryException(dev.sift.data.QueryException.Kind.FAILED, "Conversion Error");
        assertThatThrownBy(() -> ToolRegistry.runTool(throwing(failed), new NoArgs(), null))
                .isInstanceOf(IllegalStateException.class).hasMessage("Tool slow failed: Conversion Error").hasCause(failed);
    }

    @Test
    void an_ml_precondition_becomes_the_planners_error_result_and_a_plain_bug_propagates_unchanged() throws Exception {
        var ml = new dev.sift.ml.MlException("Target status has one class only: nothing to learn.");
        assertThat(ToolRegistry.runTool(throwing(ml), new NoArgs(), null)).satisfies(r -> {
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).isEqualTo("Target status has one class only: nothing to learn.");
        });
        var bug = new NullPointerException("oops");
        assertThatThrownBy(() -> ToolRegistry.runTool(throwing(bug), new NoArgs(), null)).isSameAs(bug);
    }
}
