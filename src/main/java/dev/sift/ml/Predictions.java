package dev.sift.ml;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A model's predictions for rows read through its encoder: the probability of the positive class (or
 * the predicted value) per row, kept with the rows so they can be explained.
 */
public record Predictions(TrainedModel model, MlData data, double[] values, String frame) {

    public static Predictions score(TrainedModel model, MlData data, String frame) {
        return new Predictions(model, data, predict(model, data.x(), data.rows()), frame);
    }

    /**
     * Predictions: a classifier's calibrated probabilities (its booster's margins through the calibrator learnt in
     * cross-validation; the booster's own probabilities for a model without one), or predicted values; native
     * memory freed before returning.
     */
    public static double[] predict(TrainedModel model, float[] x, int rows) {
        try {
            return predictNative(model, x, rows);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static double[] predictNative(TrainedModel model, float[] x, int rows) throws XGBoostError {
        if (rows == 0) {
            return new double[0];
        }
        Booster b = null;
        DMatrix m = null;
        try {
            b = model.load(rows);
            m = new DMatrix(x, rows, model.encoder().width(), Float.NaN);
            Calibration.Calibrator c = model.calibrator();
            double[] out = Trainer.column(b.predict(m, c != null));
            if (c != null) {
                for (int i = 0; i < out.length; i++) {
                    out[i] = c.apply(out[i]);
                }
            }
            return out;
        } finally {
            Trainer.dispose(m, b);
        }
    }

    /** Row indices ordered by prediction, highest first; ties by entity (numbers numerically), then row. */
    public int[] ranking() {
        Entities e = data.entities();
        Comparator<Integer> byEntity = (a, b) -> {
            if (e.get(a) instanceof Long x && e.get(b) instanceof Long y) {
                return Long.compare(x, y);
            }
            return String.valueOf(e.get(a)).compareTo(String.valueOf(e.get(b)));
        };
        return IntStream.range(0, values.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -values[i]).thenComparing(byEntity).thenComparingInt(i -> i))
                .mapToInt(Integer::intValue).toArray();
    }

    /** The row of {@code entity} (compared as text), or -1. */
    public int rowOf(Object entity) {
        String wanted = String.valueOf(entity);
        return IntStream.range(0, data.rows()).filter(i -> String.valueOf(data.entities().get(i)).equals(wanted))
                .findFirst().orElse(-1);
    }

    public int[] top(int k) {
        return Arrays.copyOf(ranking(), Math.min(k, values.length));
    }
}
