package dev.sift.text;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Optional;

/**
 * A suggested chart for an answer that made none: when a result has exactly one label column and one
 * numeric column over 2 to 50 rows (a count per value, a total per group), a bar chart of it. The offline
 * planner's value questions get a chart this way; nothing is suggested for shapes that would mislead.
 */
public final class AutoChart {
    private AutoChart() { }

    public static Optional<ObjectNode> of(Evidence e) {
        if (e.columns().size() != 2 || e.rows().size() < 2 || e.rows().size() > 50 || e.rowCount() != e.rows().size()) {
            return Optional.empty();
        }
        boolean numeric = e.rows().stream().allMatch(r -> r.get(1) instanceof Number);
        boolean labels = e.rows().stream().noneMatch(r -> r.get(0) instanceof Number);
        if (!numeric || !labels) {
            return Optional.empty();
        }
        return Optional.of(ChartSpec.build("bar", new ChartSpec.Field(e.columns().get(0), "nominal"),
                new ChartSpec.Field(e.columns().get(1), "quantitative"), null, null, e.columns(),
                List.copyOf(e.rows())));
    }
}
