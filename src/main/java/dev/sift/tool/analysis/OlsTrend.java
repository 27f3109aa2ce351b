package dev.sift.tool.analysis;

/**
 * Ordinary least squares of a series on its index (0, 1, 2, …): slope, intercept, R² and the slope's
 * two-sided p-value from Student's t with n − 2 degrees of freedom.
 */
record OlsTrend(int n, double slope, double intercept, double r2, double slopeStdErr, double t, double pValue) {

    static OlsTrend fit(double[] y) {
        double[] x = new double[y.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
        }
        return fit(x, y);
    }

    static OlsTrend fit(double[] x, double[] y) {
        int n = y.length;
        if (n < 3) {
            throw new IllegalArgumentException("A linear trend needs at least 3 points, got " + n + ".");
        }
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        double slope = sxy / sxx;
        double intercept = my - slope * mx;
        double sse = Math.max(0, syy - slope * sxy);
        double r2 = syy == 0 ? 1 : 1 - sse / syy;
        double se = Math.sqrt(sse / (n - 2) / sxx);
        double t = se == 0 ? (slope == 0 ? 0 : Double.POSITIVE_INFINITY * Math.signum(slope)) : slope / se;
        double p = Double.isInfinite(t) ? 0 : StudentT.twoSidedP(t, n - 2);
        return new OlsTrend(n, slope, intercept, r2, se, t, p);
    }

    double at(double x) {
        return intercept + slope * x;
    }

    /** Student's t distribution via the regularized incomplete beta function (Numerical Recipes' continued fraction). */
    static final class StudentT {
        private StudentT() { }

        /** P(|T| ≥ |t|) for T with {@code df} degrees of freedom. */
        static double twoSidedP(double t, double df) {
            double x = df / (df + t * t);
            return Math.min(1, Math.max(0, incompleteBeta(df / 2, 0.5, x)));
        }

        static double incompleteBeta(double a, double b, double x) {
            if (x <= 0) {
                return 0;
            }
            if (x >= 1) {
                return 1;
            }
            double lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
            if (x < (a + 1) / (a + b + 2)) {
                return Math.exp(lnFront) * continuedFraction(a, b, x) / a;
            }
            return 1 - Math.exp(lnFront) * continuedFraction(b, a, 1 - x) / b;
        }

        private static double continuedFraction(double a, double b, double x) {
            final double tiny = 1e-300;
            double c = 1;
            double d = 1 - (a + b) * x / (a + 1);
            d = 1 / (Math.abs(d) < tiny ? tiny : d);
            double h = d;
            for (int m = 1; m <= 300; m++) {
                int m2 = 2 * m;
                double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
                d = 1 / nonZero(1 + aa * d, tiny);
                c = nonZero(1 + aa / c, tiny);
                h *= d * c;
                aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
                d = 1 / nonZero(1 + aa * d, tiny);
                c = nonZero(1 + aa / c, tiny);
                double del = d * c;
                h *= del;
                if (Math.abs(del - 1) < 1e-14) {
                    break;
                }
            }
            return h;
        }

        private static double nonZero(double v, double tiny) {
            return Math.abs(v) < tiny ? tiny : v;
        }

        /** Lanczos approximation of ln Γ(x), x > 0. */
        static double logGamma(double x) {
            double[] g = {676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
                    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
            if (x < 0.5) {
                return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
            }
            x -= 1;
            double a = 0.99999999999980993;
            double t = x + 7.5;
            for (int i = 0; i < g.length; i++) {
                a += g[i] / (x + i + 1);
            }
            return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
        }
    }
}
