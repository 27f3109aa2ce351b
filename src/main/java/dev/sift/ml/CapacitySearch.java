package dev.sift.ml;

import dev.sift.ml.CrossValidation.Spread;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses how much the booster may learn from the data it has: a small fixed list of candidates, simplest first
 * (tree depth, minimum child weight, L2 regularisation), each trained on seeded inner folds with the number of
 * rounds found by early stopping on the folds' mean validation loss (log loss, or RMSE). The simplest candidate
 * whose loss is within the folds' spread (one standard deviation of the best candidate's per-fold loss) of the best
 * is kept: with few rows a deeper model that wins by noise is not worth its variance. The search runs on its own
 * folds (another seed than the cross-validation that reports the model), on a stratified sample of at most
 * {@value #MAX_ROWS} rows, so it costs about as much as that cross-validation. On more rows than that sample, each
 * candidate may grow at most {@value #LARGE_LEVELS} tree levels (rounds × depth: 200 rounds of depth 2, 133 of depth 3,
 * 100 of depth 4, what one training cost before the search), since the final model's training time grows with the rows
 * and the rounds: uncapped, depth 2 kept improving to about 295 rounds on a 1M-row table and the final training took
 * ten times as long, for a log loss 0.003 better. The choice among the capped candidates is made on validation as usual.
 */
public final class CapacitySearch {
    public static final int MAX_ROUNDS = 300;
    /** Rounds without improvement of the mean validation loss before a candidate stops. */
    public static final int PATIENCE = 20;
    public static final int MAX_ROWS = 20_000;
    /** The most tree levels (rounds × depth) a candidate may grow when the data is larger than the search's sample. */
    public static final int LARGE_LEVELS = 400;
    static final long SEED_OFFSET = 1000;
    /** Parameters that, when the caller sets one, mean the caller chose the capacity: no search runs. */
    static final List<String> CAPACITY_PARAMS = List.of("max_depth", "min_child_weight", "lambda", "alpha", "gamma",
            "num_round", "n_estimators");

    static final String SIMPLEST = "the simplest within the folds' spread of the best";
    static final String CAPPED = SIMPLEST + ", each candidate at most " + LARGE_LEVELS + " tree levels (rounds × depth)"
            + " since the final model trains on more rows than the search's sample";

    private CapacitySearch() { }

    /** A candidate's capacity settings and what the inner folds made of it. */
    public record Candidate(String name, int maxDepth, double minChildWeight, double lambda, int rounds, Spread loss) { }

    /**
     * What the search chose ({@code chosen} is a candidate's name, or "set by the caller"), the booster parameters
     * and rounds it gives, every candidate tried, and what the search cost.
     */
    public record Capacity(String chosen, int maxDepth, double minChildWeight, double lambda, int rounds,
                           String metric, List<Candidate> tried, long millis, String rule) {
        /** The rule of a capacity read from a model card written before the rule was recorded. */
        public Capacity {
            rule = rule == null ? SIMPLEST : rule;
        }

        /** {@code depth 2, min_child_weight 1, lambda 1, 63 rounds (chosen by inner 5-fold CV among …)}. */
        public String render() {
            String settings = "max_depth " + maxDepth + ", min_child_weight " + Metrics.trim(minChildWeight) + ", lambda "
                    + Metrics.trim(lambda) + ", " + rounds + " rounds";
            if (tried.isEmpty()) {
                return settings + " (" + chosen + ")";
            }
            List<String> each = new ArrayList<>();
            for (Candidate c : tried) {
                each.add(c.name() + " " + c.loss().render() + " at " + c.rounds() + " rounds");
            }
            return settings + " — chosen by inner cross-validation (" + metric + ": " + String.join("; ", each)
                    + "), " + rule;
        }
    }

    /** The fixed candidates, simplest first; {@code small} data may split on lighter leaves with the deepest one. */
    static List<Candidate> candidates(boolean small) {
        return List.of(new Candidate("depth 2", 2, 1, 1, 0, null),
                new Candidate("depth 3, lambda 5", 3, 1, 5, 0, null),
                new Candidate("depth 4", 4, small ? Trainer.SMALL_MIN_CHILD_WEIGHT : 1, 1, 0, null));
    }

    /** The caller's own capacity, when {@code overrides} names one of {@link #CAPACITY_PARAMS}. */
    static boolean callerChose(Map<String, Object> overrides) {
        return overrides.keySet().stream().anyMatch(k -> CAPACITY_PARAMS.contains(k.toLowerCase(java.util.Locale.ROOT)));
    }

    static Capacity fixed(Map<String, Object> params, int rounds) {
        return new Capacity("set by the caller", ((Number) params.get("max_depth")).intValue(),
                ((Number) params.get("min_child_weight")).doubleValue(),
                ((Number) params.getOrDefault("lambda", 1)).doubleValue(), rounds, null, List.of(), 0, SIMPLEST);
    }

    /** Runs the search on {@code d} with labels {@code y}; {@code params} are the base booster parameters. */
    static Capacity run(MlData d, float[] y, Map<String, Object> params, boolean classify, long seed) throws XGBoostError {
        long start = System.nanoTime();
        int[] sample = y.length <= MAX_ROWS ? null : Trainer.heldOut(y, classify, (double) MAX_ROWS / y.length, seed);
        MlData data = sample == null ? d : d.subset(sample);
        float[] labels = sample == null ? y : Trainer.pick(y, sample);
        int k = CrossValidation.foldCount(labels, classify);
        int[] fold = CrossValidation.folds(labels, classify, k, seed + SEED_OFFSET);
        List<Candidate> tried = new ArrayList<>();
        for (Candidate c : candidates(y.length < Trainer.SMALL_DATA)) {
            Map<String, Object> p = new LinkedHashMap<>(params);
            p.put("max_depth", c.maxDepth());
            p.put("min_child_weight", c.minChildWeight());
            p.put("lambda", c.lambda());
            int maxRounds = sample == null ? MAX_ROUNDS : Math.min(MAX_ROUNDS, LARGE_LEVELS / c.maxDepth());
            double[][] curves = curves(data, labels, fold, k, p, maxRounds);
            int best = bestRound(curves);
            List<Double> atBest = new ArrayList<>();
            for (double[] curve : curves) {
                atBest.add(curve[best]);
            }
            tried.add(new Candidate(c.name(), c.maxDepth(), c.minChildWeight(), c.lambda(), best + 1, Spread.of(atBest)));
        }
        Candidate chosen = choose(tried);
        return new Capacity(chosen.name(), chosen.maxDepth(), chosen.minChildWeight(), chosen.lambda(), chosen.rounds(),
                "inner " + k + "-fold " + (classify ? "log loss" : "RMSE"), tried, (System.nanoTime() - start) / 1_000_000,
                sample == null ? SIMPLEST : CAPPED);
    }

    /** The simplest candidate whose mean loss is within one standard deviation (the best one's) of the best. */
    static Candidate choose(List<Candidate> tried) {
        Candidate best = tried.get(0);
        for (Candidate c : tried) {
            if (c.loss().mean() < best.loss().mean()) {
                best = c;
            }
        }
        double bar = best.loss().mean() + best.loss().sd();
        for (Candidate c : tried) {
            if (c.loss().mean() <= bar) {
                return c;
            }
        }
        return best;
    }

    /** The round (0-based) with the lowest mean validation loss over the folds. */
    static int bestRound(double[][] curves) {
        int rounds = curves[0].length;
        int best = 0;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (int r = 0; r < rounds; r++) {
            double s = 0;
            for (double[] c : curves) {
                s += c[r];
            }
            if (s < bestLoss) {
                bestLoss = s;
                best = r;
            }
        }
        return best;
    }

    /**
     * Validation loss per fold and round: the folds' boosters grow in step, one round at a time, until the mean
     * loss has not improved for {@value #PATIENCE} rounds or {@code maxRounds} are reached.
     */
    private static double[][] curves(MlData data, float[] y, int[] fold, int k, Map<String, Object> params,
                                     int maxRounds) throws XGBoostError {
        DMatrix[] train = new DMatrix[k];
        DMatrix[] test = new DMatrix[k];
        Booster[] boosters = new Booster[k];
        List<double[]> rows = new ArrayList<>();
        try {
            for (int f = 0; f < k; f++) {
                CrossValidation.Fold split = CrossValidation.Fold.of(fold, f);
                train[f] = matrix(data, y, split.train());
                test[f] = matrix(data, y, split.test());
                boosters[f] = XGBoost.train(train[f], params, 0, Map.of(), null, null);
            }
            double best = Double.POSITIVE_INFINITY;
            int since = 0;
            for (int round = 0; round < maxRounds && since < PATIENCE; round++) {
                double[] losses = new double[k];
                double mean = 0;
                for (int f = 0; f < k; f++) {
                    boosters[f].update(train[f], round);
                    losses[f] = loss(boosters[f].evalSet(new DMatrix[] {test[f]}, new String[] {"v"}, round));
                    mean += losses[f] / k;
                }
                rows.add(losses);
                since = mean < best - 1e-6 ? 0 : since + 1;
                best = Math.min(best, mean);
            }
        } finally {
            Trainer.dispose((Object[]) train);
            Trainer.dispose((Object[]) test);
            Trainer.dispose((Object[]) boosters);
        }
        double[][] curves = new double[k][rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            for (int f = 0; f < k; f++) {
                curves[f][r] = rows.get(r)[f];
            }
        }
        return curves;
    }

    private static DMatrix matrix(MlData data, float[] y, int[] rows) throws XGBoostError {
        MlData part = data.subset(rows);
        DMatrix m = new DMatrix(part.x(), part.rows(), data.width(), Float.NaN);
        m.setLabel(Trainer.pick(y, rows));
        return m;
    }

    /** The number XGBoost's evaluation line ends with: {@code [12]\tv-logloss:0.4123}. */
    static double loss(String evalLine) {
        return Double.parseDouble(evalLine.substring(evalLine.lastIndexOf(':') + 1).trim());
    }
}
