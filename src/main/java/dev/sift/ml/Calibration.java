package dev.sift.ml;

import dev.sift.ml.CrossValidation.Spread;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far a classifier's probabilities can be taken at their word. The booster's raw scores are mapped to
 * probabilities by a calibrator learnt from out-of-fold scores: Platt scaling (a logistic fit of the label on the
 * score) or isotonic regression (a monotone step function), whichever has the lower log loss when each test fold is
 * calibrated by a map learnt on the other folds (isotonic only from {@value #ISOTONIC_MIN_ROWS} rows on). The figures are those of the calibrated probabilities on the test
 * folds, next to the base rate's (every row gets the training folds' positive rate): a skill score above 0 means
 * the probabilities beat the base rate. The reliability table compares, per probability bin, the mean predicted
 * probability with the share of positives observed.
 *
 * @param method          "platt" or "isotonic"
 * @param calibrator      the map applied to every prediction, learnt on all out-of-fold scores
 * @param brier           Brier score of the calibrated probabilities over the test folds
 * @param logLoss         log loss of the calibrated probabilities
 * @param rawBrier        Brier score of the booster's own probabilities on the same folds (before calibration)
 * @param rawLogLoss      log loss of the booster's own probabilities
 * @param baseBrier       the base rate's Brier score on the same folds
 * @param baseLogLoss     the base rate's log loss on the same folds
 * @param tried           mean log loss over the test folds of each method tried
 * @param reliability     the calibrated out-of-fold probabilities by bin
 */
public record Calibration(String method, Calibrator calibrator, Spread brier, Spread logLoss, Spread rawBrier,
                          Spread rawLogLoss, Spread baseBrier, Spread baseLogLoss, Map<String, Double> tried,
                          List<Bin> reliability) {
    /** Bins of the reliability table: [0, 0.1), [0.1, 0.2), … [0.9, 1]. */
    static final int BINS = 10;
    /**
     * Isotonic regression needs this many out-of-fold rows to be considered: on fewer its steps follow a handful of
     * rows (a top step of "1.00" learnt from seven loans), where Platt's two parameters cannot over-fit.
     */
    static final int ISOTONIC_MIN_ROWS = 1000;
    /** Isotonic probabilities are kept this far from 0 and 1, so one surprise does not cost an infinite log loss. */
    static final double ISOTONIC_FLOOR = 0.005;

    /** One bin of the reliability table: its range, rows, mean predicted probability and observed positive rate. */
    public record Bin(double from, double to, int rows, double predicted, double observed) { }

    /**
     * A map from the booster's margin (log-odds) to a probability: Platt, {@code 1 / (1 + exp(-(a·m + b)))}, or
     * isotonic, the value of the last knot at or below the margin ({@code knots} ascending, {@code values}
     * non-decreasing).
     */
    public record Calibrator(String method, double a, double b, double[] knots, double[] values) {
        public double apply(double margin) {
            if ("platt".equals(method)) {
                return sigmoid(a * margin + b);
            }
            int i = Arrays.binarySearch(knots, margin);
            int at = i >= 0 ? i : Math.max(0, -i - 2);
            return values[at];
        }
    }

    /** Calibrated probabilities beat the base rate on both Brier score and log loss. */
    public boolean beatsBaseRate() {
        return brier.mean() < baseBrier.mean() && logLoss.mean() < baseLogLoss.mean();
    }

    /** 1 − model / base rate: the share of the base rate's error the probabilities remove. */
    public double brierSkill() {
        return 1 - brier.mean() / baseBrier.mean();
    }

    public double logLossSkill() {
        return 1 - logLoss.mean() / baseLogLoss.mean();
    }

    /** {@code Brier 0.110 vs base rate 0.124 (skill +11%), log loss 0.380 vs 0.413 (skill +8%), Platt scaling}. */
    public String headline() {
        return "Brier " + brier.render() + " vs base rate " + Metrics.fmt(baseBrier.mean()) + " (skill "
                + pct(brierSkill()) + "), log loss " + logLoss.render() + " vs " + Metrics.fmt(baseLogLoss.mean())
                + " (skill " + pct(logLossSkill()) + "), " + ("platt".equals(method) ? "Platt scaling" : "isotonic")
                + " calibration";
    }

    /** The reliability table in one line: {@code 0.0–0.1: 120 rows, predicted 0.05, observed 0.04; …}. */
    public String reliabilityLine() {
        List<String> parts = new ArrayList<>();
        for (Bin b : reliability) {
            parts.add(String.format(java.util.Locale.ROOT, "%.1f–%.1f: %d rows, predicted %.2f, observed %.2f",
                    b.from(), b.to(), b.rows(), b.predicted(), b.observed()));
        }
        return String.join("; ", parts);
    }

    private static String pct(double v) {
        return String.format(java.util.Locale.ROOT, "%+.0f%%", 100 * v);
    }

    static double sigmoid(double z) {
        return 1 / (1 + Math.exp(-z));
    }

    /**
     * Platt scaling: the logistic regression of {@code y} on {@code margin} with Platt's smoothed targets, by
     * Newton's method with step halving (a full step can overshoot when margins are large).
     */
    static Calibrator platt(double[] margin, double[] y) {
        double pos = 0;
        for (double v : y) {
            pos += v;
        }
        double hi = (pos + 1) / (pos + 2);
        double lo = 1 / (y.length - pos + 2);
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = y[i] == 1 ? hi : lo;
        }
        double a = 1;
        double b = 0;
        double loss = plattLoss(margin, t, a, b);
        for (int iter = 0; iter < 100; iter++) {
            double ga = 0, gb = 0, haa = 1e-9, hab = 0, hbb = 1e-9;
            for (int i = 0; i < margin.length; i++) {
                double p = sigmoid(a * margin[i] + b);
                double w = p * (1 - p);
                ga += (p - t[i]) * margin[i];
                gb += p - t[i];
                haa += w * margin[i] * margin[i];
                hab += w * margin[i];
                hbb += w;
            }
            double det = haa * hbb - hab * hab;
            double da = (hbb * ga - hab * gb) / det;
            double db = (haa * gb - hab * ga) / det;
            double step = 1;
            double next = plattLoss(margin, t, a - da, b - db);
            while (next > loss && step > 1e-6) {
                step /= 2;
                next = plattLoss(margin, t, a - step * da, b - step * db);
            }
            if (next > loss) {
                break;
            }
            a -= step * da;
            b -= step * db;
            boolean done = loss - next < 1e-12 * Math.max(1, loss);
            loss = next;
            if (done) {
                break;
            }
        }
        return new Calibrator("platt", a, b, null, null);
    }

    private static double plattLoss(double[] margin, double[] t, double a, double b) {
        double s = 0;
        for (int i = 0; i < margin.length; i++) {
            double z = a * margin[i] + b;
            // log(1 + e^z) - t z, written to stay finite for large |z|
            s += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - t[i] * z;
        }
        return s;
    }

    /** Isotonic regression of {@code y} on {@code margin} by pool-adjacent-violators, kept off 0 and 1. */
    static Calibrator isotonic(double[] margin, double[] y) {
        Integer[] order = new Integer[margin.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (p, q) -> Double.compare(margin[p], margin[q]));
        List<double[]> blocks = new ArrayList<>(); // {first margin, sum of y, count}
        for (int i : order) {
            blocks.add(new double[] {margin[i], y[i], 1});
            while (blocks.size() > 1) {
                double[] last = blocks.get(blocks.size() - 1);
                double[] prev = blocks.get(blocks.size() - 2);
                if (prev[1] / prev[2] < last[1] / last[2]) {
                    break;
                }
                prev[1] += last[1];
                prev[2] += last[2];
                blocks.remove(blocks.size() - 1);
            }
        }
        double[] knots = new double[blocks.size()];
        double[] values = new double[blocks.size()];
        for (int i = 0; i < knots.length; i++) {
            knots[i] = blocks.get(i)[0]; // a margin below the first knot takes the first value
            values[i] = Math.min(1 - ISOTONIC_FLOOR, Math.max(ISOTONIC_FLOOR, blocks.get(i)[1] / blocks.get(i)[2]));
        }
        return new Calibrator("isotonic", 0, 0, knots, values);
    }

    static Calibrator fit(String method, double[] margin, double[] y) {
        return "platt".equals(method) ? platt(margin, y) : isotonic(margin, y);
    }

    /** The reliability table of probabilities {@code p} against 0/1 {@code truth}: non-empty bins of width 0.1. */
    public static List<Bin> reliability(double[] truth, double[] p) {
        int[] n = new int[BINS];
        double[] sumP = new double[BINS];
        double[] sumY = new double[BINS];
        for (int i = 0; i < p.length; i++) {
            int bin = Math.min(BINS - 1, (int) Math.floor(p[i] * BINS));
            n[bin]++;
            sumP[bin] += p[i];
            sumY[bin] += truth[i];
        }
        List<Bin> out = new ArrayList<>();
        for (int b = 0; b < BINS; b++) {
            if (n[b] > 0) {
                out.add(new Bin((double) b / BINS, (double) (b + 1) / BINS, n[b], sumP[b] / n[b], sumY[b] / n[b]));
            }
        }
        return out;
    }

    /**
     * Out-of-fold scores of one repeat of the cross-validation: each row's margin from the fold model that did not
     * see it, its label, its fold, and the base rate its training folds had.
     */
    record OutOfFold(double[] margin, double[] y, int[] fold, int folds) { }


    /**
     * Calibrates each repeat's test folds with maps learnt on its other folds, for both methods; keeps the one with
     * the lower mean log loss, and learns the final map from every out-of-fold score.
     */
    static Chosen choose(List<OutOfFold> repeats) {
        Map<String, Double> tried = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> perMethod = new LinkedHashMap<>();
        Map<String, List<double[][]>> perFold = new LinkedHashMap<>();
        boolean enough = repeats.get(0).y().length >= ISOTONIC_MIN_ROWS;
        for (String method : enough ? List.of("platt", "isotonic") : List.of("platt")) {
            Map<String, List<Double>> figures = new LinkedHashMap<>();
            List<double[][]> folds = new ArrayList<>();
            testFolds(repeats, method, figures, folds);
            perMethod.put(method, figures);
            perFold.put(method, folds);
            tried.put(method, Spread.of(figures.get("log_loss")).mean());
        }
        String method = enough && tried.get("isotonic") < tried.get("platt") ? "isotonic" : "platt";
        Map<String, List<Double>> f = perMethod.get(method);
        List<double[]> all = new ArrayList<>();
        List<double[]> labels = new ArrayList<>();
        for (OutOfFold r : repeats) {
            all.add(r.margin());
            labels.add(r.y());
        }
        Calibrator calibrator = fit(method, concat(all), concat(labels));
        List<double[][]> folds = perFold.get(method);
        double[] p = concat(folds.stream().map(x -> x[0]).toList());
        double[] truth = concat(folds.stream().map(x -> x[1]).toList());
        return new Chosen(new Calibration(method, calibrator, Spread.of(f.get("brier")), Spread.of(f.get("log_loss")),
                Spread.of(f.get("raw_brier")), Spread.of(f.get("raw_log_loss")), Spread.of(f.get("base_brier")),
                Spread.of(f.get("base_log_loss")), tried, reliability(truth, p)), folds);
    }

    /** The calibration chosen, and each test fold's {calibrated probabilities, truth} in fold order. */
    record Chosen(Calibration calibration, List<double[][]> folds) { }

    /** Each test fold calibrated by {@code method} learnt on its other folds: figures per fold, {p, truth} per fold. */
    private static void testFolds(List<OutOfFold> repeats, String method, Map<String, List<Double>> figures,
                                  List<double[][]> folds) {
        for (OutOfFold r : repeats) {
            for (int f = 0; f < r.folds(); f++) {
                int[] train = rows(r.fold(), f, false);
                int[] test = rows(r.fold(), f, true);
                Calibrator c = fit(method, pick(r.margin(), train), pick(r.y(), train));
                double[] truth = pick(r.y(), test);
                double[] p = new double[test.length];
                double[] raw = new double[test.length];
                double[] base = new double[test.length];
                Arrays.fill(base, Metrics.mean(pick(r.y(), train)));
                for (int i = 0; i < test.length; i++) {
                    p[i] = c.apply(r.margin()[test[i]]);
                    raw[i] = sigmoid(r.margin()[test[i]]);
                }
                add(figures, "brier", Metrics.brier(truth, p));
                add(figures, "log_loss", Metrics.logLoss(truth, p));
                add(figures, "raw_brier", Metrics.brier(truth, raw));
                add(figures, "raw_log_loss", Metrics.logLoss(truth, raw));
                add(figures, "base_brier", Metrics.brier(truth, base));
                add(figures, "base_log_loss", Metrics.logLoss(truth, base));
                folds.add(new double[][] {p, truth});
            }
        }
    }

    private static void add(Map<String, List<Double>> into, String key, double v) {
        into.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
    }

    private static int[] rows(int[] fold, int f, boolean in) {
        return java.util.stream.IntStream.range(0, fold.length).filter(i -> (fold[i] == f) == in).toArray();
    }

    private static double[] pick(double[] v, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = v[idx[i]];
        }
        return out;
    }

    private static double[] concat(List<double[]> parts) {
        return parts.stream().flatMapToDouble(Arrays::stream).toArray();
    }
}
