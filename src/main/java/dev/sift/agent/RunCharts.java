package dev.sift.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.ResultLabels;
import dev.sift.text.AutoChart;
import dev.sift.text.Evidence;
import dev.sift.tool.ToolResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * Collects every chart a run makes, as {@code {step, tool, spec}}, while passing each step on to {@code next}: a
 * chart the planner asked for ({@code make_chart}) and the charts that come with a trend, a forecast, a correlation,
 * a pivot or a prediction's explanation ({@link ToolResult#chart()}). A run that made none gets a suggested chart of
 * its last result when its shape fits one ({@link AutoChart}), as {@code {suggested: true, spec}}, with axis titles
 * from the knowledge graph ({@link ResultLabels}).
 */
public final class RunCharts implements StepListener {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StepListener next;
    private final List<ObjectNode> charts = Collections.synchronizedList(new ArrayList<>());
    private volatile Supplier<Knowledge> knowledge;

    public RunCharts(StepListener next) {
        this.next = next == null ? StepListener.NONE : next;
    }

    @Override
    public void begin(RunState state) {
        knowledge = state::knowledge;
        next.begin(state);
    }

    @Override
    public void progress(String stage, long done, long total) {
        next.progress(stage, done, total);
    }

    @Override
    public void onStep(Step step, ToolResult result) {
        if (result != null) {
            result.chart().ifPresent(spec -> charts.add(JSON.createObjectNode().put("step", step.index())
                    .put("tool", step.tool()).set("spec", spec)));
        }
        next.onStep(step, result);
    }

    /** The charts of {@code run}: those its steps made, else the suggested one, else none. */
    public List<ObjectNode> of(AgentRun run) {
        List<ObjectNode> made = List.copyOf(charts);
        if (!made.isEmpty() || run.evidence().isEmpty() || run.kind() != AnswerKind.ANSWER) {
            return made;
        }
        Evidence last = run.evidence().get(run.evidence().size() - 1);
        Supplier<Knowledge> k = knowledge;
        ResultLabels labels = k == null ? null : new ResultLabels(k.get().graph());
        return AutoChart.of(last, c -> labels == null ? c : labels.of(last.sql(), c))
                .map(spec -> List.of((ObjectNode) JSON.createObjectNode().put("suggested", true).set("spec", spec)))
                .orElse(List.of());
    }
}
