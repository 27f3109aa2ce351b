package dev.sift.ml;

import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A trained booster (kept serialized: it is loaded into native memory only while used, then freed) with
 * its encoder and provenance. For classification, {@code positiveClass} is the target value predicted
 * as probability 1. {@code foldModels} are the boosters of the cross-validation's first repeat, one per fold, kept
 * while the model is in memory so an explanation can be checked against them (empty for a model read back from disk).
 */
public record TrainedModel(String id, TaskType task, String source, String target, String entity,
                           String positiveClass, String negativeClass, FeatureEncoder encoder, Provenance provenance,
                           byte[] booster, List<byte[]> foldModels) {

    /** The map from margin to calibrated probability, or null (regression, or a card written before calibration). */
    public Calibration.Calibrator calibrator() {
        Evaluation e = provenance.evaluation();
        return task != TaskType.CLASSIFICATION || e == null || e.calibration() == null ? null
                : e.calibration().calibrator();
    }

    /**
     * Where a model came from and how good it is. The booster trained on all {@code trainRows} labelled rows;
     * {@code metrics} are the cross-validated means ({@code evaluation} has their spread and the baselines).
     *
     * @param evaluation  the cross-validated metrics and baselines ({@link Evaluation})
     * @param pointInTime the point-in-time rule the features obey, e.g. "features use only rows dated strictly
     *                    before loan.date (trans.date < loan.date)", or null when the frame states none
     */
    public record Provenance(String dataFingerprint, List<String> features, Map<String, Object> params, int rounds,
                             long seed, Map<String, Double> metrics, int trainRows, String createdAt, long trainMillis,
                             Evaluation evaluation, String pointInTime) { }

    /** This model with its features' point-in-time rule recorded. */
    public TrainedModel withPointInTime(String rule) {
        Provenance p = provenance;
        return new TrainedModel(id, task, source, target, entity, positiveClass, negativeClass, encoder,
                new Provenance(p.dataFingerprint(), p.features(), p.params(), p.rounds(), p.seed(), p.metrics(),
                        p.trainRows(), p.createdAt(), p.trainMillis(), p.evaluation(), rule), booster, foldModels);
    }

    /** Loads the booster into native memory to work on {@code rows} rows; the caller must {@code dispose()} it. */
    public Booster load(int rows) throws XGBoostError {
        return load(booster, rows);
    }

    /** Loads {@code bytes} (this model's booster or one of its fold models); the caller must {@code dispose()} it. */
    public Booster load(byte[] bytes, int rows) throws XGBoostError {
        try {
            Booster b = XGBoost.loadModel(bytes);
            b.setParam("nthread", Trainer.threads(rows));
            return b;
        } catch (IOException e) {
            throw new IllegalStateException("Model " + id + " could not be loaded from its bytes", e);
        }
    }

    /** The headline: cross-validated AUC (classification) or RMSE (regression) with its spread and baseline. */
    public String headline() {
        return provenance.evaluation().headline();
    }

    /** One line for lists: id, task, target, source, features, headline metric. */
    public String line() {
        return id + ": " + task.label() + " of " + target + " on " + source + ", " + encoder.columns().size()
                + " columns (" + provenance.features().size() + " features), trained on " + provenance.trainRows()
                + " rows, " + headline();
    }
}
