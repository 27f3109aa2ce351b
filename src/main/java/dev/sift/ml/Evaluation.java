package dev.sift.ml;

import dev.sift.ml.CrossValidation.Spread;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A model's cross-validated quality ({@link CrossValidation}): each metric's mean ± standard deviation over
 * {@code folds} × {@code repeats} test folds, and the baselines on the same folds.
 *
 * @param folds           k of the k-fold split
 * @param repeats         how many times the k folds were drawn anew (more than 1 when positives are few)
 * @param rows            labelled rows cross-validated (a stratified sample when {@code labelledRows} is larger)
 * @param labelledRows    labelled rows the final model trained on
 * @param positives       positive rows among {@code rows} (0 for regression)
 * @param metrics         the model's metrics: auc, pr_auc, log_loss, brier, accuracy, f1, positive_rate, rows
 *                        (classification); rmse, mae, r2, rows (regression)
 * @param baseline        prior_pr_auc, prior_brier and feature_auc (the best single feature) for classification;
 *                        mean_rmse and mean_mae (predicting the mean) for regression
 * @param baselineFeature the feature most often chosen as the single-feature baseline (null for regression)
 * @param millis          what the cross-validation cost, in milliseconds
 * @param capacity        the booster's capacity and how it was chosen ({@link CapacitySearch}); null on older cards
 * @param calibration     how the classifier's probabilities were calibrated and how they score against the base
 *                        rate ({@link Calibration}); null for regression and on older cards
 */
public record Evaluation(int folds, int repeats, int rows, int labelledRows, int positives, Map<String, Spread> metrics,
                         Map<String, Spread> baseline, String baselineFeature, long millis,
                         CapacitySearch.Capacity capacity, Calibration calibration) {

    /** This evaluation with the capacity search that chose the model's settings. */
    Evaluation withCapacity(CapacitySearch.Capacity c) {
        return new Evaluation(folds, repeats, rows, labelledRows, positives, metrics, baseline, baselineFeature, millis,
                c, calibration);
    }

    public boolean classification() {
        return metrics.containsKey("auc");
    }

    /** Each metric's mean (the figures a single number stands for). */
    public Map<String, Double> means() {
        Map<String, Double> out = new LinkedHashMap<>();
        metrics.forEach((k, v) -> out.put(k, v.mean()));
        return out;
    }

    public double mean(String metric) {
        Spread s = metrics.get(metric);
        return s == null ? Double.NaN : s.mean();
    }

    public double baselineMean(String metric) {
        Spread s = baseline.get(metric);
        return s == null ? Double.NaN : s.mean();
    }

    /** "5 folds" or "5 folds × 3 repeats", with the sample when one was used. */
    public String scheme() {
        return folds + " folds" + (repeats > 1 ? " × " + repeats + " repeats" : "") + (rows < labelledRows
                ? " on a stratified sample of " + String.format(java.util.Locale.ROOT, "%,d", rows) + " of "
                + String.format(java.util.Locale.ROOT, "%,d", labelledRows) + " rows" : "");
    }

    /**
     * The line an answer cites, e.g. {@code AUC 0.740 ± 0.050 over 5 folds (33 positives), baseline 0.610
     * (amount alone)} or {@code RMSE 12.3 ± 1.1 over 5 folds, baseline 20.5 (the mean)}.
     */
    public String headline() {
        if (classification()) {
            return "AUC " + metrics.get("auc").render() + " over " + scheme() + " (" + positives + " positive"
                    + (positives == 1 ? "" : "s") + "), baseline " + Metrics.fmt(baselineMean("feature_auc"))
                    + (baselineFeature == null ? "" : " (" + baselineFeature + " alone)");
        }
        return "RMSE " + metrics.get("rmse").render() + " over " + scheme() + ", baseline "
                + Metrics.fmt(baselineMean("mean_rmse")) + " (predicting the mean)";
    }

    /** The model's AUC minus the single-feature baseline's (classification), or the RMSE it saves (regression). */
    public double lift() {
        return classification() ? mean("auc") - baselineMean("feature_auc")
                : baselineMean("mean_rmse") - mean("rmse");
    }

    /** All figures, one line each, for an observation. */
    public String render() {
        StringBuilder b = new StringBuilder("Cross-validated (").append(scheme()).append("): ");
        String sep = "";
        for (Map.Entry<String, Spread> e : metrics.entrySet()) {
            if (e.getKey().equals("rows") || e.getKey().equals("positive_rate")) {
                continue;
            }
            b.append(sep).append(e.getKey()).append(' ').append(e.getValue().render());
            sep = ", ";
        }
        if (classification()) {
            b.append("; ").append(positives).append(" positives in ").append(rows).append(" rows.\nBaseline on the same")
                    .append(" folds: class prior (AUC 0.500, pr_auc ").append(Metrics.fmt(baselineMean("prior_pr_auc")))
                    .append(", brier ").append(Metrics.fmt(baselineMean("prior_brier"))).append("); best single feature")
                    .append(baselineFeature == null ? "" : " (" + baselineFeature + ")").append(" AUC ")
                    .append(baseline.get("feature_auc").render()).append(". Lift: AUC ")
                    .append(String.format(java.util.Locale.ROOT, "%+.3f", lift())).append(" over the single feature, pr_auc ")
                    .append(String.format(java.util.Locale.ROOT, "%.1fx", mean("pr_auc") / baselineMean("prior_pr_auc")))
                    .append(" the prior.");
            if (calibration != null) {
                b.append('\n').append(calibrationLine());
            }
        } else {
            b.append(".\nBaseline on the same folds: predicting the mean, rmse ")
                    .append(baseline.get("mean_rmse").render()).append(". Lift: RMSE lower by ")
                    .append(Metrics.fmt(lift())).append('.');
        }
        if (capacity != null) {
            b.append("\nCapacity: ").append(capacity.render()).append('.');
        }
        return b.toString();
    }

    /**
     * {@code Calibration: Brier … vs base rate … (skill …), …; reliability …}, or, when the probabilities do not
     * beat the base rate, a line that says so and asks for a ranking.
     */
    public String calibrationLine() {
        String head = "Calibration: " + calibration.headline() + " (probabilities "
                + (calibration.beatsBaseRate() ? "beat the base rate" : "do NOT beat the base rate: read the scores as a"
                + " ranking of risk, not as probabilities") + ").";
        return head + "\nReliability (out-of-fold, by predicted probability): " + calibration.reliabilityLine() + ".";
    }
}
