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
 *
 * <p>A reason is given only when it holds: the same column, for the same case, pushes the same way in at least
 * {@value #STABLE_SHARE} of the cross-validation's fold models (each trained without a fifth of the rows); a
 * contribution the fold models disagree on is what an over-fitted model says, and is named as dropped. A column
 * whose value the case shares with its whole group ({@link GroupFacts}) is stated as a fact of the group.
 */
public final class Explanations {
    private Explanations() { }

    /** Share of fold models that must agree on the sign of a contribution for it to be given as a reason. */
    public static final double STABLE_SHARE = 0.75;

    /**
     * One column's contribution to one case, in margin units (log-odds for classification); {@code agree} of
     * {@code folds} fold models push the same way ({@code folds} 0 when none were kept to check); {@code group}
     * is the sentence part stating a group fact, or null.
     */
    public record Driver(String column, String value, double shap, String comparison, int agree, int folds,
                         String group) {
        /** The fold models agree (or there were none to ask). */
        public boolean stable() {
            return folds == 0 || agree >= Math.ceil(STABLE_SHARE * folds);
        }
    }

    public record Case(Object entity, double prediction, double margin, double bias, List<Driver> drivers,
                       String sentence) { }

    public record Importance(String column, double meanAbsShap) { }

    public record Result(List<Case> cases, List<Importance> global, int globalRows) { }

    /** Raw TreeSHAP rows: one per case, {@code width + 1} values (the last is the bias); each sums to the margin. */
    public static float[][] contributions(TrainedModel model, float[] x, int rows) {
        return contributions(model, model.booster(), x, rows);
    }

    /** The same from {@code booster}: the model's own, or one of its fold models. */
    static float[][] contributions(TrainedModel model, byte[] booster, float[] x, int rows) {
        try {
            return contributionsNative(model, booster, x, rows);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static float[][] contributionsNative(TrainedModel model, byte[] booster, float[] x, int rows)
            throws XGBoostError {
        Booster b = null;
        DMatrix m = null;
        try {
            b = model.load(booster, rows);
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
    public static Result explain(Predictions p, int[] rows, int topK, int globalCap, GroupFacts groups) {
        try {
            return explainNative(p, rows, topK, globalCap, groups);
        } catch (XGBoostError e) {
            throw NativeFailure.of(e);
        }
    }

    private static Result explainNative(Predictions p, int[] rows, int topK, int globalCap, GroupFacts groups)
            throws XGBoostError {
        TrainedModel model = p.model();
        FeatureEncoder enc = model.encoder();
        MlData cases = p.data().subset(rows);
        double[][] shap = byColumn(enc, contributions(model, cases.x(), cases.rows()));
        List<double[][]> folds = new ArrayList<>();
        for (byte[] fold : model.foldModels()) {
            folds.add(byColumn(enc, contributions(model, fold, cases.x(), cases.rows())));
        }
        List<Case> out = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            double margin = 0;
            for (double v : shap[i]) {
                margin += v;
            }
            List<Driver> drivers = new ArrayList<>();
            for (int c = 0; c < enc.columns().size(); c++) {
                FeatureEncoder.ColumnPlan plan = enc.columns().get(c);
                String v = cases.display()[i][c];
                drivers.add(new Driver(plan.column(), v, shap[i][c], comparison(plan, v), agreeing(folds, i, c, shap[i][c]),
                        folds.size(), groupFact(groups, model, c, plan, cases.display()[i])));
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
        if (near) { // not "high" or "low": the value as it is, next to the median
            return value + " (median " + Numbers.number(plan.median()) + ")";
        }
        return (v > m ? "high" : "low") + " (" + value + " vs median " + Numbers.number(plan.median()) + ")";
    }

    /** How many fold models give column {@code c} of case {@code i} a contribution of the same sign as {@code shap}. */
    static int agreeing(List<double[][]> folds, int i, int c, double shap) {
        int n = 0;
        for (double[][] f : folds) {
            n += Math.signum(f[i][c]) == Math.signum(shap) && shap != 0 ? 1 : 0;
        }
        return n;
    }

    /** "the district's unemployment_1996 (6.46, the same for all 12 loans of that district)", or null. */
    static String groupFact(GroupFacts groups, TrainedModel model, int c, FeatureEncoder.ColumnPlan plan, String[] values) {
        if (!groups.isGroupFact(c)) {
            return null;
        }
        String group = groups.group(c);
        String who = entityName(model.entity()) + "s";
        int n = groups.members(c, values);
        if (n < 2 || values[c] == null) {
            return null; // a group of one, or a missing value, is nothing shared
        }
        String value = values[c] == null ? "missing" : values[c];
        return group != null ? "the " + group + "'s " + plan.column() + " (" + value + ", the same for all " + n + " "
                + who + " of that " + group + ")"
                : plan.column() + " (" + value + ", shared by all " + n + " " + who + " of its group: a fact of the group)";
    }

    /**
     * "loan 5314: high risk … mainly because amount is high (…), which raises the risk by 0.80 log-odds and …": the
     * two strongest columns pushing the way the case went ({@code shift} = margin − bias) that hold across the fold
     * models; the strong ones that do not are named as dropped.
     */
    static String sentence(TrainedModel model, Object entity, double prediction, double shift, List<Driver> all) {
        List<Driver> pushing = all.stream().filter(d -> shift >= 0 ? d.shap() > 0 : d.shap() < 0).toList();
        List<Driver> drivers = pushing.stream().filter(Driver::stable).limit(2).toList();
        List<String> dropped = pushing.stream().limit(2).filter(d -> !d.stable()).map(d -> d.column() + " "
                + d.agree() + "/" + d.folds()).toList();
        String who = entityName(model.entity()) + " " + entity;
        boolean classify = model.task() == TaskType.CLASSIFICATION;
        String head = classify
                ? who + ": " + (prediction >= 0.5 ? "high" : prediction >= 0.2 ? "elevated" : "low") + " risk of "
                + model.target() + " = " + model.positiveClass() + " (probability " + Numbers.fixed(prediction, 2) + ")"
                : who + ": predicted " + model.target() + " " + Numbers.number(prediction);
        List<String> parts = new ArrayList<>();
        for (Driver d : drivers) {
            String what = d.group() != null ? d.group() : d.comparison().isEmpty()
                    ? d.column() + " is " + (d.value() == null ? "missing" : d.value()) : d.column() + " is " + d.comparison();
            String effect = (d.shap() > 0 ? "raises " : "lowers ") + (classify ? "the risk by " : "it by ")
                    + Numbers.fixed(Math.abs(d.shap()), 2) + (classify ? " log-odds" : "");
            parts.add(what + ", which " + effect);
        }
        String drop = dropped.isEmpty() ? "" : "; left out as unstable (fold models that agree): "
                + String.join(", ", dropped);
        if (parts.isEmpty()) {
            return head + (dropped.isEmpty() ? "; no single column stands out." : "; no reason holds across the fold"
                    + " models" + drop + ".");
        }
        return head + " mainly because " + String.join(" and ", parts) + drop + ".";
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
