package dev.sift.ml;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Evaluation metrics. Classification: AUC (rank based, ties averaged), PR-AUC (average precision: the mean of the
 * precision at each positive, tied scores taken together), log loss (probabilities clipped to [1e-15, 1 - 1e-15]),
 * Brier score (mean squared error of the probability), accuracy and F1 of the positive class at threshold 0.5,
 * and the positive rate.
 * Regression: RMSE, MAE and R². Undefined values (AUC with one class) are NaN.
 */
public final class Metrics {
    private static final double EPS = 1e-15;

    private Metrics() { }

    /** {@code truth} is 0/1; {@code p} the predicted probability of 1. */
    public static Map<String, Double> classification(double[] truth, double[] p) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("auc", auc(truth, p));
        m.put("pr_auc", averagePrecision(truth, p));
        m.put("log_loss", logLoss(truth, p));
        m.put("brier", brier(truth, p));
        m.put("accuracy", accuracy(truth, p));
        m.put("f1", f1(truth, p));
        m.put("positive_rate", mean(truth));
        m.put("rows", (double) truth.length);
        return m;
    }

    public static Map<String, Double> regression(double[] truth, double[] pred) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("rmse", rmse(truth, pred));
        m.put("mae", mae(truth, pred));
        m.put("r2", r2(truth, pred));
        m.put("rows", (double) truth.length);
        return m;
    }

    public static double auc(double[] truth, double[] p) {
        int n = truth.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(p[a], p[b]));
        double[] rank = new double[n];
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && p[order[j + 1]] == p[order[i]]) {
                j++;
            }
            double avg = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                rank[order[k]] = avg;
            }
            i = j + 1;
        }
        double pos = 0;
        double rankSum = 0;
        for (int i = 0; i < n; i++) {
            if (truth[i] == 1) {
                pos++;
                rankSum += rank[i];
            }
        }
        double neg = n - pos;
        if (pos == 0 || neg == 0) {
            return Double.NaN;
        }
        return (rankSum - pos * (pos + 1) / 2) / (pos * neg);
    }

    /**
     * The standard error of an AUC measured on {@code positives} and {@code negatives} rows (Hanley and McNeil, 1982),
     * to tell a drop in AUC from the noise of a small sample.
     */
    public static double aucStandardError(double auc, long positives, long negatives) {
        double q1 = auc / (2 - auc);
        double q2 = 2 * auc * auc / (1 + auc);
        double v = (auc * (1 - auc) + (positives - 1) * (q1 - auc * auc) + (negatives - 1) * (q2 - auc * auc))
                / ((double) positives * negatives);
        return Math.sqrt(Math.max(0, v));
    }

    /** Average precision; NaN without positives. */
    public static double averagePrecision(double[] truth, double[] p) {
        int n = truth.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(p[b], p[a]));
        double positives = 0;
        for (double t : truth) {
            positives += t == 1 ? 1 : 0;
        }
        if (positives == 0) {
            return Double.NaN;
        }
        double ap = 0;
        int seen = 0;
        int hits = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            int tiedHits = 0;
            while (j < n && p[order[j]] == p[order[i]]) {
                tiedHits += truth[order[j]] == 1 ? 1 : 0;
                j++;
            }
            seen += j - i;
            hits += tiedHits;
            ap += tiedHits * ((double) hits / seen);
            i = j;
        }
        return ap / positives;
    }

    public static double brier(double[] truth, double[] p) {
        double s = 0;
        for (int i = 0; i < truth.length; i++) {
            s += (p[i] - truth[i]) * (p[i] - truth[i]);
        }
        return s / truth.length;
    }

    public static double logLoss(double[] truth, double[] p) {
        double s = 0;
        for (int i = 0; i < truth.length; i++) {
            double q = Math.min(1 - EPS, Math.max(EPS, p[i]));
            s -= truth[i] == 1 ? Math.log(q) : Math.log(1 - q);
        }
        return s / truth.length;
    }

    public static double accuracy(double[] truth, double[] p) {
        int ok = 0;
        for (int i = 0; i < truth.length; i++) {
            ok += ((p[i] >= 0.5 ? 1 : 0) == truth[i]) ? 1 : 0;
        }
        return (double) ok / truth.length;
    }

    /** F1 of the positive class at 0.5; 0 when there are no true positives. */
    public static double f1(double[] truth, double[] p) {
        int tp = 0;
        int fp = 0;
        int fn = 0;
        for (int i = 0; i < truth.length; i++) {
            boolean predicted = p[i] >= 0.5;
            boolean actual = truth[i] == 1;
            tp += predicted && actual ? 1 : 0;
            fp += predicted && !actual ? 1 : 0;
            fn += !predicted && actual ? 1 : 0;
        }
        return tp == 0 ? 0 : 2.0 * tp / (2.0 * tp + fp + fn);
    }

    public static double rmse(double[] truth, double[] pred) {
        double s = 0;
        for (int i = 0; i < truth.length; i++) {
            s += (truth[i] - pred[i]) * (truth[i] - pred[i]);
        }
        return Math.sqrt(s / truth.length);
    }

    public static double mae(double[] truth, double[] pred) {
        double s = 0;
        for (int i = 0; i < truth.length; i++) {
            s += Math.abs(truth[i] - pred[i]);
        }
        return s / truth.length;
    }

    public static double r2(double[] truth, double[] pred) {
        double mean = mean(truth);
        double ssRes = 0;
        double ssTot = 0;
        for (int i = 0; i < truth.length; i++) {
            ssRes += (truth[i] - pred[i]) * (truth[i] - pred[i]);
            ssTot += (truth[i] - mean) * (truth[i] - mean);
        }
        return ssTot == 0 ? Double.NaN : 1 - ssRes / ssTot;
    }

    static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.length == 0 ? Double.NaN : s / v.length;
    }

    /** Metrics as short text, e.g. {@code auc 0.812, log_loss 0.431}. */
    public static String render(Map<String, Double> m) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Double> e : m.entrySet()) {
            if (e.getKey().equals("rows")) {
                continue;
            }
            b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(fmt(e.getValue()));
        }
        return b.toString();
    }

    /** 0.1 → "0.1", 5.0 → "5": a setting as written. */
    static String trim(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }
}
