package dev.sift.ml;

import java.util.Locale;

/** What a model predicts: one of two classes (with a probability) or a number. */
public enum TaskType {
    CLASSIFICATION, REGRESSION;

    public static TaskType parse(String s) throws MlException {
        if (s == null) {
            return CLASSIFICATION;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "classification", "binary", "classify" -> CLASSIFICATION;
            case "regression", "regress", "numeric" -> REGRESSION;
            default -> throw new MlException("task_type '" + s + "' is not known: use 'classification' (two classes,"
                    + " with probabilities) or 'regression' (a number).");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
