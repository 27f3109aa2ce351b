package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.ml.Explanations;
import dev.sift.ml.GroupFacts;
import dev.sift.data.Numbers;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelQuality;
import dev.sift.ml.Predictions;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;
import dev.sift.tool.chart.VegaLite;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Explains a model's latest predictions case by case with TreeSHAP values mapped back to the user's
 * columns: the top drivers, a plain sentence per case, and global importance (mean |SHAP|). Saves frames
 * {@code explanations} (one row per case) and {@code shap_values} (one row per case and column).
 */
public final class ExplainPrediction implements Tool<ExplainPrediction.Args> {
    static final int DEFAULT_CASES = 10;
    static final int DRIVERS = 3;
    static final int GLOBAL_ROWS = 5000;

    public record Args(
            @Arg(value = "entity values to explain: ids of the entity column (default: the top_k highest predictions)",
                    required = false, aliases = {"ids", "entities", "case"}) List<String> cases,
            @Arg(value = "how many top cases to explain when cases is omitted (default 10, at most 50)",
                    required = false, aliases = {"top", "k"}) Integer top_k,
            @Arg(value = "model id (default: the latest trained or selected model)", required = false,
                    aliases = {"model_id"}) String model) {
        public Args {
            if (top_k != null && (top_k < 1 || top_k > 50)) {
                throw new IllegalArgumentException("top_k must be between 1 and 50, got " + top_k + ".");
            }
        }
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("explain_prediction", "Explain why a model predicted what it did for given cases (or its"
                + " top predictions): per-case SHAP drivers by column in plain words, and overall feature importance."
                + " Run predict first.", Args.class, "drivers per case", Set.of("ml"));
    }

    @Override
    public int summaryCap() {
        return 4000;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TrainedModel model = ctx.models().resolve(args.model());
        Predictions p = ctx.models().predictions(model.id()).orElseThrow(() -> new MlException("Model " + model.id()
                + " has no predictions yet: call predict(source=<frame to score>, model=" + model.id()
                + ") first, then explain_prediction."));
        int[] rows;
        if (args.cases() == null || args.cases().isEmpty()) {
            rows = p.top(args.top_k() == null ? DEFAULT_CASES : args.top_k());
        } else {
            rows = new int[args.cases().size()];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = p.rowOf(args.cases().get(i).trim());
                if (rows[i] < 0) {
                    throw new MlException(unknownCase(args.cases().get(i), p));
                }
            }
        }
        String sourceSql = ctx.models().origin(model.id()).map(o -> o.sourceSql()).orElse(null);
        Explanations.Result r = Explanations.explain(p, rows, model.encoder().columns().size(), GLOBAL_ROWS,
                GroupFacts.of(p.data(), model.encoder().columnNames(), sourceSql));
        save(ctx.workspace(), model, r);
        QueryResult shown = MlSupport.evidence(ctx, "explanations", null, rows.length);
        Optional<String> weak = ModelQuality.warning(model);
        String summary = weak.map(w -> "UNRELIABLE explanation: " + w + " The drivers below may be noise.\n").orElse("")
                + summary(model, p, r);
        return ToolResult.withChart(summary, payload(r, weak), drivers(model, r), ToolResult.withCaveat(Map.of("model",
                model.id(), "cases", rows.length, "frame", "explanations"), weak));
    }

    static String unknownCase(String wanted, Predictions p) {
        String entity = Predict.entityColumn(p.model().entity());
        List<String> some = new ArrayList<>();
        for (int i : p.top(5)) {
            Object e = p.data().entities().get(i);
            some.add(String.valueOf(e == null ? i + 1 : e));
        }
        return "Case '" + wanted + "' is not among the " + p.data().rows() + " rows predicted with model "
                + p.model().id() + " (frame " + p.frame() + "; " + entity + " values such as " + String.join(", ", some)
                + "). Give " + entity + " values from frame " + p.frame() + ", or omit cases to explain the top ones.";
    }

    private static void save(Workspace ws, TrainedModel model, Explanations.Result r) throws FixableException {
        boolean classify = model.task() == TaskType.CLASSIFICATION;
        String entity = Predict.entityColumn(model.entity());
        List<QueryResult.Column> cols = new ArrayList<>(List.of(new QueryResult.Column(entity, "VARCHAR"),
                new QueryResult.Column(classify ? "probability" : "prediction", "DOUBLE")));
        for (int d = 1; d <= DRIVERS; d++) {
            cols.add(new QueryResult.Column("driver_" + d, "VARCHAR"));
        }
        cols.add(new QueryResult.Column("explanation", "VARCHAR"));
        List<Object[]> rows = new ArrayList<>();
        List<Object[]> shapRows = new ArrayList<>();
        for (Explanations.Case c : r.cases()) {
            Object[] row = new Object[cols.size()];
            row[0] = String.valueOf(c.entity());
            row[1] = Math.round(c.prediction() * 10000) / 10000.0;
            for (int d = 0; d < DRIVERS; d++) {
                row[2 + d] = d < c.drivers().size() ? driverText(c.drivers().get(d)) : null;
            }
            row[cols.size() - 1] = c.sentence();
            rows.add(row);
            for (Explanations.Driver d : c.drivers()) {
                shapRows.add(new Object[] {String.valueOf(c.entity()), d.column(), d.value(), d.shap()});
            }
        }
        ws.writeFrame("explanations", cols, rows);
        ws.writeFrame("shap_values", List.of(new QueryResult.Column(entity, "VARCHAR"),
                new QueryResult.Column("column_name", "VARCHAR"), new QueryResult.Column("value", "VARCHAR"),
                new QueryResult.Column("shap", "DOUBLE")), shapRows);
    }

    static String driverText(Explanations.Driver d) {
        return d.column() + " = " + (d.value() == null ? "missing" : d.value()) + " (" + (d.shap() >= 0 ? "+" : "")
                + Numbers.fixed(d.shap(), 2) + ")";
    }

    private static String summary(TrainedModel m, Predictions p, Explanations.Result r) {
        StringBuilder b = new StringBuilder("Explained ").append(r.cases().size()).append(" case")
                .append(r.cases().size() == 1 ? "" : "s").append(" of model ").append(m.id()).append(" (SHAP in ")
                .append(m.task() == TaskType.CLASSIFICATION ? "log-odds" : "units of " + m.target())
                .append("; a reason is given only when at least ").append((int) (Explanations.STABLE_SHARE * 100))
                .append("% of the ").append(m.foldModels().isEmpty() ? "fold models (none kept with a saved model, so"
                        + " not checked)" : m.foldModels().size() + " fold models push the same way")
                .append("; saved as frames explanations and shap_values):");
        for (Explanations.Case c : r.cases()) {
            b.append("\n- ").append(c.sentence());
            b.append(" Top drivers: ").append(String.join("; ", c.drivers().subList(0, Math.min(DRIVERS,
                    c.drivers().size())).stream().map(d -> d.column() + " " + (d.shap() >= 0 ? "+" : "")
                    + Numbers.fixed(d.shap(), 2) + (d.stable() ? "" : " (unstable: " + d.agree() + "/" + d.folds()
                    + " fold models agree)")).toList())).append('.');
        }
        b.append("\nOverall importance (mean |SHAP| over ").append(r.globalRows()).append(" rows of ").append(p.frame())
                .append("): ");
        List<String> imp = new ArrayList<>();
        for (Explanations.Importance i : r.global().subList(0, Math.min(6, r.global().size()))) {
            imp.add(i.column() + " " + Numbers.fixed(i.meanAbsShap(), 3));
        }
        return b.append(String.join(", ", imp)).append('.').toString();
    }

    /** A bar chart of the main drivers overall (mean |SHAP|, the ten largest), largest first. */
    static ObjectNode drivers(TrainedModel m, Explanations.Result r) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Explanations.Importance i : r.global().subList(0, Math.min(10, r.global().size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("driver", i.column());
            row.put("importance", Math.round(i.meanAbsShap() * 1000) / 1000.0);
            rows.add(row);
        }
        String unit = m.task() == TaskType.CLASSIFICATION ? "log-odds" : m.target();
        return VegaLite.chart("Main drivers of " + m.target() + " (mean |SHAP| over " + r.globalRows() + " rows)")
                .values(rows).set("width", "container").mark("bar", Map.of("tooltip", true))
                .encode("y", VegaLite.field("driver", "nominal", "Driver").put("sort", "-x"))
                .encode("x", "importance", "quantitative", "Mean |SHAP| (" + unit + ")").json();
    }

    private static Map<String, Object> payload(Explanations.Result r, Optional<String> weak) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("reliable", weak.isEmpty());
        out.put("warning", weak.orElse(null));
        out.put("cases", r.cases());
        out.put("global_importance", r.global());
        return out;
    }
}
