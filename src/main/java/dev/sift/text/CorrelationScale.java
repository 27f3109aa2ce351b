package dev.sift.text;

/**
 * The one strength scale for correlations (|r|, |ρ| or η), used by every tool that labels one and stated to the
 * model, so 0.698 and 0.705 are never "moderate" in one place and "strong" in another without the scale being said:
 * ≥ 0.7 strong, ≥ 0.4 moderate, ≥ 0.2 weak, else negligible.
 */
public final class CorrelationScale {
    /** The scale in words, for observations and the prompt. */
    public static final String TEXT = "strength of |r|, |ρ| or η: ≥ 0.7 strong, 0.4–0.7 moderate, 0.2–0.4 weak,"
            + " below 0.2 negligible";

    private CorrelationScale() { }

    public static String label(double v) {
        double a = Math.abs(v);
        return a >= 0.7 ? "strong" : a >= 0.4 ? "moderate" : a >= 0.2 ? "weak" : "negligible";
    }
}
