package dev.sift.agent.grounding;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Whether a number an answer states follows from evidence numbers by arithmetic a reader can redo, and by which
 * formula. The bound, so that almost any number is not "derivable" from a large result: one operation (sum,
 * difference, ratio, relative change) over the numbers the answer cites and the evidence's row counts and column
 * sums; two operations ((a + b) / c, a / (b + c), a + b + c, (a - b) / c, a + b - c) over the numbers the answer
 * itself cites only; and rounding of an evidence number to the claim's trailing zeros.
 */
final class Derivations {
    /** At most this many operands are combined two operations deep (the numbers an answer cites, first ones first). */
    static final int TWO_STEP_OPERANDS = 12;

    private Derivations() { }

    /** The formula that derives {@code claim} ("218 + 1804"), or null. */
    static String derive(Claim claim, double[] cited, double[] pool) {
        double[] one = concat(cited, pool);
        double[] two = Arrays.copyOf(cited, Math.min(cited.length, TWO_STEP_OPERANDS));
        for (Claim.Reading r : claim.readings()) {
            boolean ratios = !r.points(); // a ratio is a fraction: "11 %" may be one, "0.11 %" may not be 0.11
            String f = oneStep(Math.abs(r.value()), r.tolerance(), one, ratios);
            if (f == null) {
                f = twoSteps(Math.abs(r.value()), r.tolerance(), two, ratios);
            }
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    private static String oneStep(double v, double tol, double[] xs, boolean ratios) {
        for (int i = 0; i < xs.length; i++) {
            double a = xs[i];
            for (int j = 0; j < xs.length; j++) {
                if (i == j) {
                    continue;
                }
                double b = xs[j];
                if (j > i && near(a + b, v, tol)) {
                    return n(Math.min(a, b)) + " + " + n(Math.max(a, b));
                }
                if (a > b && near(a - b, v, tol)) {
                    return n(a) + " - " + n(b);
                }
                if (!ratios || b == 0) {
                    continue;
                }
                if (near(a / b, v, tol)) {
                    return n(a) + " / " + n(b);
                }
                if (near(Math.abs(a - b) / b, v, tol)) {
                    return "(" + n(a) + " - " + n(b) + ") / " + n(b);
                }
            }
        }
        return null;
    }

    private static String twoSteps(double v, double tol, double[] xs, boolean ratios) {
        int k = xs.length;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                if (j == i) {
                    continue;
                }
                double a = xs[i];
                double b = xs[j];
                for (int m = 0; m < k; m++) {
                    if (m == i || m == j) {
                        continue;
                    }
                    double c = xs[m];
                    String f = twoSteps(v, tol, a, b, c, j > i, m > j, ratios);
                    if (f != null) {
                        return f;
                    }
                }
            }
        }
        return null;
    }

    private static String twoSteps(double v, double tol, double a, double b, double c, boolean ab, boolean bc,
                                   boolean ratios) {
        if (ratios && c != 0 && ab && near((a + b) / c, v, tol)) {
            return "(" + n(a) + " + " + n(b) + ") / " + n(c);
        }
        if (ratios && bc && b + c != 0 && near(a / (b + c), v, tol)) {
            return n(a) + " / (" + n(b) + " + " + n(c) + ")";
        }
        if (ab && bc && near(a + b + c, v, tol)) {
            return n(a) + " + " + n(b) + " + " + n(c);
        }
        if (ratios && c != 0 && a > b && near((a - b) / c, v, tol)) {
            return "(" + n(a) + " - " + n(b) + ") / " + n(c);
        }
        if (ab && a + b > c && near(a + b - c, v, tol)) {
            return n(a) + " + " + n(b) + " - " + n(c);
        }
        return null;
    }

    /**
     * "151,000" for 151,410.24: a whole number with two or more trailing zeros and two or more digits before them,
     * read as a rounding to those zeros of a number the evidence states.
     */
    static String rounded(Claim claim, Facts facts) {
        if (claim.kind() != Claim.Kind.NUMBER) {
            return null;
        }
        for (Claim.Reading r : claim.readings()) {
            double v = Math.abs(r.value());
            if (v != Math.rint(v) || v >= 1e15) {
                continue;
            }
            String digits = Long.toString((long) v);
            int zeros = digits.length() - digits.replaceAll("0+$", "").length();
            if (zeros >= 2 && digits.length() - zeros >= 2) {
                double unit = Math.pow(10, zeros);
                double x = facts.find(new Claim.Reading(v, unit / 2));
                if (!Double.isNaN(x)) {
                    return n(x) + " rounded to " + n(unit) + "s";
                }
            }
        }
        return null;
    }

    private static boolean near(double x, double v, double tol) {
        return x >= v - tol * (1 + 1e-9) - 1e-12 && x <= v + 2 * tol * (1 + 1e-9) + 1e-12;
    }

    /** A number for a formula: as stored, without a float's noise ("0.1" rather than 0.1000000000000000055). */
    static String n(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return new BigDecimal(x).round(new java.math.MathContext(8)).stripTrailingZeros().toPlainString();
    }

    private static double[] concat(double[] a, double[] b) {
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
