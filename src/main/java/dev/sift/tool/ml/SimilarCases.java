package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.Numbers;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.Explanations;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The k labelled cases most like one case in a model's feature space, with their outcomes ("4 of the 5 most similar
 * finished loans ended unpaid"). Each of the model's encoded features is scaled to mean 0 and standard deviation 1
 * over the labelled rows (a missing value counts as the mean); the distance is Euclidean. Saves frame
 * {@code similar_cases}.
 */
public final class SimilarCases implements Tool<SimilarCases.Args> {
    static final int DEFAULT_K = 5;
    static final int MAX_K = 50;

    public record Args(
            @Arg(value = "id of the case: its value of the model's entity column", aliases = {"id", "entity"}) String case_id,
            @Arg(value = "how many similar cases (default " + DEFAULT_K + ", at most " + MAX_K + ")", required = false,
                    aliases = {"top_k", "n"}) Integer k,
            @Arg(value = "table or frame holding the case (default: the model's training source, then its task's rows"
                    + " to score)", required = false, aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE)
            String source,
            @Arg(value = "model id (default: the latest trained or selected model)", required = false,
                    aliases = {"model_id"}) String model) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("similar_cases", "Find the past cases most like one case (most similar, closest, like"
                + " it, comparable) in a model's features, with their known outcomes and the model's score of the case."
                + " Limits: similar in the model's inputs (each scaled to unit spread), not in everything about them.",
                Args.class, "the k most similar labelled cases and their outcomes", Set.of("ml"));
    }

    @Override
    public int summaryCap() {
        return 2000;
    }

    /** One neighbour: its entity, distance and known outcome. */
    public record Neighbour(Object entity, double distance, String outcome) { }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TrainedModel m = ctx.models().resolve(args.model());
        int k = args.k() == null ? DEFAULT_K : args.k();
        if (k < 1 || k > MAX_K) {
            throw new MlException("k is " + k + ": give a number of similar cases from 1 to " + MAX_K + ".");
        }
        Workspace ws = ctx.workspace();
        TableInfo holding = CaseRows.holding(ctx, m, args.source(), args.case_id());
        MlData one = MlData.read(ws, holding, m.encoder(), m.entity(), null, CaseRows.entityIs(m, args.case_id()), false);
        TableInfo training = CaseRows.training(ctx, m);
        MlData labelled = MlData.read(ws, training, m.encoder(), m.entity(), m.target(),
                Sql.quoteIdent(m.target()) + " IS NOT NULL AND NOT (" + CaseRows.entityIs(m, args.case_id()) + ")", false);
        if (labelled.rows() == 0) {
            throw new MlException(training.name() + " has no labelled row besides case " + args.case_id() + " to compare with.");
        }
        List<Neighbour> nearest = nearest(one, labelled, k);
        double score = Predictions.predict(m, one.x(), 1)[0];
        save(ws, m, nearest);
        MlSupport.evidence(ctx, "similar_cases", "rank", nearest.size());
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("case", args.case_id());
        payload.put("score", score);
        payload.put("neighbours", nearest);
        return ToolResult.ok(summary(m, args.case_id(), training, labelled, nearest, score), payload,
                ToolResult.withCaveat(Map.of("model", m.id(), "frame", "similar_cases"), ctx.models().caveat(m)));
    }

    /** The k rows of {@code labelled} nearest to the single row of {@code one}, nearest first (ties by entity order). */
    static List<Neighbour> nearest(MlData one, MlData labelled, int k) {
        int w = labelled.width();
        double[] mean = new double[w];
        double[] sd = new double[w];
        for (int j = 0; j < w; j++) {
            double sum = 0;
            double sq = 0;
            int n = 0;
            for (int i = 0; i < labelled.rows(); i++) {
                float v = labelled.x()[i * w + j];
                if (!Float.isNaN(v)) {
                    sum += v;
                    sq += (double) v * v;
                    n++;
                }
            }
            mean[j] = n == 0 ? 0 : sum / n;
            sd[j] = n == 0 ? 0 : Math.sqrt(Math.max(0, sq / n - mean[j] * mean[j]));
        }
        double[] distance = new double[labelled.rows()];
        for (int i = 0; i < labelled.rows(); i++) {
            double d = 0;
            for (int j = 0; j < w; j++) {
                if (sd[j] > 0) {
                    double diff = scaled(one.x()[j], mean[j], sd[j]) - scaled(labelled.x()[i * w + j], mean[j], sd[j]);
                    d += diff * diff;
                }
            }
            distance[i] = Math.sqrt(d);
        }
        Integer[] order = new Integer[labelled.rows()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Double.compare(distance[a], distance[b]));
        List<Neighbour> out = new ArrayList<>();
        for (int r = 0; r < Math.min(k, order.length); r++) {
            int i = order[r];
            out.add(new Neighbour(labelled.entities().get(i), distance[i], labelled.target()[i]));
        }
        return out;
    }

    private static double scaled(float v, double mean, double sd) {
        return Float.isNaN(v) ? 0 : (v - mean) / sd;
    }

    private static void save(Workspace ws, TrainedModel m, List<Neighbour> nearest) throws FixableException {
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < nearest.size(); r++) {
            Neighbour n = nearest.get(r);
            rows.add(new Object[] {r + 1, String.valueOf(n.entity()), n.distance(), n.outcome()});
        }
        ws.writeFrame("similar_cases", List.of(new QueryResult.Column("rank", "INTEGER"),
                new QueryResult.Column(m.entity(), "VARCHAR"), new QueryResult.Column("distance", "DOUBLE"),
                new QueryResult.Column(m.target(), "VARCHAR")), rows);
    }

    private static String summary(TrainedModel m, String id, TableInfo training, MlData labelled, List<Neighbour> nearest,
                                  double score) {
        String who = Explanations.entityName(m.entity()) + " " + id.trim();
        StringBuilder s = new StringBuilder("The ").append(nearest.size()).append(" labelled cases of ")
                .append(training.name()).append(" most like ").append(who).append(" in model ").append(m.id())
                .append("'s ").append(m.encoder().columns().size()).append(" columns (each scaled to standard deviation"
                        + " 1 over the ").append(labelled.rows()).append(" labelled rows; Euclidean distance): ");
        if (m.task() == TaskType.CLASSIFICATION) {
            long positive = nearest.stream().filter(n -> m.positiveClass().equals(n.outcome())).count();
            long all = Arrays.stream(labelled.target()).filter(m.positiveClass()::equals).count();
            s.append(positive).append(" of ").append(nearest.size()).append(" have ").append(m.target()).append(" = ")
                    .append(m.positiveClass()).append(" (").append(Numbers.fixed(100.0 * all / labelled.rows(), 1))
                    .append(" % of all labelled rows do). Model ").append(m.id()).append(" gives ").append(who)
                    .append(" probability ").append(Numbers.fixed(score, 3)).append(" of ").append(m.target())
                    .append(" = ").append(m.positiveClass()).append('.');
        } else {
            double mean = nearest.stream().mapToDouble(n -> Double.parseDouble(n.outcome())).average().orElse(Double.NaN);
            s.append("their mean ").append(m.target()).append(" is ").append(Numbers.fixed(mean, 3)).append(". Model ")
                    .append(m.id()).append(" predicts ").append(Numbers.fixed(score, 3)).append(" for ").append(who).append('.');
        }
        for (int r = 0; r < nearest.size(); r++) {
            Neighbour n = nearest.get(r);
            s.append("\n").append(r + 1).append(". ").append(m.entity()).append(' ').append(n.entity()).append(": distance ")
                    .append(Numbers.fixed(n.distance(), 3)).append(", ").append(m.target()).append(" = ").append(n.outcome());
        }
        return s.append("\nSaved as frame similar_cases. Similar in the model's inputs only; what_if(case_id=")
                .append(id.trim()).append(", changes={…}) shows how a changed input moves the score.").toString();
    }
}
