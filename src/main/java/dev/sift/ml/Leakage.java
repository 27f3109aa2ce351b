package dev.sift.ml;

import dev.sift.data.Numbers;

import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.List;

/**
 * The leakage guard: a feature that is the target, or maps to it one-to-one (each feature value goes
 * with exactly one target value and back, e.g. {@code status} for a target derived from it), or is
 * almost perfectly correlated with a numeric target, would let a model "predict" by reading the answer.
 * Such a feature is refused, never silently used.
 */
public final class Leakage {
    public static final double MAX_ABS_CORRELATION = 0.999;
    /**
     * A single feature whose cross-validated AUC alone reaches this is probably leaked. Calibrated on the loan
     * task: honest point-in-time features reach at most 0.607 (bundled bank) and 0.576 (real PKDD), the all-time
     * minimum balance of the bundled bank, which includes the months after a loan went bad, 0.939.
     */
    public static final double SUSPECT_SINGLE_AUC = 0.85;

    private Leakage() { }

    /** Throws with a message naming the leaking column(s) and what to do; checks rows with a target. */
    public static void check(Workspace ws, TableInfo table, String target, TaskType task, FeatureEncoder encoder)
            throws QueryException, MlException {
        List<FeatureEncoder.ColumnPlan> plans = encoder.columns();
        if (plans.isEmpty()) {
            return;
        }
        String t = Sql.quoteIdent(target);
        StringBuilder sql = new StringBuilder("SELECT count(*), count(DISTINCT ").append(t).append(')');
        for (FeatureEncoder.ColumnPlan p : plans) {
            String c = Sql.quoteIdent(p.column());
            sql.append(", count(DISTINCT ").append(c).append("), count(DISTINCT (").append(c).append(", ").append(t)
                    .append(")) FILTER (WHERE ").append(c).append(" IS NOT NULL)");
            sql.append(", bool_and(CAST(").append(c).append(" AS VARCHAR) = CAST(").append(t).append(" AS VARCHAR))");
            if (task == TaskType.REGRESSION && p.kind() == FeatureEncoder.Kind.NUMERIC) {
                sql.append(", corr(CAST(").append(c).append(" AS DOUBLE), CAST(").append(t).append(" AS DOUBLE))");
            } else {
                sql.append(", NULL");
            }
        }
        sql.append(" FROM ").append(table.sqlName()).append(" WHERE ").append(t).append(" IS NOT NULL");
        List<Object> r = ws.trustedQuery(sql.toString(), 1).rows().get(0);
        long labelled = ((Number) r.get(0)).longValue();
        long targetValues = ((Number) r.get(1)).longValue();
        // One-to-one only means something for a target with few, repeated values (classes, small counts);
        // with a continuous target every unique-valued column would look one-to-one.
        boolean discrete = targetValues <= FeatureEncoder.ORDINAL_MAX && targetValues * 2 <= labelled;
        for (int i = 0; i < plans.size(); i++) {
            String column = plans.get(i).column();
            long values = ((Number) r.get(2 + 4 * i)).longValue();
            long pairs = ((Number) r.get(3 + 4 * i)).longValue();
            Object same = r.get(4 + 4 * i);
            Object corr = r.get(5 + 4 * i);
            String why = null;
            if (Boolean.TRUE.equals(same)) {
                why = "is identical to the target '" + target + "'";
            } else if (discrete && values > 1 && values == targetValues && pairs == values) {
                why = "maps one-to-one to the target '" + target + "' (each of its " + values
                        + " values goes with exactly one target value)";
            } else if (corr instanceof Number n && Math.abs(n.doubleValue()) >= MAX_ABS_CORRELATION) {
                why = "has correlation " + Numbers.fixed(n.doubleValue(), 4) + " with the target '" + target + "'";
            }
            if (why != null) {
                throw new MlException("Refused: feature '" + column + "' " + why + ", so it leaks the answer. Leave it"
                        + " out (pass features without it, or build the frame without it) and train again.");
            }
        }
    }

    /**
     * The warning for a model whose best single feature alone separates the classes almost perfectly (its
     * cross-validated AUC on the test folds ≥ {@value #SUSPECT_SINGLE_AUC}), or empty. It is a warning, not a
     * refusal: such a feature may be honest, but is more often computed from rows after the moment of prediction.
     */
    public static java.util.Optional<String> suspect(TrainedModel m) {
        Evaluation e = m.provenance().evaluation();
        double single = e.baselineMean("feature_auc");
        if (!e.classification() || e.baselineFeature() == null || Double.isNaN(single) || single < SUSPECT_SINGLE_AUC) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("Leakage warning: feature '" + e.baselineFeature() + "' alone separates the classes"
                + " (AUC " + Metrics.fmt(single) + " over the test folds): check that it is known before the moment the"
                + " prediction is made (not computed from rows after it, such as an all-time minimum that includes the"
                + " months after the outcome); if not, rebuild the frame with rows strictly before that moment"
                + (m.provenance().pointInTime() == null ? "" : " (this frame states: " + m.provenance().pointInTime() + ")")
                + ".");
    }
}
