package dev.sift.ml;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Trains an XGBoost model on rows read through a {@link FeatureEncoder}: stratified k-fold cross-validation
 * (fixed seed, {@link CrossValidation}) for metrics against baselines, then the booster trained on every labelled
 * row. Native memory is always freed.
 */
public final class Trainer {
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_ROUNDS = 100;
    public static final int MIN_ROWS = 10;
    /** Below this many training rows min_child_weight defaults to {@value #SMALL_MIN_CHILD_WEIGHT} instead of 1. */
    public static final int SMALL_DATA = 1000;
    public static final double SMALL_MIN_CHILD_WEIGHT = 0.1;
    /** Below this many rows one OpenMP thread is faster: a second one mostly spins, badly so on a busy machine. */
    public static final int PARALLEL_ROWS = 50_000;
    public static final int MAX_THREADS = 2;
    /** Parameters a caller may set; anything else is refused so a typo is not silently ignored. */
    public static final Set<String> PARAMS = Set.of("max_depth", "eta", "learning_rate", "min_child_weight", "subsample",
            "colsample_bytree", "lambda", "alpha", "gamma", "num_round", "n_estimators", "scale_pos_weight", "max_bin",
            "seed");

    private Trainer() { }

    /** A target turned into numbers: labels 0/1 (or values) and the class names. */
    public record Labels(float[] y, String positive, String negative) { }

    /** Maps a classification target to 0/1: 1/true when the values are 0/1 or booleans, else the rarer value. */
    public static Labels classLabels(String target, String[] raw) throws MlException {
        Map<String, Integer> counts = new TreeMap<>();
        for (String v : raw) {
            if (v != null) {
                counts.merge(v, 1, Integer::sum);
            }
        }
        if (counts.size() != 2) {
            List<String> shown = counts.keySet().stream().limit(5).toList();
            throw new MlException("Target '" + target + "' has " + counts.size() + " distinct value"
                    + (counts.size() == 1 ? "" : "s") + (shown.isEmpty() ? "" : " (" + String.join(", ", shown)
                    + (counts.size() > 5 ? ", …" : "") + ")") + ": classification needs exactly two classes. Make a"
                    + " yes/no target in SQL (e.g. CASE WHEN status = 'B' THEN 1 ELSE 0 END AS is_default), or use"
                    + " task_type 'regression' for a number.");
        }
        List<String> values = new ArrayList<>(counts.keySet());
        String positive;
        if (values.equals(List.of("0", "1")) || values.equals(List.of("0.0", "1.0"))) {
            positive = values.get(1);
        } else if (values.equals(List.of("false", "true"))) {
            positive = "true";
        } else {
            positive = counts.get(values.get(0)) < counts.get(values.get(1)) ? values.get(0) : values.get(1);
        }
        String negative = values.get(0).equals(positive) ? values.get(1) : values.get(0);
        float[] y = new float[raw.length];
        for (int i = 0; i < raw.length; i++) {
            y[i] = raw[i] == null ? Float.NaN : raw[i].equals(positive) ? 1f : 0f;
        }
        return new Labels(y, positive, negative);
    }

    public static Labels regressionLabels(String target, String[] raw) throws MlException {
        float[] y = new float[raw.length];
        for (int i = 0; i < raw.length; i++) {
            try {
                y[i] = raw[i] == null ? Float.NaN : Float.parseFloat(raw[i]);
            } catch (NumberFormatException e) {
                throw new MlException("Target '" + target + "' has the non-numeric value '" + raw[i] + "': regression"
                        + " needs a number. Use task_type 'classification' for two classes.");
            }
        }
        return new Labels(y, null, null);
    }

    /** A stratified sample: per class (or overall for regression) a seeded shuffle, {@code fraction} of each kept (sorted). */
    public static int[] heldOut(float[] y, boolean stratify, double fraction, long seed) {
        Map<Float, List<Integer>> groups = new TreeMap<>();
        for (int i = 0; i < y.length; i++) {
            groups.computeIfAbsent(stratify ? y[i] : 0f, k -> new ArrayList<>()).add(i);
        }
        Random random = new Random(seed);
        List<Integer> test = new ArrayList<>();
        for (List<Integer> g : groups.values()) {
            Collections.shuffle(g, random);
            int n = (int) Math.round(g.size() * fraction);
            if (n == 0 && g.size() >= 2) {
                n = 1;
            }
            test.addAll(g.subList(0, n));
        }
        Collections.sort(test);
        return test.stream().mapToInt(Integer::intValue).toArray();
    }

    /** XGBoost parameters: sensible defaults, then the caller's (validated) overrides. */
    public static Map<String, Object> params(TaskType task, Map<String, Object> overrides, long seed) throws MlException {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("objective", task == TaskType.CLASSIFICATION ? "binary:logistic" : "reg:squarederror");
        p.put("eval_metric", task == TaskType.CLASSIFICATION ? "logloss" : "rmse");
        p.put("tree_method", "hist");
        p.put("max_depth", 4);
        p.put("eta", 0.1);
        p.put("min_child_weight", 1);
        p.put("seed", seed);
        p.put("verbosity", 0);
        for (Map.Entry<String, Object> e : overrides.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (!PARAMS.contains(key)) {
                throw new MlException("Parameter '" + e.getKey() + "' is not accepted. Accepted: "
                        + String.join(", ", new java.util.TreeSet<>(PARAMS)) + ".");
            }
            if (!(e.getValue() instanceof Number)) {
                throw new MlException("Parameter '" + e.getKey() + "' must be a number, got '" + e.getValue() + "'.");
            }
            p.put(key.equals("learning_rate") ? "eta" : key, e.getValue());
        }
        return p;
    }

    /** Trains on {@code data} (target already in {@code labels}) and returns the model with provenance. */
    public static TrainedModel train(String id, TaskType task, String source, String target, String entity,
                                     FeatureEncoder encoder, MlData data, Labels labels, Map<String, Object> overrides)
            throws MlException {
        try {
            return trainNative(id, task, source, target, entity, encoder, data, labels, overrides);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static TrainedModel trainNative(String id, TaskType task, String source, String target, String entity,
                                            FeatureEncoder encoder, MlData data, Labels labels,
                                            Map<String, Object> overrides) throws MlException, XGBoostError {
        long start = System.nanoTime();
        Map<String, Object> params = params(task, overrides, DEFAULT_SEED);
        long seed = ((Number) params.get("seed")).longValue();
        int rounds = rounds(params);
        // Rows with a target only; the rest cannot teach anything.
        int[] labelled = java.util.stream.IntStream.range(0, data.rows()).filter(i -> !Float.isNaN(labels.y()[i])).toArray();
        if (labelled.length < MIN_ROWS) {
            throw new MlException("Only " + labelled.length + " rows have a value of '" + target + "': at least "
                    + MIN_ROWS + " are needed to train and cross-validate.");
        }
        MlData d = data.subset(labelled);
        float[] y = pick(labels.y(), labelled);
        boolean classify = task == TaskType.CLASSIFICATION;
        if (classify) {
            int pos = CrossValidation.positives(y);
            if (pos < 2 || y.length - pos < 2) {
                throw new MlException("Target '" + target + "' has " + pos + " rows of class '" + labels.positive()
                        + "' and " + (y.length - pos) + " of '" + labels.negative() + "': each class needs at least 2"
                        + " rows for cross-validation.");
            }
        }
        params.put("nthread", threads(y.length));
        if (y.length < SMALL_DATA && !overrides.containsKey("min_child_weight")) {
            params.put("min_child_weight", SMALL_MIN_CHILD_WEIGHT); // lets small samples split at all
        }
        CapacitySearch.Capacity capacity = capacity(d, y, params, overrides, rounds, classify, seed);
        rounds = capacity.rounds();
        CrossValidation.Result cv = CrossValidation.run(d, y, new CrossValidation.Setup(params, rounds, seed, classify),
                encoder.featureNames());
        Evaluation evaluation = cv.evaluation().withCapacity(capacity);
        byte[] bytes = fit(d, y, params, rounds);
        Map<String, Double> metrics = evaluation.means();
        params.put("num_round", rounds);
        TrainedModel.Provenance provenance = new TrainedModel.Provenance(fingerprint(d.x(), y), encoder.featureNames(),
                Map.copyOf(params), rounds, seed, metrics, y.length, Instant.now().toString(),
                (System.nanoTime() - start) / 1_000_000, evaluation, null);
        return new TrainedModel(id, task, source, target, entity, labels.positive(), labels.negative(), encoder,
                provenance, bytes, List.copyOf(cv.foldModels()));
    }

    /**
     * The capacity the caller set (any of {@link CapacitySearch#CAPACITY_PARAMS}), or the one the inner search
     * chose, written into {@code params}.
     */
    private static CapacitySearch.Capacity capacity(MlData d, float[] y, Map<String, Object> params,
                                                    Map<String, Object> overrides, int rounds, boolean classify,
                                                    long seed) throws XGBoostError {
        if (CapacitySearch.callerChose(overrides)) {
            return CapacitySearch.fixed(params, rounds);
        }
        CapacitySearch.Capacity c = CapacitySearch.run(d, y, params, classify, seed);
        params.put("max_depth", c.maxDepth());
        params.put("min_child_weight", c.minChildWeight());
        params.put("lambda", c.lambda());
        return c;
    }

    /** num_round (or n_estimators) taken out of {@code params}, checked; {@value #DEFAULT_ROUNDS} by default. */
    private static int rounds(Map<String, Object> params) throws MlException {
        Object r = params.containsKey("num_round") ? params.remove("num_round") : params.remove("n_estimators");
        int rounds = r == null ? DEFAULT_ROUNDS : ((Number) r).intValue();
        if (rounds < 1 || rounds > 5000) {
            throw new MlException("num_round must be between 1 and 5000, got " + rounds + ".");
        }
        return rounds;
    }

    /** The final booster, trained on every labelled row, as XGBoost's model bytes. */
    private static byte[] fit(MlData d, float[] y, Map<String, Object> params, int rounds) throws XGBoostError {
        DMatrix dtrain = null;
        Booster booster = null;
        try {
            dtrain = new DMatrix(d.x(), d.rows(), d.width(), Float.NaN);
            dtrain.setLabel(y);
            booster = XGBoost.train(dtrain, params, rounds, Map.of(), null, null);
            return booster.toByteArray();
        } finally {
            dispose(dtrain, booster);
        }
    }

    /** OpenMP threads for work on {@code rows} rows. */
    public static int threads(int rows) {
        return rows < PARALLEL_ROWS ? 1 : MAX_THREADS;
    }

    static float[] pick(float[] v, int[] idx) {
        float[] out = new float[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = v[idx[i]];
        }
        return out;
    }

    static double[] column(float[][] predictions) {
        double[] out = new double[predictions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = predictions[i][0];
        }
        return out;
    }

    static void dispose(Object... natives) {
        for (Object o : natives) {
            if (o instanceof DMatrix m) {
                m.dispose();
            } else if (o instanceof Booster b) {
                b.dispose();
            }
        }
    }

    /** SHA-256 (first 16 hex digits) of the encoded features and labels the model learned from. */
    static String fingerprint(float[] x, float[] y) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ByteBuffer buf = ByteBuffer.allocate(4 * 4096);
            for (float[] arr : new float[][] {x, y}) {
                for (float v : arr) {
                    if (!buf.hasRemaining()) {
                        md.update(buf.array(), 0, buf.position());
                        buf.clear();
                    }
                    buf.putFloat(v);
                }
            }
            md.update(buf.array(), 0, buf.position());
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
