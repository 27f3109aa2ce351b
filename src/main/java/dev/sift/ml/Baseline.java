package dev.sift.ml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a model must beat, scored on the same test folds as the model. For classification: the class prior
 * (every row gets the training folds' positive rate: AUC 0.5, PR-AUC the positive rate, Brier p(1 - p)) and
 * the best single feature (the encoded column whose values alone rank the training fold best, in the direction
 * that works there, then scored on the test fold; a missing value ranks lowest). For regression: the training
 * folds' mean.
 */
final class Baseline {
    private Baseline() { }

    static Map<String, Double> classification(MlData data, float[] y, CrossValidation.Fold split, List<String> names,
                                              Map<String, Integer> chosen) {
        double[] test = CrossValidation.toDouble(Trainer.pick(y, split.test()));
        double prior = Metrics.mean(CrossValidation.toDouble(Trainer.pick(y, split.train())));
        double[] constant = new double[test.length];
        java.util.Arrays.fill(constant, prior);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("prior_pr_auc", Metrics.mean(test));
        m.put("prior_brier", Metrics.brier(test, constant));
        m.put("prior_log_loss", Metrics.logLoss(test, constant));
        int[] look = split.train().length <= CrossValidation.BASELINE_ROWS ? split.train()
                : java.util.Arrays.copyOf(split.train(), CrossValidation.BASELINE_ROWS); // folds are shuffled already
        double[] lookY = CrossValidation.toDouble(Trainer.pick(y, look));
        int best = -1;
        double bestGap = -1;
        double sign = 1;
        for (int j = 0; j < data.width(); j++) {
            double auc = Metrics.auc(lookY, values(data, look, j, 1));
            if (!Double.isNaN(auc) && Math.abs(auc - 0.5) > bestGap) {
                bestGap = Math.abs(auc - 0.5);
                best = j;
                sign = auc >= 0.5 ? 1 : -1;
            }
        }
        if (best >= 0) {
            m.put("feature_auc", Metrics.auc(test, values(data, split.test(), best, sign)));
            chosen.merge(j(names, best), 1, Integer::sum);
        } else {
            m.put("feature_auc", Double.NaN);
        }
        return m;
    }

    static Map<String, Double> regression(float[] y, CrossValidation.Fold split, double[] truth) {
        double mean = Metrics.mean(CrossValidation.toDouble(Trainer.pick(y, split.train())));
        double[] constant = new double[truth.length];
        java.util.Arrays.fill(constant, mean);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("mean_rmse", Metrics.rmse(truth, constant));
        m.put("mean_mae", Metrics.mae(truth, constant));
        return m;
    }

    private static String j(List<String> names, int j) {
        return j < names.size() ? names.get(j) : "column " + j;
    }

    /** Column {@code j} of {@code rows}, times {@code sign}; missing as the lowest value. */
    private static double[] values(MlData data, int[] rows, int j, double sign) {
        double[] out = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            float v = data.x()[rows[i] * data.width() + j];
            out[i] = Float.isNaN(v) ? Double.NEGATIVE_INFINITY : sign * v;
        }
        return out;
    }
}
