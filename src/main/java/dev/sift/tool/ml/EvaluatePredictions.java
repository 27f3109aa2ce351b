package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.ml.Metrics;
import dev.sift.ml.MlException;
import dev.sift.ml.TaskType;
import dev.sift.ml.Trainer;
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
 * Metrics for a frame that has both predictions and the truth. Two truth values means classification
 * (the score column must be a probability in [0, 1]); otherwise regression.
 */
public final class EvaluatePredictions implements Tool<EvaluatePredictions.Args> {

    public record Args(
            @Arg(value = "frame or table with the predictions and the true values", aliases = {"source", "frame"},
                    kind = Arg.Kind.SOURCE) String predictions,
            @Arg(value = "column with the true values", aliases = {"target", "actual"}, kind = Arg.Kind.COLUMN) String truth,
            @Arg(value = "column with the predicted probability or value (default: probability, else prediction)",
                    required = false, aliases = {"score", "predicted"}, kind = Arg.Kind.COLUMN) String prediction,
            @Arg(value = "'classification' or 'regression' (default: classification when truth has two values)",
                    required = false, aliases = {"task"}) String task_type) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("evaluate_predictions", "Compute metrics (AUC, log loss, accuracy, F1; or RMSE, MAE, R²)"
                + " for a frame that has both predictions and true values.", Args.class, "metrics", Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TableInfo t = ctx.source(args.predictions());
        String truth = t.column(args.truth()).orElseThrow().name();
        String score = args.prediction() != null ? t.column(args.prediction()).orElseThrow().name()
                : t.column("probability").or(() -> t.column("prediction")).map(c -> c.name()).orElseThrow(() ->
                new MlException((t.kind() == TableInfo.Kind.FRAME ? "Frame " : "Table ") + t.name()
                        + " has no column 'probability' or 'prediction': name the column with the predictions"
                        + " (prediction=...). Columns: " + String.join(", ", t.columnNames()) + "."));
        if (score.equalsIgnoreCase(truth)) {
            throw new MlException("truth and prediction are the same column '" + truth + "': name two columns.");
        }
        List<String[]> rows = ctx.workspace().trustedRead("SELECT CAST(" + Sql.quoteIdent(truth) + " AS VARCHAR), CAST("
                + Sql.quoteIdent(score) + " AS VARCHAR) FROM " + t.sqlName() + " WHERE " + Sql.quoteIdent(truth)
                + " IS NOT NULL AND " + Sql.quoteIdent(score) + " IS NOT NULL", rs -> {
                    List<String[]> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new String[] {rs.getString(1), rs.getString(2)});
                    }
                    return out;
                });
        if (rows.isEmpty()) {
            throw new MlException("No row of " + t.name() + " has both " + truth + " and " + score + ": nothing to evaluate.");
        }
        String[] truthRaw = rows.stream().map(r -> r[0]).toArray(String[]::new);
        long distinct = java.util.Arrays.stream(truthRaw).distinct().count();
        TaskType task = args.task_type() != null ? TaskType.parse(args.task_type())
                : distinct == 2 ? TaskType.CLASSIFICATION : TaskType.REGRESSION;
        Map<String, Double> m;
        String note = "";
        if (task == TaskType.CLASSIFICATION) {
            Trainer.Labels labels = Trainer.classLabels(truth, truthRaw);
            double[] y = new double[rows.size()];
            double[] p = new double[rows.size()];
            for (int i = 0; i < y.length; i++) {
                y[i] = labels.y()[i];
                p[i] = probability(rows.get(i)[1], labels.positive(), score);
            }
            m = Metrics.classification(y, p);
            note = " (positive class " + truth + " = " + labels.positive() + ")";
        } else {
            double[] y = new double[rows.size()];
            double[] p = new double[rows.size()];
            for (int i = 0; i < y.length; i++) {
                y[i] = number(rows.get(i)[0], truth);
                p[i] = number(rows.get(i)[1], score);
            }
            m = Metrics.regression(y, p);
        }
        String summary = "Evaluated " + rows.size() + " rows of " + t.name() + ": " + task.label() + " of " + truth
                + note + " scored by " + score + ": " + Metrics.render(m) + ".";
        return ToolResult.ok(summary, m);
    }

    private static double probability(String v, String positive, String column) throws MlException {
        try {
            double p = Double.parseDouble(v);
            if (p < 0 || p > 1) {
                throw new MlException("Column " + column + " has the value " + v + ", not a probability in [0, 1]:"
                        + " name the probability column, or use task_type 'regression'.");
            }
            return p;
        } catch (NumberFormatException e) {
            return v.equals(positive) ? 1 : 0; // a predicted class label
        }
    }

    private static double number(String v, String column) throws MlException {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new MlException("Column " + column + " has the non-numeric value '" + v + "': regression metrics need"
                    + " numbers. Use task_type 'classification' for two classes.");
        }
    }
}
