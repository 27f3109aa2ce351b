package dev.sift.ml;

import dev.sift.data.Numbers;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Distribution shift between a reference and a current sample of one column. PSI over the reference's
 * deciles (numbers) or categories (text), with empty bins smoothed to 1e-4; for numbers also the
 * two-sample Kolmogorov–Smirnov statistic and its asymptotic p-value. A column is flagged when PSI is at
 * least {@value #PSI_FLAG} or when KS has p below {@value #KS_P_FLAG} and D at least {@value #KS_D_FLAG}.
 */
public final class Drift {
    public static final double PSI_FLAG = 0.2;
    public static final double KS_P_FLAG = 0.01;
    public static final double KS_D_FLAG = 0.1;
    private static final double SMOOTH = 1e-4;

    private Drift() { }

    public record ColumnDrift(String column, String kind, double psi, double ks, double ksP, boolean flagged,
                              String detail) { }

    public static ColumnDrift numeric(String column, double[] reference, double[] current) {
        double[] ref = finite(reference);
        double[] cur = finite(current);
        if (ref.length == 0 || cur.length == 0) {
            return new ColumnDrift(column, "number", Double.NaN, Double.NaN, Double.NaN, false, "no values to compare");
        }
        Arrays.sort(ref);
        Arrays.sort(cur);
        double[] cuts = Arrays.stream(new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9})
                .map(q -> ref[(int) Math.min(ref.length - 1, Math.floor(q * ref.length))]).distinct().toArray();
        double psi = psi(binCounts(ref, cuts), binCounts(cur, cuts), ref.length, cur.length);
        double d = ks(ref, cur);
        double ne = (double) ref.length * cur.length / (ref.length + cur.length);
        double p = ksPValue(d, ne);
        boolean flagged = psi >= PSI_FLAG || (p < KS_P_FLAG && d >= KS_D_FLAG);
        String detail = "median " + Numbers.number(ref[ref.length / 2]) + " → " + Numbers.number(cur[cur.length / 2]);
        return new ColumnDrift(column, "number", psi, d, p, flagged, detail);
    }

    public static ColumnDrift categorical(String column, String[] reference, String[] current) {
        Map<String, Integer> r = counts(reference);
        Map<String, Integer> c = counts(current);
        Set<String> keys = new LinkedHashSet<>(r.keySet());
        keys.addAll(c.keySet());
        double[] rc = keys.stream().mapToDouble(k -> r.getOrDefault(k, 0)).toArray();
        double[] cc = keys.stream().mapToDouble(k -> c.getOrDefault(k, 0)).toArray();
        double psi = psi(rc, cc, reference.length, current.length);
        String top = keys.stream().max((a, b) -> Double.compare(
                Math.abs(share(c, a, current.length) - share(r, a, reference.length)),
                Math.abs(share(c, b, current.length) - share(r, b, reference.length)))).orElse("");
        String detail = keys.isEmpty() ? "no values" : "'" + top + "' " + Numbers.fixed(100 * share(r, top, reference.length), 1)
                + "% → " + Numbers.fixed(100 * share(c, top, current.length), 1) + "%";
        return new ColumnDrift(column, "category", psi, Double.NaN, Double.NaN, psi >= PSI_FLAG, detail);
    }

    private static double share(Map<String, Integer> m, String k, int n) {
        return n == 0 ? 0 : (double) m.getOrDefault(k, 0) / n;
    }

    private static Map<String, Integer> counts(String[] v) {
        Map<String, Integer> m = new HashMap<>();
        for (String s : v) {
            m.merge(s == null ? "(null)" : s, 1, Integer::sum);
        }
        return m;
    }

    /** Counts per bin: bin i holds values up to and including cuts[i]; the last bin the rest. */
    static double[] binCounts(double[] sorted, double[] cuts) {
        double[] counts = new double[cuts.length + 1];
        for (double v : sorted) {
            int b = 0;
            while (b < cuts.length && v > cuts[b]) {
                b++;
            }
            counts[b]++;
        }
        return counts;
    }

    static double psi(double[] ref, double[] cur, double nRef, double nCur) {
        double s = 0;
        for (int i = 0; i < ref.length; i++) {
            double a = Math.max(SMOOTH, ref[i] / nRef);
            double b = Math.max(SMOOTH, cur[i] / nCur);
            s += (b - a) * Math.log(b / a);
        }
        return s;
    }

    /** Two-sample KS statistic of sorted samples. */
    static double ks(double[] a, double[] b) {
        int i = 0;
        int j = 0;
        double d = 0;
        while (i < a.length && j < b.length) {
            double v = Math.min(a[i], b[j]);
            while (i < a.length && a[i] <= v) {
                i++;
            }
            while (j < b.length && b[j] <= v) {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / a.length - (double) j / b.length));
        }
        return d;
    }

    /** Asymptotic p-value of the KS statistic (Kolmogorov distribution with the usual small-sample correction). */
    static double ksPValue(double d, double ne) {
        double sq = Math.sqrt(ne);
        double lambda = (sq + 0.12 + 0.11 / sq) * d;
        if (lambda < 1e-3) {
            return 1;
        }
        double sum = 0;
        for (int k = 1; k <= 100; k++) {
            double term = 2 * Math.pow(-1, k - 1) * Math.exp(-2 * k * k * lambda * lambda);
            sum += term;
            if (Math.abs(term) < 1e-12) {
                break;
            }
        }
        return Math.max(0, Math.min(1, sum));
    }

    private static double[] finite(double[] v) {
        return Arrays.stream(v).filter(x -> !Double.isNaN(x)).toArray();
    }
}
