package dev.sift.agent.grounding;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a number an answer states follows from evidence numbers by arithmetic a reader can redo, and by which
 * formula. The bound, so that almost any number is not "derivable" from a large result: one operation (sum,
 * difference, ratio, relative change) over the numbers the answer cites and the evidence's row counts and column
 * sums; two operations ((a + b) / c, a / (b + c), a + b + c, (a - b) / c, a + b - c) over the numbers the answer
 * itself cites only; operands of one scale ({@link Claim.Scale}: a percentage is added to percentages, a count to
 * counts; shares and numbers up to one mix); a number written with a percent sign is never a ratio (a ratio is a
 * share: "11 %" may be one, "0.11 %" may not be 0.11); and rounding of an evidence number to the claim's trailing
 * zeros.
 */
final class Derivations {
    /** At most this many operands are combined two operations deep (the numbers an answer cites, first ones first). */
    static final int TWO_STEP_OPERANDS = 12;

    private Derivations() { }

    /** A number to derive from, with the scale it was written in. */
    record Operand(double value, Claim.Scale scale) { }

    /** How a claim follows: the formula, and the reading it yields (an operand for later claims). */
    record Derivation(String formula, Operand value) { }

    /**
     * The formula that derives {@code claim} ("218 + 1804"), or null: of all formulas within a reading's rounding,
     * the closest (relative to the rounding), the simpler on a tie, so "76 / 682" is named for 11.1 %, not a
     * coincidence such as "45 / 403".
     */
    static Derivation derive(Claim claim, List<Operand> cited, double[] pool) {
        List<Operand> one = new ArrayList<>(cited);
        for (double p : pool) {
            one.add(new Operand(p, Claim.Scale.PLAIN));
        }
        List<Operand> two = cited.subList(0, Math.min(cited.size(), TWO_STEP_OPERANDS));
        Best best = new Best();
        for (Claim.Reading r : claim.readings()) {
            best.reading(r);
            oneStep(one, best);
            if (best.formula == null) {
                twoSteps(two, best);
            }
        }
        return best.formula == null ? null : new Derivation(best.formula, best.value);
    }

    /** The closest formula so far; candidates are offered simplest first, so a tie keeps the simpler one. */
    private static final class Best {
        private Claim.Reading r;
        private String formula;
        private Operand value;
        private double error = Double.MAX_VALUE;

        void reading(Claim.Reading r) {
            this.r = r;
        }

        boolean exact() {
            return error == 0;
        }

        /** Whether operands of these scales may be added or subtracted into this reading. */
        boolean sums(Operand... xs) {
            return xs[0].scale() == Claim.Scale.POINTS ? r.points() && same(xs) : !r.points() && same(xs);
        }

        /** Whether these operands may be divided into this reading: not a percentage, operands of one scale. */
        boolean ratios(Operand... xs) {
            return !r.points() && same(xs);
        }

        /** Offers {@code x}, which {@code text} computes; the text is made only for a better candidate. */
        void offer(double x, java.util.function.Supplier<String> text) {
            double v = Math.abs(r.value());
            boolean whole = r.tolerance() == 0.5 && v == Math.rint(v) && Math.abs(x - Math.rint(x)) < 1e-9;
            if (!near(x, v, r.tolerance()) || whole && Math.rint(x) != v) {
                return; // whole numbers add up exactly: 31 + 45 is 76, never "75"
            }
            double e = Math.abs(x - v) / Math.max(r.tolerance(), 1e-12);
            if (e < error - 1e-9) {
                error = e;
                formula = text.get();
                value = new Operand(v, r.scale());
            }
        }
    }

    /** Operands of one scale: all percentages, or none; a share only beside numbers up to one. */
    private static boolean same(Operand... xs) {
        boolean points = xs[0].scale() == Claim.Scale.POINTS;
        boolean share = false;
        boolean large = false;
        for (Operand x : xs) {
            if ((x.scale() == Claim.Scale.POINTS) != points) {
                return false;
            }
            share |= x.scale() == Claim.Scale.SHARE;
            large |= Math.abs(x.value()) > 1;
        }
        return !(share && large);
    }

    private static void oneStep(List<Operand> xs, Best best) {
        for (int pass = 0; pass < 2 && !best.exact(); pass++) { // relative changes only after sums, differences, ratios
            for (int i = 0; i < xs.size() && !best.exact(); i++) {
                Operand x = xs.get(i);
                double a = x.value();
                for (int j = 0; j < xs.size(); j++) {
                    Operand y = xs.get(j);
                    double b = y.value();
                    if (i == j) {
                        continue;
                    }
                    if (pass == 0) {
                        if (best.sums(x, y)) {
                            if (j > i) {
                                best.offer(a + b, () -> n(Math.min(a, b)) + " + " + n(Math.max(a, b)));
                            }
                            if (a > b) {
                                best.offer(a - b, () -> n(a) + " - " + n(b));
                            }
                        }
                        if (b != 0 && best.ratios(x, y)) {
                            best.offer(a / b, () -> n(a) + " / " + n(b));
                        }
                    } else if (b != 0 && a != b && best.ratios(x, y)) {
                        best.offer(Math.abs(a - b) / b, () -> "(" + n(Math.max(a, b)) + " - " + n(Math.min(a, b)) + ") / "
                                + n(b));
                    }
                }
            }
        }
    }

    private static void twoSteps(List<Operand> xs, Best best) {
        int k = xs.size();
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                if (j == i) {
                    continue;
                }
                for (int m = 0; m < k && !best.exact(); m++) {
                    if (m != i && m != j) {
                        twoSteps(xs.get(i), xs.get(j), xs.get(m), j > i, m > j, best);
                    }
                }
            }
        }
    }

    private static void twoSteps(Operand x, Operand y, Operand z, boolean ab, boolean bc, Best best) {
        double a = x.value();
        double b = y.value();
        double c = z.value();
        if (best.ratios(x, y, z)) {
            if (c != 0 && ab) {
                best.offer((a + b) / c, () -> "(" + n(a) + " + " + n(b) + ") / " + n(c));
            }
            if (bc && b + c != 0) {
                best.offer(a / (b + c), () -> n(a) + " / (" + n(b) + " + " + n(c) + ")");
            }
        }
        if (ab && bc && best.sums(x, y, z)) {
            best.offer(a + b + c, () -> n(a) + " + " + n(b) + " + " + n(c));
        }
        if (c != 0 && a > b && best.ratios(x, y, z)) {
            best.offer((a - b) / c, () -> "(" + n(a) + " - " + n(b) + ") / " + n(c));
        }
        if (ab && a + b > c && c != a && c != b && best.sums(x, y, z)) { // a + b - a is b itself, no derivation
            best.offer(a + b - c, () -> n(a) + " + " + n(b) + " - " + n(c));
        }
    }

    /**
     * "151,000" for 151,410.24: a whole number with two or more trailing zeros and two or more digits before them,
     * read as a rounding to those zeros of a number the evidence states.
     */
    static Derivation rounded(Claim claim, Facts facts) {
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
                    return new Derivation(n(x) + " rounded to " + n(unit) + "s", new Operand(v, r.scale()));
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
}
