package dev.sift.ml;

import dev.sift.data.Numbers;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Per-case SHAP values from XGBoost's own TreeSHAP ({@code predictContrib}), summed from encoded features
 * back to the user's columns (one-hot levels and date parts add up to their column), with the drivers of
 * each case in plain words and the global importance (mean |SHAP| per column).
 */
public final class Explanations {
    private Explanations() { }

    /** One column's contribution to one case, in margin units (log-odds for classification). */
    public record Driver(String column, String value, double shap, String comparison) { }

    public record Case(Object entity, double prediction, double margin, double bias, List<Driver> drivers,
                       String sentence) { }

    public record Importance(String column, double meanAbsShap) { }

    public record Result(List<Case> cases, List<Importance> global, int globalRows) { }

    /** Raw TreeSHAP rows: one per case, {@code width + 1} values (the last is the bias); each sums to the margin. */
    public static float[][] contributions(TrainedModel model, float[] x, int rows) {
        try {
            return contributionsNative(model, x, rows);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static float[][] contributionsNative(TrainedModel model, float[] x, int rows) throws XGBoostError {
        Booster b = null;
        DMatrix m = null;
        try {
            b = model.load(rows);
            m = new DMatrix(x, rows, model.encoder().width(), Float.NaN);
            return b.predictContrib(m, 0);
        } finally {
            Trainer.dispose(m, b);
        }
    }

    /** Raw margins (log-odds for classification), to check SHAP rows against. */
    public static float[] margins(TrainedModel model, float[] x, int rows) {
        try {
            return marginsNative(model, x, rows);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static float[] marginsNative(TrainedModel model, float[] x, int rows) throws XGBoostError {
        Booster b = null;
        DMatrix m = null;
        try {
            b = model.load(rows);
            m = new DMatrix(x, rows, model.encoder().width(), Float.NaN);
            float[][] out = b.predict(m, true);
            float[] margins = new float[rows];
            for (int i = 0; i < rows; i++) {
                margins[i] = out[i][0];
            }
            return margins;
        } finally {
            Trainer.dispose(m, b);
        }
    }

    /** SHAP per user column: {@code [row][column]}, plus the bias in the last slot. */
    public static double[][] byColumn(FeatureEncoder encoder, float[][] contrib) {
        int[] map = encoder.featureToColumn();
        int cols = encoder.columns().size();
        double[][] out = new double[contrib.length][cols + 1];
        for (int r = 0; r < contrib.length; r++) {
            for (int f = 0; f < map.length; f++) {
                out[r][map[f]] += contrib[r][f];
            }
            out[r][cols] = contrib[r][map.length];
        }
        return out;
    }

    /** Explains the given rows of {@code p} and computes global importance over at most {@code globalCap} rows. */
    public static Result explain(Predictions p, int[] rows, int topK, int globalCap) {
        try {
            return explainNative(p, rows, topK, globalCap);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static Result explainNative(Predictions p, int[] rows, int topK, int globalCap) throws XGBoostError {
        TrainedModel model = p.model();
        FeatureEncoder enc = model.encoder();
        MlData cases = p.data().subset(rows);
        double[][] shap = byColumn(enc, contributions(model, cases.x(), cases.rows()));
        List<Case> out = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            double margin = 0;
            for (double v : shap[i]) {
                margin += v;
            }
            List<Driver> drivers = new ArrayList<>();
            for (int c = 0; c < enc.columns().size(); c++) {
                FeatureEncoder.ColumnPlan plan = enc.columns().get(c);
                drivers.add(new Driver(plan.column(), cases.display()[i][c], shap[i][c], comparison(plan, cases.display()[i][c])));
            }
            drivers.sort(Comparator.comparingDouble((Driver d) -> -Math.abs(d.shap())));
            List<Driver> top = List.copyOf(drivers.subList(0, Math.min(topK, drivers.size())));
            double prediction = p.values()[rows[i]];
            double bias = shap[i][enc.columns().size()];
            Object entity = cases.entities().get(i);
            out.add(new Case(entity, prediction, margin, bias, top, sentence(model, entity, prediction, margin - bias, drivers)));
        }
        int n = Math.min(globalCap, p.data().rows());
        int[] sample = new int[n];
        for (int i = 0; i < n; i++) {
            sample[i] = (int) ((long) i * p.data().rows() / n);
        }
        MlData g = p.data().subset(sample);
        double[][] all = n == 0 ? new double[0][] : byColumn(enc, contributions(model, g.x(), g.rows()));
        List<Importance> global = new ArrayList<>();
        for (int c = 0; c < enc.columns().size(); c++) {
            double s = 0;
            for (double[] row : all) {
                s += Math.abs(row[c]);
            }
            global.add(new Importance(enc.columns().get(c).column(), n == 0 ? 0 : s / n));
        }
        global.sort(Comparator.comparingDouble((Importance im) -> -im.meanAbsShap()));
        return new Result(out, global, n);
    }

    /** A value within this share of the larger of it and the median is "near the median", neither high nor low. */
    static final double NEAR_MEDIAN = 0.1;

    /** "low (12,345 vs median 40,100)" for numbers; empty for other columns. */
    static String comparison(FeatureEncoder.ColumnPlan plan, String value) {
        if (plan.kind() != FeatureEncoder.Kind.NUMERIC || value == null || Double.isNaN(plan.median())) {
            return "";
        }
        double v;
        try {
            v = Double.parseDouble(value.replace(",", ""));
        } catch (NumberFormatException e) {
            return "";
        }
        double m = plan.median();
        // 200 against a median of 202.3 is not "low": within a tenth of the larger size it is near the median
        boolean near = Math.abs(v - m) <= NEAR_MEDIAN * Math.max(Math.abs(m), Math.abs(v));
        String level = v == m ? "typical" : near ? "near the median" : v > m ? "high" : "low";
        return level + " (" + value + " vs median " + Numbers.number(plan.median()) + ")";
    }

    /**
     * "loan 5314: high risk … mainly because amount is high (…), which raises risk by 0.8 and …": the two
     * strongest columns pushing the way the case went ({@code shift} = margin − bias).
     */
    static String sentence(TrainedModel model, Object entity, double prediction, double shift, List<Driver> all) {
        List<Driver> drivers = all.stream().filter(d -> shift >= 0 ? d.shap() > 0 : d.shap() < 0).toList();
        String who = entityName(model.entity()) + " " + entity;
        boolean classify = model.task() == TaskType.CLASSIFICATION;
        String head = classify
                ? who + ": " + (prediction >= 0.5 ? "high" : prediction >= 0.2 ? "elevated" : "low") + " risk of "
                + model.target() + " = " + model.positiveClass() + " (probability " + Numbers.fixed(prediction, 2) + ")"
                : who + ": predicted " + model.target() + " " + Numbers.number(prediction);
        List<String> parts = new ArrayList<>();
        for (Driver d : drivers.subList(0, Math.min(2, drivers.size()))) {
            String what = d.comparison().isEmpty() ? d.column() + " is " + (d.value() == null ? "missing" : d.value())
                    : d.column() + " is " + d.comparison();
            String effect = classify ? (d.shap() > 0 ? "raises" : "lowers") + " risk" : (d.shap() > 0 ? "raises" : "lowers") + " it";
            parts.add(what + ", which " + effect + " by " + Numbers.fixed(Math.abs(d.shap()), 2));
        }
        return parts.isEmpty() ? head + "; no single column stands out." : head + " mainly because " + String.join(" and ", parts) + ".";
    }

    /** "loan" for loan_id, "row" when there is no entity column. */
    public static String entityName(String entity) {
        if (entity == null) {
            return "row";
        }
        String e = entity.toLowerCase(Locale.ROOT);
        return e.endsWith("_id") && e.length() > 3 ? e.substring(0, e.length() - 3) : e;
    }
}
