package dev.sift.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a model's held-out metrics say it is too weak to trust: a classifier with AUC ≤ 0.6 (near or below
 * chance), F1 = 0 (it never predicts the positive class at 0.5) or fewer than 20 positives held out (the metrics
 * themselves are noise); a regression with R² ≤ 0 (no better than predicting the mean). The warning is one
 * sentence, written so a planner can repeat it and a reader understands it.
 */
public final class ModelQuality {
    public static final double MIN_AUC = 0.6;
    public static final int MIN_POSITIVES = 20;

    private ModelQuality() { }

    /** The warning for a weak model, or empty when its held-out metrics are acceptable. */
    public static Optional<String> warning(TrainedModel m) {
        List<String> why = reasons(m.task(), m.provenance().metrics());
        if (why.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Warning: model " + m.id() + " is weak (" + String.join("; ", why) + "): its predictions"
                + " and drivers are unreliable and must not be presented as meaningful.");
    }

    static List<String> reasons(TaskType task, Map<String, Double> metrics) {
        List<String> why = new ArrayList<>();
        if (task == TaskType.CLASSIFICATION) {
            double auc = metrics.getOrDefault("auc", Double.NaN);
            if (Double.isNaN(auc)) {
                why.add("held-out AUC undefined: the held-out rows have one class only");
            } else if (auc <= MIN_AUC) {
                why.add("held-out AUC " + Metrics.fmt(auc) + " ≤ " + MIN_AUC + (auc <= 0.5 ? ", no better than chance"
                        : ", barely better than chance"));
            }
            if (metrics.getOrDefault("f1", Double.NaN) == 0) {
                why.add("F1 0.000: it never predicts the positive class at threshold 0.5");
            }
            long positives = Math.round(metrics.getOrDefault("positive_rate", 0.0) * metrics.getOrDefault("rows", 0.0));
            if (positives < MIN_POSITIVES) {
                why.add("only " + positives + " positive" + (positives == 1 ? "" : "s") + " held out (fewer than "
                        + MIN_POSITIVES + ")");
            }
        } else {
            double r2 = metrics.getOrDefault("r2", Double.NaN);
            if (Double.isNaN(r2) || r2 <= 0) {
                why.add("held-out R² " + Metrics.fmt(r2) + " ≤ 0, no better than predicting the mean");
            }
        }
        return why;
    }
}
