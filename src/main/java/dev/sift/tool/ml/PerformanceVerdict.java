package dev.sift.tool.ml;

import dev.sift.ml.Drift;
import dev.sift.ml.Evaluation;
import dev.sift.ml.Metrics;
import dev.sift.ml.MlData;
import dev.sift.ml.Predictions;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict of {@link MonitorPerformance} and the figures it rests on. A classifier is degrading when its AUC on
 * the newer rows is below its cross-validated AUC by more than twice the newer AUC's standard error (Hanley–McNeil),
 * so a small sample's noise is not taken for decay; a regressor when its RMSE is above the cross-validated RMSE by
 * more than twice the folds' spread. Drifted inputs are evidence, not a verdict of their own.
 */
record PerformanceVerdict(Verdict verdict, List<String> evidence) {
    /** Fewer positives or negatives than this among the newer rows: too few to judge an AUC. */
    static final int MIN_CLASS_ROWS = 2;

    enum Verdict {
        HOLDING("holding"), DEGRADING("degrading"), UNKNOWN("too few newer rows to judge");

        private final String label;

        Verdict(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /** The model's figures on {@code d} (labelled rows): AUC, Brier, mean probability and rate; or RMSE, MAE, means. */
    static MonitorPerformance.Period measure(TrainedModel m, MlData d, String label) {
        double[] p = d.rows() == 0 ? new double[0] : Predictions.predict(m, d.x(), d.rows());
        double[] y = new double[d.rows()];
        Map<String, Double> out = new LinkedHashMap<>();
        long positives = 0;
        if (m.task() == TaskType.CLASSIFICATION) {
            for (int i = 0; i < y.length; i++) {
                y[i] = m.positiveClass().equals(d.target()[i]) ? 1 : 0;
                positives += (long) y[i];
            }
            out.put("positives", (double) positives);
            out.put("auc", Metrics.auc(y, p));
            out.put("brier", Metrics.brier(y, p));
            out.put("mean_probability", mean(p));
            out.put("positive_rate", mean(y));
        } else {
            for (int i = 0; i < y.length; i++) {
                y[i] = Double.parseDouble(d.target()[i]);
            }
            out.put("rmse", Metrics.rmse(y, p));
            out.put("mae", Metrics.mae(y, p));
            out.put("mean_prediction", mean(p));
            out.put("mean_actual", mean(y));
        }
        return new MonitorPerformance.Period(label, d.rows(), positives, out);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.length == 0 ? Double.NaN : s / v.length;
    }

    /** The verdict on all newer rows ({@code all}) against the model's cross-validation, with the drift as evidence. */
    static PerformanceVerdict of(TrainedModel m, MonitorPerformance.Period all, List<Drift.ColumnDrift> drift) {
        Evaluation cv = m.provenance().evaluation();
        List<String> evidence = new ArrayList<>();
        Verdict verdict;
        if (m.task() == TaskType.CLASSIFICATION) {
            long negatives = all.rows() - all.positives();
            double auc = all.metrics().get("auc");
            double then = cv.mean("auc");
            if (all.positives() < MIN_CLASS_ROWS || negatives < MIN_CLASS_ROWS) {
                verdict = Verdict.UNKNOWN;
                evidence.add("the " + all.rows() + " newer rows hold " + all.positives() + " positive(s) and " + negatives
                        + " negative(s): an AUC needs at least " + MIN_CLASS_ROWS + " of each");
            } else {
                double se = Metrics.aucStandardError(auc, all.positives(), negatives);
                verdict = auc + 2 * se < then ? Verdict.DEGRADING : Verdict.HOLDING;
                evidence.add("AUC " + Metrics.fmt(auc) + " on the " + all.rows() + " newer rows (" + all.positives()
                        + " positives; standard error " + Metrics.fmt(se) + ") against " + Metrics.fmt(then)
                        + " cross-validated at training: " + (verdict == Verdict.DEGRADING ? "lower by more than"
                        : "within") + " twice its standard error");
            }
        } else {
            double rmse = all.metrics().get("rmse");
            double then = cv.mean("rmse");
            double spread = cv.metrics().get("rmse").sd();
            verdict = rmse > then + 2 * spread ? Verdict.DEGRADING : Verdict.HOLDING;
            evidence.add("RMSE " + Metrics.fmt(rmse) + " on the " + all.rows() + " newer rows against "
                    + Metrics.fmt(then) + " ± " + Metrics.fmt(spread) + " cross-validated at training: "
                    + (verdict == Verdict.DEGRADING ? "higher by more than" : "within") + " twice the folds' spread");
        }
        List<String> shifted = drift.stream().filter(Drift.ColumnDrift::flagged).map(Drift.ColumnDrift::column).toList();
        if (!drift.isEmpty()) {
            evidence.add(shifted.size() + " of " + drift.size() + " inputs drifted from the training rows to the newer"
                    + " ones (" + CheckDrift.RULE + ")" + (shifted.isEmpty() ? "" : ": " + String.join(", ", shifted)));
        }
        return new PerformanceVerdict(verdict, List.copyOf(evidence));
    }

    String summary(TrainedModel m, String source, String after, String period, List<MonitorPerformance.Period> periods,
                   long referenceRows) {
        StringBuilder b = new StringBuilder("Model ").append(m.id()).append(" (").append(m.target()).append(", trained on")
                .append(" rows through ").append(after).append("): ").append(verdict.label().toUpperCase(java.util.Locale.ROOT))
                .append('.');
        evidence.forEach(e -> b.append("\n- ").append(e).append('.'));
        if (referenceRows == 0) {
            b.append("\n- no labelled row of ").append(source).append(" is dated on or before ").append(after)
                    .append(", so the inputs' drift was not measured.");
        }
        b.append("\nBy ").append(period).append(" (labelled rows of ").append(source).append(" dated after ").append(after)
                .append("; saved as frame ").append(MonitorPerformance.FRAME).append("):");
        for (MonitorPerformance.Period p : periods) {
            b.append("\n").append(p.period()).append(": ").append(p.rows()).append(" rows, ");
            Map<String, Double> shown = new LinkedHashMap<>(p.metrics());
            if (shown.remove("positives") != null) {
                b.append(p.positives()).append(" positives, ");
            }
            b.append(Metrics.render(shown));
        }
        b.append("\nAt training: ").append(m.headline()).append('.');
        if (verdict == Verdict.DEGRADING) {
            b.append(" Train a new model on the labelled rows as they are now (train_model) and compare_models.");
        }
        return b.toString();
    }
}
