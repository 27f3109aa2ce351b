package dev.sift.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.text.AutoChart;
import dev.sift.tool.ToolResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects the charts a run makes, as {@code {step, spec}}, while passing each step on to {@code next}. A run
 * that made none gets a suggested chart of its last result when one fits ({@link AutoChart}), as
 * {@code {suggested: true, spec}}.
 */
public final class RunCharts implements StepListener {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StepListener next;
    private final List<ObjectNode> charts = Collections.synchronizedList(new ArrayList<>());

    public RunCharts(StepListener next) {
        this.next = next == null ? StepListener.NONE : next;
    }

    @Override
    public void onStep(Step step, ToolResult result) {
        if (result != null) {
            result.chart().ifPresent(spec -> charts.add(JSON.createObjectNode().put("step", step.index()).set("spec", spec)));
        }
        next.onStep(step, result);
    }

    /** The charts of {@code run}: those its steps made, else the suggested one, else none. */
    public List<ObjectNode> of(AgentRun run) {
        List<ObjectNode> made = List.copyOf(charts);
        if (!made.isEmpty() || run.evidence().isEmpty()) {
            return made;
        }
        return AutoChart.of(run.evidence().get(run.evidence().size() - 1))
                .map(spec -> List.of((ObjectNode) JSON.createObjectNode().put("suggested", true).set("spec", spec)))
                .orElse(List.of());
    }
}
