package dev.sift.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.Metrics;
import dev.sift.ml.MlException;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ml.TrainModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The check {@code bench run --include-predictive} adds to a predictive answer: the run's own {@code train_model}
 * call is made again, with the same arguments, on its source without a quarter of the labelled rows (chosen by a
 * hash of each row, so the same rows every time), and the model it gives ranks those held-back rows. The ranking is
 * scored against their known outcomes (AUC, and precision at k: the share of true positives among the k rows ranked
 * highest, k the number of positives), and the AUC the run reported (cross-validated) is compared with the AUC on
 * the held-back rows. An answer passes when its ranking beats chance ({@value #MIN_AUC}) and its reported AUC is
 * within {@value #MAX_GAP} of the held-back one.
 */
final class HeldBack {
    /** The held-back AUC a ranking must exceed: chance. */
    static final double MIN_AUC = 0.5;
    /** How far the reported AUC may be from the held-back AUC: about two standard errors on a few hundred rows. */
    static final double MAX_GAP = 0.1;
    /** One row in this many is held back. */
    static final int SHARE = 4;
    private static final Pattern REPORTED_AUC = Pattern.compile("AUC (\\d+(?:\\.\\d+)?)");

    /** What the check found: rows held back and their positives, the held-back AUC and precision, the reported AUC. */
    record Score(int rows, int positives, double auc, double precisionAtK, Double reportedAuc) {
        boolean passes() {
            return auc > MIN_AUC && reportedAuc != null && Math.abs(reportedAuc - auc) <= MAX_GAP;
        }

        String line() {
            return String.format(Locale.ROOT, "held back %d labelled rows (%d positive): AUC %.3f, precision@%d %.3f;"
                    + " reported AUC %s", rows, positives, auc, positives, precisionAtK,
                    reportedAuc == null ? "none" : String.format(Locale.ROOT, "%.3f", reportedAuc));
        }
    }

    private HeldBack() { }

    /** The check of {@code run}'s model on its held-back rows, or empty when the run trained no classifier. */
    static Optional<Score> of(AgentRun run, Workspace ws, ToolRegistry tools) throws QueryException, MlException,
            InterruptedException {
        Step train = run.steps().stream().filter(s -> s.outcome() == Step.Outcome.RAN && s.ok()
                && "train_model".equals(s.tool())).reduce((a, b) -> b).orElse(null);
        if (train == null) {
            return Optional.empty();
        }
        TrainModel.Args args; // bound as the run bound them: a model may have named the source 'table' or 'frame'
        try {
            args = (TrainModel.Args) tools.prepare("train_model", train.args(), ws).args();
        } catch (ToolCallException e) {
            return Optional.empty();
        }
        Optional<TableInfo> source = ws.table(args.source());
        if (source.isEmpty()) {
            return Optional.empty();
        }
        String target = Sql.quoteIdent(source.get().column(args.target()).orElseThrow().name());
        String from = source.get().sqlName();
        String held = target + " IS NOT NULL AND hash(CAST(t AS VARCHAR)) % " + SHARE + " = 0";
        ws.saveTrustedFrame("bench_train", "SELECT * FROM " + from + " t WHERE NOT (" + held + ")");
        ws.saveTrustedFrame("bench_held", "SELECT * FROM " + from + " t WHERE " + held);
        ToolContext ctx = new ToolContext(ws, null, run.question());
        ObjectNode again = (ObjectNode) train.args().deepCopy();
        again.remove(List.of("table", "frame"));
        again.put("source", "bench_train");
        String model = ran(tools.call("train_model", again, ctx)).meta().get("model").toString();
        TrainedModel m = ctx.models().resolve(model);
        if (m.positiveClass() == null) {
            return Optional.empty();
        }
        JsonNode predict = again.objectNode().put("source", "bench_held").put("model", model).put("label", "bench_scored");
        ran(tools.call("predict", predict, ctx));
        List<Object[]> rows = ws.trustedRead("SELECT CAST(" + Sql.quoteIdent(m.target()) + " AS VARCHAR), probability FROM"
                + " memory.frames.bench_scored ORDER BY probability DESC", rs -> {
                    List<Object[]> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Object[] {rs.getString(1), rs.getDouble(2)});
                    }
                    return out;
                });
        return Optional.of(score(rows, m.positiveClass(), reportedAuc(train.observation())));
    }

    /** The score of rows {truth, probability}, ranked highest first. */
    static Score score(List<Object[]> ranked, String positive, Double reported) {
        double[] truth = new double[ranked.size()];
        double[] p = new double[ranked.size()];
        int positives = 0;
        for (int i = 0; i < ranked.size(); i++) {
            truth[i] = positive.equals(ranked.get(i)[0]) ? 1 : 0;
            p[i] = (Double) ranked.get(i)[1];
            positives += (int) truth[i];
        }
        int hits = 0;
        for (int i = 0; i < positives; i++) {
            hits += (int) truth[i];
        }
        return new Score(ranked.size(), positives, Metrics.auc(truth, p), positives == 0 ? 0 : (double) hits / positives,
                reported);
    }

    /** The cross-validated AUC the run's {@code train_model} reported ("Quality: AUC 0.812 …"), or null. */
    static Double reportedAuc(String observation) {
        Matcher m = REPORTED_AUC.matcher(observation == null ? "" : observation);
        return m.find() ? Double.valueOf(m.group(1)) : null;
    }

    private static ToolResult ran(ToolRegistry.Outcome outcome) throws MlException {
        if (outcome instanceof ToolRegistry.Outcome.Ran r && r.result().ok()) {
            return r.result();
        }
        throw new MlException("the run's model could not be rebuilt without its held-back rows: "
                + (outcome instanceof ToolRegistry.Outcome.Ran r ? r.result().error() : ((ToolRegistry.Outcome.Invalid) outcome).error()));
    }
}
