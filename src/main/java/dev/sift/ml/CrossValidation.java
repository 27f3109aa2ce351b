package dev.sift.ml;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Stratified k-fold cross-validation of the model Sift is about to train, next to baselines, so a model's quality
 * is a mean ± spread over every labelled row rather than one small split. Folds are drawn per class from a seeded
 * shuffle ({@value #FOLDS} by default, fewer when a class has fewer rows); with fewer than
 * {@value #FEW_POSITIVES} positives the whole procedure is repeated {@value #REPEATS} times on new folds. Above
 * {@value #MAX_ROWS} labelled rows the folds are drawn from a stratified sample of that many rows, which keeps the
 * cost near one training run while the metrics' standard error stays far below their spread.
 *
 * <p>Baselines, computed on the same folds: the class prior (AUC 0.5, PR-AUC = the positive rate, Brier
 * p(1 - p)) and the best single feature (chosen by AUC on each training fold, scored on its test fold); for
 * regression, predicting the training folds' mean.
 */
public final class CrossValidation {
    public static final int FOLDS = 5;
    public static final int FEW_POSITIVES = 50;
    public static final int REPEATS = 3;
    public static final int MAX_ROWS = 200_000;
    /** Rows of a training fold looked at to choose the single-feature baseline. */
    static final int BASELINE_ROWS = 20_000;

    private CrossValidation() { }

    /** A metric over the folds: mean and sample standard deviation. */
    public record Spread(double mean, double sd) {
        static Spread of(List<Double> values) {
            double mean = 0;
            int n = 0;
            for (double v : values) {
                if (!Double.isNaN(v)) {
                    mean += v;
                    n++;
                }
            }
            if (n == 0) {
                return new Spread(Double.NaN, Double.NaN);
            }
            mean /= n;
            double ss = 0;
            for (double v : values) {
                if (!Double.isNaN(v)) {
                    ss += (v - mean) * (v - mean);
                }
            }
            return new Spread(mean, n < 2 ? 0 : Math.sqrt(ss / (n - 1)));
        }

        /** {@code 0.740 ± 0.050}. */
        public String render() {
            return Metrics.fmt(mean) + " ± " + Metrics.fmt(sd);
        }
    }

    /** How a model was trained: booster parameters (nthread included) and rounds. */
    record Setup(Map<String, Object> params, int rounds, long seed, boolean classify) { }

    /** Assigns each row a fold in 0..k-1: per class (or overall) a seeded shuffle dealt out round-robin. */
    public static int[] folds(float[] y, boolean stratify, int k, long seed) {
        Map<Float, List<Integer>> groups = new TreeMap<>();
        for (int i = 0; i < y.length; i++) {
            groups.computeIfAbsent(stratify ? y[i] : 0f, v -> new ArrayList<>()).add(i);
        }
        Random random = new Random(seed);
        int[] fold = new int[y.length];
        int next = 0;
        for (List<Integer> g : groups.values()) {
            Collections.shuffle(g, random);
            for (int i : g) {
                fold[i] = next++ % k;
            }
        }
        return fold;
    }

    /** The number of folds for these labels: {@value #FOLDS}, or the smaller class's size when that is smaller. */
    static int foldCount(float[] y, boolean classify) {
        if (!classify) {
            return Math.max(2, Math.min(FOLDS, y.length / 2));
        }
        int pos = positives(y);
        return Math.max(2, Math.min(FOLDS, Math.min(pos, y.length - pos)));
    }

    static int positives(float[] y) {
        int pos = 0;
        for (float v : y) {
            pos += v == 1f ? 1 : 0;
        }
        return pos;
    }

    /** The evaluation, and the booster of each fold of the first repeat (to check explanations against). */
    record Result(Evaluation evaluation, List<byte[]> foldModels) { }

    /**
     * Cross-validates {@code setup} on {@code d} with labels {@code y}; {@code names} are the encoded columns. A
     * classifier's probabilities are calibrated ({@link Calibration}) and its metrics are those of the calibrated
     * probabilities, each test fold calibrated by a map learnt on the other folds.
     */
    static Result run(MlData d, float[] y, Setup setup, List<String> names) throws XGBoostError {
        long start = System.nanoTime();
        int all = y.length;
        int[] rows = sample(y, setup.classify(), setup.seed());
        MlData data = rows == null ? d : d.subset(rows);
        float[] labels = rows == null ? y : Trainer.pick(y, rows);
        int k = foldCount(labels, setup.classify());
        int positives = setup.classify() ? positives(labels) : 0;
        int repeats = setup.classify() && positives < FEW_POSITIVES ? REPEATS : 1;
        Map<String, List<Double>> model = new LinkedHashMap<>();
        Map<String, List<Double>> base = new LinkedHashMap<>();
        Map<String, Integer> chosen = new TreeMap<>();
        List<Calibration.OutOfFold> oof = new ArrayList<>();
        List<byte[]> foldModels = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            int[] fold = folds(labels, setup.classify(), k, setup.seed() + r);
            double[] margins = new double[labels.length];
            for (int f = 0; f < k; f++) {
                Fold split = Fold.of(fold, f);
                double[] truth = toDouble(Trainer.pick(labels, split.test()));
                double[] m = fit(data, labels, split, setup, r == 0 ? foldModels : null);
                for (int i = 0; i < m.length; i++) {
                    margins[split.test()[i]] = m[i];
                }
                if (!setup.classify()) {
                    add(model, Metrics.regression(truth, m));
                }
                add(base, setup.classify() ? Baseline.classification(data, labels, split, names, chosen)
                        : Baseline.regression(labels, split, truth));
            }
            oof.add(new Calibration.OutOfFold(margins, toDouble(labels), fold, k));
        }
        Calibration calibration = null;
        if (setup.classify()) {
            Calibration.Chosen c = Calibration.choose(oof);
            calibration = c.calibration();
            c.folds().forEach(f -> add(model, Metrics.classification(f[1], f[0])));
        }
        String feature = chosen.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(null);
        Evaluation e = new Evaluation(k, repeats, labels.length, all, positives, spreads(model), spreads(base), feature,
                (System.nanoTime() - start) / 1_000_000, null, calibration);
        return new Result(e, foldModels);
    }

    /** Row indices of a stratified sample of {@value #MAX_ROWS} rows, or null when all rows are used. */
    private static int[] sample(float[] y, boolean classify, long seed) {
        if (y.length <= MAX_ROWS) {
            return null;
        }
        int[] held = Trainer.heldOut(y, classify, (double) MAX_ROWS / y.length, seed);
        return held;
    }

    /** One fold's booster scores its test rows: margins (log-odds) for a classifier; kept in {@code keep} when given. */
    private static double[] fit(MlData data, float[] y, Fold split, Setup setup, List<byte[]> keep) throws XGBoostError {
        MlData train = data.subset(split.train());
        MlData test = data.subset(split.test());
        DMatrix dtrain = null;
        DMatrix dtest = null;
        Booster booster = null;
        try {
            dtrain = new DMatrix(train.x(), train.rows(), data.width(), Float.NaN);
            dtrain.setLabel(Trainer.pick(y, split.train()));
            booster = XGBoost.train(dtrain, setup.params(), setup.rounds(), Map.of(), null, null);
            dtest = new DMatrix(test.x(), test.rows(), data.width(), Float.NaN);
            if (keep != null) {
                keep.add(booster.toByteArray());
            }
            return Trainer.column(booster.predict(dtest, setup.classify()));
        } finally {
            Trainer.dispose(dtrain, dtest, booster);
        }
    }

    static double[] toDouble(float[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }

    private static void add(Map<String, List<Double>> into, Map<String, Double> fold) {
        fold.forEach((key, v) -> into.computeIfAbsent(key, x -> new ArrayList<>()).add(v));
    }

    private static Map<String, Spread> spreads(Map<String, List<Double>> values) {
        Map<String, Spread> out = new LinkedHashMap<>();
        values.forEach((key, v) -> out.put(key, Spread.of(v)));
        return out;
    }

    /** One fold's training and test row indices. */
    record Fold(int[] train, int[] test) {
        static Fold of(int[] fold, int f) {
            int n = 0;
            for (int v : fold) {
                n += v == f ? 1 : 0;
            }
            int[] test = new int[n];
            int[] train = new int[fold.length - n];
            int ti = 0;
            int tr = 0;
            for (int i = 0; i < fold.length; i++) {
                if (fold[i] == f) {
                    test[ti++] = i;
                } else {
                    train[tr++] = i;
                }
            }
            return new Fold(train, test);
        }
    }
}
