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
 * as probability 1.
 */
public record TrainedModel(String id, TaskType task, String source, String target, String entity,
                           String positiveClass, String negativeClass, FeatureEncoder encoder, Provenance provenance,
                           byte[] booster) {

    /** Where a model came from and how good it is on its held-out rows. */
    public record Provenance(String dataFingerprint, List<String> features, Map<String, Object> params, int rounds,
                             long seed, Map<String, Double> metrics, int trainRows, int testRows, long[] testRowids,
                             String createdAt, long trainMillis) { }

    /** Loads the booster into native memory to work on {@code rows} rows; the caller must {@code dispose()} it. */
    public Booster load(int rows) throws XGBoostError {
        try {
            Booster b = XGBoost.loadModel(booster);
            b.setParam("nthread", Trainer.threads(rows));
            return b;
        } catch (IOException e) {
            throw new IllegalStateException("Model " + id + " could not be loaded from its bytes", e);
        }
    }

    /** The headline metric: AUC for classification, RMSE for regression. */
    public String headline() {
        Map<String, Double> m = provenance.metrics();
        return task == TaskType.CLASSIFICATION ? "AUC " + Metrics.fmt(m.get("auc")) : "RMSE " + Metrics.fmt(m.get("rmse"));
    }

    /** One line for lists: id, task, target, source, features, headline metric. */
    public String line() {
        return id + ": " + task.label() + " of " + target + " on " + source + ", " + encoder.columns().size()
                + " columns (" + provenance.features().size() + " features), " + headline() + " on "
                + provenance.testRows() + " held-out rows";
    }
}
