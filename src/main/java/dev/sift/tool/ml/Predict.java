package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.data.Numbers;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scores a table or frame with a trained model: its columns are aligned to the model's (missing ones are
 * an error naming them; the target column, if present, is ignored), predictions are saved as a frame
 * (entity, prediction, probability) and the observation shows the top rows by predicted risk.
 */
public final class Predict implements Tool<Predict.Args> {
    static final String DEFAULT_LABEL = "predictions";
    static final int DEFAULT_TOP = 10;

    public record Args(
            @Arg(value = "table or frame to score; needs the model's feature columns (same names)",
                    aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "model id (default: the latest trained or selected model)", required = false,
                    aliases = {"model_id"}) String model,
            @Arg(value = "save predictions as frame frames.<label> (default 'predictions')", required = false,
                    aliases = {"save_as", "name"}) String label,
            @Arg(value = "how many top rows to show (default 10, at most 50)", required = false, aliases = {"top", "k"})
            Integer top_k) {
        public Args {
            if (top_k != null && (top_k < 1 || top_k > 50)) {
                throw new IllegalArgumentException("top_k must be between 1 and 50, got " + top_k + ".");
            }
        }
    }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("predict", "Score the rows of a table or frame with a trained model; saves a frame of"
                + " (entity, prediction, probability) and shows the highest-risk rows.", Args.class,
                "top predictions", Set.of("ml", "predictive"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        Workspace ws = ctx.workspace();
        TableInfo table = ctx.source(args.source());
        String label = args.label() == null ? DEFAULT_LABEL : args.label();
        int top = args.top_k() == null ? DEFAULT_TOP : args.top_k();
        TrainedModel model = ctx.models().resolve(args.model());
        List<String> missing = model.encoder().missingIn(table);
        if (!missing.isEmpty()) {
            throw new MlException(misaligned(table, model, missing));
        }
        List<String> mistyped = model.encoder().mismatchedIn(table);
        if (!mistyped.isEmpty()) {
            throw new MlException(mistyped(table, model, mistyped));
        }
        String entity = model.entity() != null && table.column(model.entity()).isPresent() ? model.entity() : null;
        String target = table.column(model.target()).map(c -> c.name()).orElse(null);
        MlData data = MlData.read(ws, table, model.encoder(), entity, target, null, true);
        if (data.rows() == 0) {
            throw new MlException((table.kind() == TableInfo.Kind.FRAME ? "Frame " : "Table ") + table.name()
                    + " has no rows to score.");
        }
        Predictions p = Predictions.score(model, data, label);
        boolean withTruth = target != null && java.util.Arrays.stream(data.target()).anyMatch(v -> v != null);
        saveFrame(ws, label, model, entity, p, withTruth);
        ctx.models().putPredictions(p);
        String order = model.task() == TaskType.CLASSIFICATION ? "probability DESC" : "prediction DESC";
        QueryResult shown = MlSupport.evidence(ctx, label, order + ", " + Sql.quoteIdent(entityColumn(entity)), top);
        java.util.Optional<String> caveat = ctx.models().caveat(model);
        return ToolResult.ok(summary(model, table, label, p, shown, withTruth, target, caveat), shown,
                ToolResult.withCaveat(Map.of("model", model.id(), "rows", data.rows(), "frame", label), caveat));
    }

    static String misaligned(TableInfo table, TrainedModel model, List<String> missing) {
        String kind = table.kind() == TableInfo.Kind.FRAME ? "Frame " : "Table ";
        return kind + table.name() + " lacks " + (missing.size() == 1 ? "the column " : "the columns ")
                + String.join(", ", missing) + " that model " + model.id() + " was trained on (from " + model.source()
                + ": " + String.join(", ", model.encoder().columnNames()) + "). " + kind + table.name() + " has: "
                + String.join(", ", table.columnNames()) + ". Build it with the same column names (e.g. the training"
                + " SQL with a different filter) and predict again.";
    }

    /** The refusal for a source whose columns have other kinds of type than the model's card. */
    static String mistyped(TableInfo table, TrainedModel model, List<String> mistyped) {
        String kind = table.kind() == TableInfo.Kind.FRAME ? "Frame " : "Table ";
        return kind + table.name() + " does not match model " + model.id() + ": " + String.join("; ", mistyped)
                + ". Cast the column" + (mistyped.size() == 1 ? "" : "s") + " in SQL to the type the model was trained on"
                + " (e.g. CAST(x AS DOUBLE) AS x) and predict again.";
    }

    static String entityColumn(String entity) {
        return entity == null ? "row" : entity;
    }

    private static void saveFrame(Workspace ws, String label, TrainedModel model, String entity, Predictions p,
                                  boolean withTruth) throws FixableException {
        MlData d = p.data();
        boolean numericEntity = entity == null || d.entities().numeric();
        boolean classify = model.task() == TaskType.CLASSIFICATION;
        List<QueryResult.Column> cols = new ArrayList<>();
        cols.add(new QueryResult.Column(entityColumn(entity), numericEntity ? "BIGINT" : "VARCHAR"));
        cols.add(new QueryResult.Column("prediction", classify ? "VARCHAR" : "DOUBLE"));
        if (classify) {
            cols.add(new QueryResult.Column("probability", "DOUBLE"));
        }
        if (withTruth) {
            cols.add(new QueryResult.Column(model.target(), "VARCHAR"));
        }
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < d.rows(); i++) {
            List<Object> row = new ArrayList<>();
            row.add(entity == null ? (Object) (long) (i + 1) : d.entities().get(i));
            double v = p.values()[i];
            if (classify) {
                row.add(v >= 0.5 ? model.positiveClass() : model.negativeClass());
                row.add(v);
            } else {
                row.add(v);
            }
            if (withTruth) {
                row.add(d.target()[i]);
            }
            rows.add(row.toArray());
        }
        ws.writeFrame(label, cols, rows);
    }

    private static String summary(TrainedModel m, TableInfo table, String label, Predictions p, QueryResult shown,
                                  boolean withTruth, String target, java.util.Optional<String> caveat) {
        boolean classify = m.task() == TaskType.CLASSIFICATION;
        StringBuilder b = new StringBuilder("Scored ").append(p.data().rows()).append(" rows of ").append(table.name())
                .append(" with model ").append(m.id());
        if (classify) {
            long high = java.util.Arrays.stream(p.values()).filter(v -> v >= 0.5).count();
            b.append(" (probability of ").append(m.target()).append(" = ").append(m.positiveClass()).append("; ")
                    .append(high).append(" at 0.5 or above)");
        }
        b.append("; saved as frame frames.").append(label).append('.');
        if (target != null && !withTruth) {
            b.append(" Column ").append(target).append(" is empty here and was ignored.");
        }
        b.append("\nTop ").append(shown.rows().size()).append(" by ").append(classify ? "probability" : "prediction")
                .append(" (").append(String.join(" | ", shown.columnNames())).append("):");
        for (List<Object> row : shown.rows()) {
            b.append('\n');
            for (int i = 0; i < row.size(); i++) {
                Object v = row.get(i);
                b.append(i == 0 ? "" : " | ").append(v instanceof Double d ? Numbers.fixed(d, 3) : String.valueOf(v));
            }
        }
        if (withTruth) {
            b.append("\nThe frame has known values of ").append(target).append(": evaluate_predictions(predictions=")
                    .append(label).append(", truth=").append(target).append(") gives metrics.");
        }
        caveat.ifPresent(w -> b.append('\n').append(w));
        b.append("\nNext: explain_prediction(model=").append(m.id()).append(") explains the top cases.");
        return b.toString();
    }
}
