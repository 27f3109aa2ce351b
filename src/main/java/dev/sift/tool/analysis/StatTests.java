package dev.sift.tool.analysis;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.inference.ChiSquareTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The arithmetic of {@code stat_test}, on counts and aggregates already read from SQL: the statistics, their
 * degrees of freedom, p-values (distributions from Apache Commons Math), effect sizes and the warnings when an
 * assumption fails. Kept apart from the SQL so each formula is tested against values computed independently.
 */
final class StatTests {
    /** Below this expected count a chi-square cell makes the p-value unreliable (Cochran's rule of thumb). */
    static final double MIN_EXPECTED = 5;

    private StatTests() { }

    /**
     * One test's result: the statistic (e.g. "chi2", "t", "U", "z", "r"), its degrees of freedom (null when it has
     * none), the two-sided p-value, the effect size with its name, n, and the warnings.
     */
    record Outcome(String test, String statisticName, double statistic, Double df, double pValue, String effectName,
                   double effect, long n, List<String> warnings) {
        Outcome {
            warnings = List.copyOf(warnings);
        }
    }

    /** Chi-square test of independence on a contingency table (no continuity correction); Cramér's V. */
    static Outcome independence(long[][] table) {
        int rows = table.length;
        int cols = table[0].length;
        long n = 0;
        long[] rowSum = new long[rows];
        long[] colSum = new long[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                rowSum[i] += table[i][j];
                colSum[j] += table[i][j];
                n += table[i][j];
            }
        }
        ChiSquareTest test = new ChiSquareTest();
        double chi2 = test.chiSquare(table);
        double p = test.chiSquareTest(table);
        int below = 0;
        double min = Double.MAX_VALUE;
        for (long r : rowSum) {
            for (long c : colSum) {
                double e = (double) r * c / n;
                min = Math.min(min, e);
                below += e < MIN_EXPECTED ? 1 : 0;
            }
        }
        List<String> warnings = new ArrayList<>();
        if (below > 0) {
            warnings.add(expectedWarning(below, rows * cols, min));
        }
        double v = Math.sqrt(chi2 / (n * (double) (Math.min(rows, cols) - 1)));
        return new Outcome("chi-square test of independence", "chi2", chi2, (double) (rows - 1) * (cols - 1), p,
                "Cramér's V", v, n, warnings);
    }

    /** Chi-square goodness of fit: {@code expected} are weights (proportions or counts), rescaled to n; Cohen's w. */
    static Outcome goodnessOfFit(long[] observed, double[] expected) {
        long n = 0;
        for (long o : observed) {
            n += o;
        }
        double total = 0;
        for (double e : expected) {
            total += e;
        }
        int below = 0;
        double min = Double.MAX_VALUE;
        double[] scaled = new double[expected.length];
        for (int i = 0; i < expected.length; i++) {
            scaled[i] = expected[i] / total * n;
            min = Math.min(min, scaled[i]);
            below += scaled[i] < MIN_EXPECTED ? 1 : 0;
        }
        ChiSquareTest test = new ChiSquareTest();
        double chi2 = test.chiSquare(scaled, observed);
        double p = test.chiSquareTest(scaled, observed);
        List<String> warnings = new ArrayList<>();
        if (below > 0) {
            warnings.add(expectedWarning(below, expected.length, min));
        }
        return new Outcome("chi-square goodness of fit", "chi2", chi2, (double) expected.length - 1, p, "Cohen's w",
                Math.sqrt(chi2 / n), n, warnings);
    }

    private static String expectedWarning(int below, int cells, double min) {
        return below + " of " + cells + " cells have an expected count below 5 (smallest "
                + String.format(Locale.ROOT, "%.2f", min) + "): the chi-square p-value is unreliable; merge rare"
                + " categories (e.g. with CASE in run_sql) and test again";
    }

    /** One group's count, mean and sample variance. */
    record Moments(long n, double mean, double variance) { }

    /** Welch's t-test (unequal variances, Welch–Satterthwaite df); Cohen's d on the pooled standard deviation. */
    static Outcome welch(Moments a, Moments b) {
        double va = a.variance() / a.n();
        double vb = b.variance() / b.n();
        double se = Math.sqrt(va + vb);
        double t = (a.mean() - b.mean()) / se;
        double df = (va + vb) * (va + vb) / (va * va / (a.n() - 1) + vb * vb / (b.n() - 1));
        double p = se == 0 ? (a.mean() == b.mean() ? 1 : 0) : 2 * new TDistribution(df).cumulativeProbability(-Math.abs(t));
        double pooled = Math.sqrt(((a.n() - 1) * a.variance() + (b.n() - 1) * b.variance()) / (a.n() + b.n() - 2));
        List<String> warnings = new ArrayList<>();
        if (Math.min(a.n(), b.n()) < 30) {
            warnings.add("a group has fewer than 30 values: the t-test assumes roughly normal values there;"
                    + " mann_whitney does not");
        }
        return new Outcome("Welch's t-test", "t", se == 0 ? 0 : t, se == 0 ? null : df, p, "Cohen's d",
                pooled == 0 ? 0 : (a.mean() - b.mean()) / pooled, a.n() + b.n(), warnings);
    }

    /**
     * Mann–Whitney U on average ranks: U of the first group, normal approximation with tie and continuity
     * corrections (as scipy's default asymptotic method); the rank-biserial correlation as effect.
     *
     * @param rankSum the first group's sum of average ranks over both groups
     * @param ties    the sum of t³ − t over the groups of tied values
     */
    static Outcome mannWhitney(long n1, long n2, double rankSum, double ties) {
        double u = rankSum - n1 * (n1 + 1) / 2.0;
        double mu = n1 * (double) n2 / 2;
        long n = n1 + n2;
        double sigma = Math.sqrt(n1 * (double) n2 / 12 * ((n + 1) - ties / (n * (double) (n - 1))));
        double p = sigma == 0 ? 1 : Math.min(1, 2 * new NormalDistribution().cumulativeProbability(
                -Math.max(0, Math.abs(u - mu) - 0.5) / sigma));
        List<String> warnings = new ArrayList<>();
        if (Math.min(n1, n2) < 8) {
            warnings.add("a group has fewer than 8 values: the normal approximation of U is rough there");
        }
        return new Outcome("Mann–Whitney U test", "U", u, null, p, "rank-biserial correlation",
                2 * u / (n1 * (double) n2) - 1, n, warnings);
    }

    /** Two-proportion z-test on the pooled proportion; Cohen's h. */
    static Outcome twoProportions(long n1, long x1, long n2, long x2) {
        double p1 = (double) x1 / n1;
        double p2 = (double) x2 / n2;
        double pooled = (double) (x1 + x2) / (n1 + n2);
        double se = Math.sqrt(pooled * (1 - pooled) * (1.0 / n1 + 1.0 / n2));
        double z = se == 0 ? 0 : (p1 - p2) / se;
        double p = se == 0 ? 1 : 2 * new NormalDistribution().cumulativeProbability(-Math.abs(z));
        List<String> warnings = new ArrayList<>();
        if (Math.min(Math.min(x1, n1 - x1), Math.min(x2, n2 - x2)) < 5) {
            warnings.add("a group has fewer than 5 successes or failures: the normal approximation is unreliable;"
                    + " use stat_test chi_square on the two columns, or read the counts");
        }
        double h = 2 * Math.asin(Math.sqrt(p1)) - 2 * Math.asin(Math.sqrt(p2));
        return new Outcome("two-proportion z-test", "z", z, null, p, "Cohen's h", h, n1 + n2, warnings);
    }

    /** A correlation's two-sided p-value from the t distribution with n − 2 df (Pearson's, and Spearman's on ranks). */
    static Outcome correlation(String method, double r, long n) {
        double df = n - 2;
        double p;
        if (Math.abs(r) >= 1) {
            p = 0;
        } else {
            double t = r * Math.sqrt(df / (1 - r * r));
            p = 2 * new TDistribution(df).cumulativeProbability(-Math.abs(t));
        }
        List<String> warnings = new ArrayList<>();
        if (n < 10) {
            warnings.add("fewer than 10 pairs: the p-value rests on very little data");
        }
        return new Outcome(method.equals("spearman") ? "Spearman rank correlation" : "Pearson correlation",
                method.equals("spearman") ? "rho" : "r", r, df, p, method.equals("spearman") ? "rho" : "r", r, n, warnings);
    }
}
