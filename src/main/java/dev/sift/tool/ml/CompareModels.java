package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.ml.Metrics;
import dev.sift.ml.MlData;
import dev.sift.ml.MlException;
import dev.sift.ml.Predictions;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Side-by-side metrics of models of the same target: by default their cross-validated figures (on the same folds
 * when they were trained on the same rows with the same seed, as the folds depend on nothing else), or their
 * metrics on all labelled rows of a given table or frame.
 */
public final class CompareModels implements Tool<CompareModels.Args> {

    public record Args(
            @Arg(value = "model ids to compare (default: all models of the selected model's target)", required = false,
                    aliases = {"ids"}) List<String> models,
            @Arg(value = "table or frame with the target to evaluate on (default: compare the cross-validated metrics)",
                    required = false, aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE) String source) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("compare_models", "Compare models of the same target side by side: their"
                + " cross-validated metrics (by default) or their metrics on the same labelled rows of a table or frame.", Args.class, "metrics per model", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        List<TrainedModel> models = models(args.models(), ctx);
        return args.source() == null ? crossValidated(models) : onRows(models, ctx.source(args.source()), ctx);
    }

    /** The models named (default: all of the selected model's target), at least two, all of one target and task. */
    private static List<TrainedModel> models(List<String> ids, ToolContext ctx) throws MlException {
        List<TrainedModel> models = new ArrayList<>();
        if (ids == null || ids.isEmpty()) {
            String target = ctx.models().resolve(null).target();
            ctx.models().all().stream().filter(m -> m.target().equals(target)).forEach(models::add);
        } else {
            for (String id : ids) {
                models.add(ctx.models().resolve(id));
            }
        }
        if (models.size() < 2) {
            throw new MlException("compare_models needs at least two models of the same target; this session has: "
                    + ctx.models().all().stream().map(TrainedModel::line).collect(Collectors.joining("; ")) + ".");
        }
        TrainedModel first = models.get(0);
        for (TrainedModel m : models) {
            if (!m.target().equals(first.target()) || m.task() != first.task()) {
                throw new MlException("Models " + first.id() + " and " + m.id() + " predict different things ("
                        + first.task().label() + " of " + first.target() + " vs " + m.task().label() + " of "
                        + m.target() + "): compare models of the same target.");
            }
        }
        return models;
    }

    /** Each model's metrics on the labelled rows of {@code table}. */
    private static ToolResult onRows(List<TrainedModel> models, TableInfo table, ToolContext ctx) throws FixableException {
        TrainedModel first = models.get(0);
        if (table.column(first.target()).isEmpty()) {
            throw new MlException(table.name() + " has no column '" + first.target() + "' to evaluate against.");
        }
        String where = Sql.quoteIdent(first.target()) + " IS NOT NULL";
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (TrainedModel m : models) {
            List<String> missing = m.encoder().missingIn(table);
            if (!missing.isEmpty()) {
                throw new MlException(Predict.misaligned(table, m, missing));
            }
            MlData d = MlData.read(ctx.workspace(), table, m.encoder(), null, m.target(), where, false);
            double[] p = Predictions.predict(m, d.x(), d.rows());
            double[] y = new double[d.rows()];
            for (int i = 0; i < y.length; i++) {
                y[i] = m.task() == TaskType.CLASSIFICATION ? (d.target()[i].equals(m.positiveClass()) ? 1 : 0)
                        : Double.parseDouble(d.target()[i]);
            }
            results.put(m.id(), m.task() == TaskType.CLASSIFICATION ? Metrics.classification(y, p) : Metrics.regression(y, p));
            if (m.source().equals(table.name())) {
                notes.add(m.id() + " was trained on " + m.source() + ", so these are rows it learned from: its"
                        + " cross-validated figures (" + m.headline() + ") are the honest ones");
            }
        }
        return ToolResult.ok(onRowsSummary(models, table, results, notes), results);
    }

    private static String onRowsSummary(List<TrainedModel> models, TableInfo table,
                                        Map<String, Map<String, Double>> results, List<String> notes) {
        TrainedModel first = models.get(0);
        String key = first.task() == TaskType.CLASSIFICATION ? "auc" : "rmse";
        boolean higher = key.equals("auc");
        String best = results.entrySet().stream().filter(e -> !Double.isNaN(e.getValue().get(key)))
                .sorted((a, b) -> higher ? Double.compare(b.getValue().get(key), a.getValue().get(key))
                        : Double.compare(a.getValue().get(key), b.getValue().get(key)))
                .map(Map.Entry::getKey).findFirst().orElse(null);
        StringBuilder b = new StringBuilder("Compared ").append(models.size()).append(" models of ")
                .append(first.target()).append(" on rows of ").append(table.name()).append(" with a value of ")
                .append(first.target()).append(':');
        for (TrainedModel m : models) {
            b.append('\n').append(m.id()).append(" (").append(m.encoder().columns().size()).append(" columns): ")
                    .append(Metrics.render(results.get(m.id())));
        }
        b.append(best == null ? "\nNo model can be ranked by " + key + " on these rows."
                : "\nBest by " + key + ": " + best + ". select_model(model=" + best + ") makes it the default.");
        notes.forEach(n -> b.append("\nNote: ").append(n).append('.'));
        return b.toString();
    }

    private static ToolResult crossValidated(List<TrainedModel> models) {
        TrainedModel first = models.get(0);
        StringBuilder b = new StringBuilder("Compared ").append(models.size()).append(" models of ")
                .append(first.target()).append(" by their cross-validated metrics:");
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        for (TrainedModel m : models) {
            results.put(m.id(), m.provenance().metrics());
            b.append('\n').append(m.id()).append(" (").append(m.encoder().columns().size()).append(" columns, ")
                    .append(m.source()).append("): ").append(m.headline());
        }
        boolean classify = first.task() == TaskType.CLASSIFICATION;
        String key = classify ? "auc" : "rmse";
        models.stream().filter(m -> !Double.isNaN(m.provenance().metrics().get(key)))
                .sorted((x, y) -> classify ? Double.compare(y.provenance().metrics().get(key), x.provenance().metrics().get(key))
                        : Double.compare(x.provenance().metrics().get(key), y.provenance().metrics().get(key)))
                .findFirst().ifPresentOrElse(best -> b.append("\nBest by mean ").append(key).append(": ").append(best.id())
                        .append(". select_model(model=").append(best.id()).append(") makes it the default."),
                        () -> b.append("\nNo model can be ranked by ").append(key).append('.'));
        if (models.stream().map(TrainedModel::source).distinct().count() > 1) {
            b.append("\nNote: these models were trained on different frames, so their folds differ.");
        }
        return ToolResult.ok(b.toString(), results);
    }
}
