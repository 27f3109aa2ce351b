package dev.sift.planner.llm;

import dev.sift.planner.LlmPlanner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.RunJson;
import dev.sift.agent.ToolsShown;
import dev.sift.agent.TraceStore;
import dev.sift.bench.SyntheticTools;
import dev.sift.bench.ToolsBench;
import dev.sift.data.Workspace;
import dev.sift.llm.ScriptedLlm;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Tool selection by retrieval: what the model is shown, why, what stays callable, and what the trace records. */
class ToolSelectorTest {
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static ToolRegistry large() {
        return new ToolRegistry(SyntheticTools.withDefaults());
    }

    @Test
    void a_small_catalogue_is_shown_whole() {
        ToolRegistry small = new ToolRegistry(Sift.defaultTools().tools().stream().filter(t -> List.of("inspect_data",
                "sample_values", "run_sql", "summarize_result", "query_kg", "text_to_sql").contains(t.spec().name())).toList());
        ToolsShown s = new ToolSelector(small).select("How many loans?");
        assertThat(s.names()).containsExactlyElementsOf(small.names());
        assertThat(s.hidden()).isEmpty();
        assertThat(s.shown()).contains(new ToolsShown.Shown("run_sql", "core tool"),
                new ToolsShown.Shown("text_to_sql", "small catalogue (6 tools): all shown"));
    }

    @Test
    void a_large_catalogue_shows_the_core_tools_and_the_matching_ones_with_reasons() {
        ToolRegistry tools = large();
        ToolsShown s = new ToolSelector(tools).select("Is the loan amount correlated with the loan duration?");
        int catalogue = tools.names().size();
        assertThat(s.catalogue()).isEqualTo(catalogue);
        assertThat(s.names()).contains("inspect_data", "sample_values", "run_sql", "query_kg", "correlate",
                        "correlation_analysis").doesNotContain("plot_chart", "forecast_series");
        assertThat(s.shown()).contains(new ToolsShown.Shown("correlate", "matched 'correlated'"),
                new ToolsShown.Shown("correlation_analysis", "the question says 'correlated' (group correlations)"));
        assertThat(s.shown().stream().filter(x -> x.why().startsWith("matched "))).hasSizeLessThanOrEqualTo(
                ToolSelector.MAX_EXTRA);
        assertThat(s.hidden()).contains("plot_chart").hasSize(catalogue - s.shown().size());
        ToolsShown forecast = new ToolSelector(tools).select("Forecast the monthly transaction volume for 1999");
        assertThat(forecast.names()).contains("forecast_series").doesNotContain("correlate");
    }

    @Test
    void a_lookup_is_shown_the_core_tools_only_and_every_bench_question_its_tools() {
        ToolsBench.SiftResult r = new ToolsBench().runSift();
        assertThat(r.lines()).allMatch(l -> l.startsWith("  ok"));
        assertThat(r.covered()).isEqualTo(r.cases());
        assertThat(r.lookups()).isEqualTo(10);
        assertThat(r.lookupsWithExtras()).isZero();
        ToolsShown lookup = new ToolSelector(Sift.defaultTools()).select("What is the average loan amount in Prague?");
        assertThat(lookup.names()).containsExactlyInAnyOrder("inspect_data", "sample_values", "run_sql", "show_frame",
                "query_kg", "clarify");
    }

    @Test
    void questions_about_one_case_or_a_models_health_are_shown_the_tool_that_answers_them() {
        ToolSelector selector = new ToolSelector(Sift.defaultTools());
        assertThat(selector.select("Which loans are most like loan 5776?").names()).contains("similar_cases");
        assertThat(selector.select("What if loan 5776 were 24 months?").names()).contains("what_if");
        assertThat(selector.select("Is the default model still good?").names()).contains("monitor_performance");
    }

    @Test
    void a_hidden_tool_is_still_dispatched() throws Exception {
        ToolRegistry tools = large();
        assertThat(new ToolSelector(tools).select("How many loans?").hidden()).contains("plot_chart");
        assertThat(tools.prepare("plot_chart", new ObjectMapper().readTree("{}"), ws).name()).isEqualTo("plot_chart");
    }

    @Test
    void the_llm_run_records_the_tools_shown_and_the_prompt_carries_the_relevant_knowledge() throws Exception {
        ScriptedLlm llm = new ScriptedLlm(
                "{\"thought\":\"count\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT count(*) AS n FROM loan\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"There are some loans.\"}");
        AgentRun run = new AgentLoop(new LlmPlanner(llm), large(), ws, llm, AgentConfig.defaults())
                .run("What is the default rate of loans in Prague? Draw a chart of it.");
        assertThat(run.toolsShown()).isNotNull();
        assertThat(run.toolsShown().names()).contains("run_sql", "query_kg", "plot_chart").doesNotContain("correlate");
        String system = llm.requests().get(0).messages().get(0).content() + llm.requests().get(0).messages().get(1).content();
        // string arguments go untyped, said once above the catalog
        assertThat(system).contains("## Tools\n" + dev.sift.tool.JsonSchemas.UNTYPED + "\n- ").contains("- plot_chart(input?): ").doesNotContain("- correlate(")
                .contains("- metric default_rate = avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END)")
                .contains("→ district.A2 = 'Hl.m. Praha'");
        JsonNode json = RunJson.of(run, null);
        assertThat(json.path("tools_shown").path("catalogue").asInt()).isEqualTo(large().names().size());
        assertThat(json.path("tools_shown").path("shown").get(0).toString())
                .isEqualTo("{\"tool\":\"inspect_data\",\"why\":\"core tool\"}");
        assertThat(json.path("answer").asText()).isEqualTo("There are some loans.");
        TraceStore traces = new TraceStore(tmp);
        assertThat(traces.load(traces.save(run)).toolsShown()).isEqualTo(run.toolsShown());
    }

    @TempDir
    Path tmp;
}
