package dev.sift.ml;

import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * XGBoost's native library failed on input that had passed our checks: a fault of ours or of the library,
 * never something the planner can fix, so it is unchecked and fails the run loudly.
 */
public final class NativeFailure extends RuntimeException {
    private NativeFailure(String message, Throwable cause) {
        super(message, cause);
    }

    static NativeFailure of(XGBoostError e) {
        return new NativeFailure("XGBoost failed: " + e.getMessage(), e);
    }
}
