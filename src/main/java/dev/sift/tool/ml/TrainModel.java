package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.FeatureEncoder;
import dev.sift.ml.Leakage;
import dev.sift.ml.MlData;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelQuality;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;
import dev.sift.ml.Trainer;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Trains an XGBoost model on a table or frame with automatic, reported feature handling, a leakage guard,
 * stratified k-fold cross-validation against baselines for metrics, the final model trained on every labelled row,
 * and provenance in the session's model registry.
 */
public final class TrainModel implements Tool<TrainModel.Args> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TrainModel.class);

    public record Args(
            @Arg(value = "table or frame with one row per example (features and the target)", aliases = {"table", "frame"},
                    kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "column to predict (rows where it is null are not used)", aliases = {"label_column", "y"},
                    kind = Arg.Kind.COLUMN) String target,
            @Arg(value = "'classification' (two classes, default) or 'regression' (a number)", required = false,
                    aliases = {"task"}) String task_type,
            @Arg(value = "column identifying a row, an id (default: the first id column); never a feature",
                    required = false, aliases = {"id", "id_column"}, kind = Arg.Kind.COLUMN) String entity,
            @Arg(value = "columns to use as features (default: all other usable columns)", required = false,
                    aliases = {"feature_columns", "columns"}, kind = Arg.Kind.COLUMNS) List<String> features,
            @Arg(value = "XGBoost parameters, e.g. {\"max_depth\": 4, \"eta\": 0.1, \"num_round\": 100}", required = false)
            JsonNode params) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("train_model", "Train a gradient-boosted model (XGBoost) to predict a target column from"
                + " the other columns of a table or frame; reports the features used and dropped and cross-validated metrics"
                + " against a baseline,"
                + " and registers the model for predict/explain_prediction.", Args.class, "model id and metrics",
                Set.of("ml", "predictive"));
    }

    @Override
    public int summaryCap() {
        return 4800; // room for the quality, calibration and leakage lines, which must reach the model whole
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        Workspace ws = ctx.workspace();
        TableInfo table = ctx.source(args.source());
        String target = table.column(args.target()).orElseThrow().name();
        TaskType task = TaskType.parse(args.task_type());
        String entity = MlSupport.entity(table, args.entity());
        if (target.equalsIgnoreCase(entity)) {
            throw new MlException("The target '" + target + "' cannot also be the entity column: name another"
                    + " column as entity, or leave entity out.");
        }
        if (args.features() != null && args.features().stream().anyMatch(f -> f.equalsIgnoreCase(target))) {
            throw new MlException("The target '" + target + "' is listed among the features: a model cannot use"
                    + " the answer as an input. Remove it from features.");
        }
        Map<String, Object> overrides = MlSupport.params(args.params());
        Trainer.params(task, overrides, Trainer.DEFAULT_SEED); // fail fast on bad params
        Set<String> exclude = new HashSet<>(Set.of(target));
        if (entity != null) {
            exclude.add(entity);
        }
        FeatureEncoder encoder = FeatureEncoder.plan(ws, table, exclude, args.features());
        if (encoder.columns().isEmpty()) {
            throw new MlException("No usable feature columns in " + table.name() + " besides the target"
                    + (entity == null ? "" : " and entity '" + entity + "'") + dropped(encoder)
                    + ". Add numeric, date or low-cardinality text columns (e.g. aggregates joined in SQL).");
        }
        Leakage.check(ws, table, target, task, encoder);
        MlData data = MlData.read(ws, table, encoder, entity, target, null, false);
        Trainer.Labels labels = task == TaskType.CLASSIFICATION ? Trainer.classLabels(target, data.target())
                : Trainer.regressionLabels(target, data.target());
        TrainedModel trained = Trainer.train(ctx.models().nextId(), task, table.name(), target, entity, encoder, data,
                labels, overrides).withPointInTime(pointInTime(ctx, table.name()));
        TrainedModel model = ctx.models().add(trained, MlSupport.origin(ctx, table, target));
        LOG.info("trained {} on {} in {} ms", model.id(), table.name(), model.provenance().trainMillis());
        List<String> dated = FrameDates.warnings(ctx, table, entity, encoder.columnNames());
        java.util.Optional<String> caveat = java.util.stream.Stream.concat(java.util.stream.Stream.of(
                        ModelQuality.warning(model), Leakage.suspect(model)).flatMap(java.util.Optional::stream), dated.stream())
                .reduce((a, b) -> a + "\n" + b);
        StringBuilder summary = new StringBuilder(summary(model, data.rows()));
        dated.forEach(w -> summary.append('\n').append(w));
        Map<String, Object> payload = payload(model);
        payload.put("date_leakage_warnings", dated);
        return ToolResult.ok(summary.toString(), payload, ToolResult.withCaveat(Map.of("model",
                model.id(), "millis", model.provenance().trainMillis()), caveat));
    }

    /** The point-in-time rule of the prediction task whose history frame this is, or null. */
    private static String pointInTime(ToolContext ctx, String source) {
        return ctx.knowledge().graph().predictions().stream()
                .filter(t -> PredictionFrames.historyFrame(t).equalsIgnoreCase(source)).findFirst()
                .map(dev.sift.knowledge.PredictionTask::pointInTimeRule).orElse(null);
    }

    private static String dropped(FeatureEncoder encoder) {
        if (encoder.dropped().isEmpty()) {
            return "";
        }
        return " (dropped: " + String.join(", ", encoder.dropped().stream().map(d -> d.column() + ": " + d.reason()).toList()) + ")";
    }

    static String summary(TrainedModel m, int rows) {
        TrainedModel.Provenance p = m.provenance();
        StringBuilder b = new StringBuilder("Trained model ").append(m.id()).append(": ").append(m.task().label())
                .append(" of ").append(m.target());
        if (m.positiveClass() != null) {
            b.append(" (predicts the probability of ").append(m.target()).append(" = ").append(m.positiveClass()).append(')');
        }
        b.append(" on ").append(m.source()).append(", ").append(p.trainRows()).append(" labelled rows")
                .append(rows > p.trainRows() ? " (" + (rows - p.trainRows()) + " rows without a target not used)" : "")
                .append(", entity ").append(m.entity() == null ? "(none: rows are numbered)" : m.entity()).append(".\nFeatures: ")
                .append(String.join(", ", m.encoder().columns().stream().map(FeatureEncoder.ColumnPlan::describe).toList()))
                .append('.');
        if (!m.encoder().dropped().isEmpty()) {
            b.append("\nDropped: ").append(String.join(", ", m.encoder().dropped().stream()
                    .map(d -> d.column() + " (" + d.reason() + ")").toList())).append('.');
        }
        b.append("\nQuality: ").append(m.headline()).append(".\n").append(p.evaluation().render());
        if (p.pointInTime() != null) {
            b.append("\nPoint in time: ").append(p.pointInTime()).append('.');
        }
        b.append("\nThe model is trained on all ").append(p.trainRows()).append(" labelled rows.");
        Leakage.suspect(m).ifPresent(w -> b.append('\n').append(w));
        ModelQuality.warning(m).ifPresent(w -> b.append('\n').append(w).append(" Say so in the answer; more rows"
                + " or better features (a prediction task's prediction_frames, if the knowledge graph has one) may help."));
        b.append("\nNext: predict(source=<frame with the same columns>, model=").append(m.id()).append(").");
        return b.toString();
    }

    /** The cross-validated figures for the payload: scheme, each metric's mean and sd, the baselines. */
    static Map<String, Object> crossValidation(dev.sift.ml.Evaluation e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("folds", e.folds());
        out.put("repeats", e.repeats());
        out.put("rows", e.rows());
        out.put("positives", e.positives());
        out.put("metrics", e.metrics());
        out.put("baseline", e.baseline());
        out.put("baseline_feature", e.baselineFeature());
        out.put("lift", e.lift());
        out.put("headline", e.headline());
        out.put("millis", e.millis());
        return out;
    }

    static Map<String, Object> payload(TrainedModel m) {
        TrainedModel.Provenance p = m.provenance();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", m.id());
        out.put("task", m.task().label());
        out.put("source", m.source());
        out.put("target", m.target());
        out.put("positive_class", m.positiveClass());
        out.put("entity", m.entity());
        out.put("columns", m.encoder().columns().stream().map(FeatureEncoder.ColumnPlan::describe).toList());
        out.put("features", p.features());
        out.put("dropped", m.encoder().dropped());
        out.put("params", p.params());
        out.put("seed", p.seed());
        out.put("metrics", p.metrics());
        out.put("warning", ModelQuality.warning(m).orElse(null));
        out.put("leakage_warning", Leakage.suspect(m).orElse(null));
        out.put("cross_validation", crossValidation(p.evaluation()));
        out.put("point_in_time", p.pointInTime());
        out.put("train_rows", p.trainRows());
        out.put("data_fingerprint", p.dataFingerprint());
        out.put("created_at", p.createdAt());
        out.put("train_millis", p.trainMillis());
        return out;
    }
}
