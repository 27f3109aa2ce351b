package dev.sift.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a model's cross-validated metrics say it is too weak to trust: a classifier whose mean AUC over the
 * folds is ≤ 0.6 (near or below chance), or no higher than its best single feature's (the model adds nothing),
 * or that had fewer than 20 positives to learn from and be tested on (its metrics are noise); a regression whose
 * mean R² is ≤ 0 (no better than predicting the mean). F1 at threshold 0.5 is no criterion: a classifier of a rare
 * class may rank well and still never reach 0.5. The warning is one sentence, written so a planner can repeat it
 * and a reader understands it.
 */
public final class ModelQuality {
    public static final double MIN_AUC = 0.6;
    public static final int MIN_POSITIVES = 20;

    private ModelQuality() { }

    /** The warning for a weak model, or empty when its cross-validated metrics are acceptable. */
    public static Optional<String> warning(TrainedModel m) {
        List<String> why = reasons(m.provenance().evaluation());
        if (why.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Warning: model " + m.id() + " is weak (" + String.join("; ", why) + "): its predictions"
                + " and drivers are unreliable and must not be presented as meaningful.");
    }

    static List<String> reasons(Evaluation e) {
        List<String> why = new ArrayList<>();
        String over = " over " + e.scheme();
        if (e.classification()) {
            double auc = e.mean("auc");
            double single = e.baselineMean("feature_auc");
            if (Double.isNaN(auc)) {
                why.add("cross-validated AUC undefined: the test folds have one class only");
            } else if (auc <= MIN_AUC) {
                why.add("cross-validated AUC " + e.metrics().get("auc").render() + over + " ≤ " + MIN_AUC
                        + (auc <= 0.5 ? ", no better than chance" : ", barely better than chance"));
            } else if (!Double.isNaN(single) && auc <= single) {
                why.add("cross-validated AUC " + e.metrics().get("auc").render() + over + " is no higher than "
                        + (e.baselineFeature() == null ? "the best single feature" : e.baselineFeature() + " alone")
                        + " (" + Metrics.fmt(single) + ")");
            }
            if (e.positives() < MIN_POSITIVES) {
                why.add("only " + e.positives() + " positive" + (e.positives() == 1 ? "" : "s") + " to learn from and"
                        + " test on (fewer than " + MIN_POSITIVES + ")");
            }
        } else {
            double r2 = e.mean("r2");
            if (Double.isNaN(r2) || r2 <= 0) {
                why.add("cross-validated R² " + Metrics.fmt(r2) + over + " ≤ 0, no better than predicting the mean");
            }
        }
        return why;
    }
}
