package dev.sift.agent.grounding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The deterministic groundedness check: each claim of an answer must be found in the evidence — a number
 * within its written rounding (percentages also as fractions, and back), a date, an id or quoted value
 * in the evidence's text — or follow from cited numbers by one simple step: the difference, ratio, share
 * change or sum of two numbers the answer cites, a row count or a column's sum.
 */
public final class AnswerCheck {

    /** The claims an answer makes and those no evidence supports. */
    public record Result(List<Claim> claims, List<Claim> unsupported) {
        public boolean grounded() {
            return unsupported.isEmpty();
        }

        /** "4,812, 'Praha'" — the unsupported claims as written, for notes and the repair message. */
        public String unsupportedText() {
            return unsupported.stream().map(Claim::text).distinct().collect(Collectors.joining(", "));
        }
    }

    private AnswerCheck() { }

    public static Result check(String answer, Facts facts) {
        List<Claim> claims = ClaimExtractor.claims(answer);
        List<Claim> open = new ArrayList<>();
        double[] cited = new double[claims.size() * 2];
        int c = 0;
        for (Claim claim : claims) {
            switch (claim.kind()) {
                case NUMBER, PERCENT -> {
                    Claim.Reading hit = direct(claim, facts);
                    if (hit == null) {
                        open.add(claim);
                    } else {
                        cited[c++] = Math.abs(hit.value());
                    }
                }
                case DATE -> {
                    if (claim.date().stream().noneMatch(d -> facts.hasDate(d) || facts.mentions(d))) {
                        open.add(claim);
                    }
                }
                case ID -> {
                    if (!facts.mentions(claim.value()) && !idDigitsStated(claim.value(), facts)) {
                        open.add(claim);
                    }
                }
                case VALUE -> {
                    if (!facts.mentions(claim.value().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT))) {
                        open.add(claim);
                    }
                }
            }
        }
        if (open.isEmpty()) {
            return new Result(List.copyOf(claims), List.of());
        }
        double[] pool = concat(Arrays.copyOf(cited, c), facts.pool());
        List<Claim> unsupported = new ArrayList<>();
        for (Claim claim : open) {
            if (!claim.numeric() || !derived(claim, pool)) {
                unsupported.add(claim);
            }
        }
        return new Result(List.copyOf(claims), List.copyOf(unsupported));
    }

    private static Claim.Reading direct(Claim claim, Facts facts) {
        for (Claim.Reading r : claim.readings()) {
            if (facts.supports(r)) {
                return r;
            }
        }
        return null;
    }

    /** One step from two pool values: a − b, a / b, (a − b) / b, a + b. */
    private static boolean derived(Claim claim, double[] pool) {
        for (Claim.Reading r : claim.readings()) {
            double v = Math.abs(r.value());
            double tol = r.tolerance();
            for (int i = 0; i < pool.length; i++) {
                double a = pool[i];
                for (int j = 0; j < pool.length; j++) {
                    if (i == j) {
                        continue;
                    }
                    double b = pool[j];
                    if (near(Math.abs(a - b), v, tol) || near(a + b, v, tol)
                            || b != 0 && (near(a / b, v, tol) || near(Math.abs(a - b) / b, v, tol))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean near(double x, double v, double tol) {
        return x >= v - tol * (1 + 1e-9) - 1e-12 && x <= v + 2 * tol * (1 + 1e-9) + 1e-12;
    }

    private static boolean idDigitsStated(String id, Facts facts) {
        String digits = id.replaceAll("\\D+", "");
        return !digits.isEmpty() && digits.length() < 16 && facts.supports(new Claim.Reading(Long.parseLong(digits), 0));
    }

    private static double[] concat(double[] a, double[] b) {
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
