package dev.sift.tool.analysis;

/**
 * Exponential smoothing: additive Holt-Winters (level, trend, season of length {@code period}) or, with
 * period &lt; 2, Holt's linear trend. Smoothing parameters are chosen by a grid search minimising the
 * one-step-ahead squared error; prediction intervals use the additive ETS variance (approximate).
 */
final class HoltWinters {
    private static final double[] GRID = grid();

    private final int period;
    private final double alpha;
    private final double beta;
    private final double gamma;
    private final double level;
    private final double trend;
    private final double[] season; // the last `period` seasonal terms, in time order
    private final double residualSd;
    private final double[] fitted; // one-step-ahead forecasts (NaN where none was made)

    private HoltWinters(int period, double alpha, double beta, double gamma, Run run) {
        this.period = period;
        this.alpha = alpha;
        this.beta = beta;
        this.gamma = gamma;
        this.level = run.level;
        this.trend = run.trend;
        this.season = run.lastSeason;
        this.residualSd = run.count == 0 ? 0 : Math.sqrt(run.sse / run.count);
        this.fitted = run.fitted;
    }

    /** The smallest series each model can be fitted to. */
    static int minimumPoints(int period) {
        return period >= 2 ? 2 * period : 4;
    }

    /** Fits the model with the best grid parameters; {@code period} &lt; 2 means no seasonality. */
    static HoltWinters fit(double[] y, int period) {
        int m = period >= 2 ? period : 0;
        if (y.length < minimumPoints(m)) {
            throw new IllegalArgumentException("Exponential smoothing" + (m > 0 ? " with a season of " + m : "")
                    + " needs at least " + minimumPoints(m) + " points, got " + y.length + ".");
        }
        double best = Double.POSITIVE_INFINITY;
        double[] bestParams = null;
        for (double a : GRID) {
            for (double b : GRID) {
                for (double g : m > 0 ? GRID : new double[] {0}) {
                    double sse = run(y, m, a, b, g).sse;
                    if (sse < best) {
                        best = sse;
                        bestParams = new double[] {a, b, g};
                    }
                }
            }
        }
        return new HoltWinters(m, bestParams[0], bestParams[1], bestParams[2],
                run(y, m, bestParams[0], bestParams[1], bestParams[2]));
    }

    private static double[] grid() {
        double[] g = new double[20];
        g[0] = 0.01;
        for (int i = 1; i < g.length; i++) {
            g[i] = i * 0.05;
        }
        return g;
    }

    private record Run(double level, double trend, double[] lastSeason, double sse, int count, double[] fitted) { }

    private static Run run(double[] y, int m, double a, double b, double g) {
        int n = y.length;
        double[] s = new double[n];
        double[] fitted = new double[n];
        java.util.Arrays.fill(fitted, Double.NaN);
        double l;
        double t;
        int start;
        if (m > 0) {
            double first = mean(y, 0, m);
            double second = mean(y, m, 2 * m);
            t = (second - first) / m;
            l = first + t * (m - 1) / 2.0; // the level at time m - 1
            for (int i = 0; i < m; i++) {
                s[i] = y[i] - (first + t * (i - (m - 1) / 2.0));
            }
            start = m;
        } else {
            l = y[0];
            t = y[1] - y[0];
            start = 1;
        }
        double sse = 0;
        int count = 0;
        for (int i = start; i < n; i++) {
            double seasonal = m > 0 ? s[i - m] : 0;
            double forecast = l + t + seasonal;
            fitted[i] = forecast;
            double err = y[i] - forecast;
            sse += err * err;
            count++;
            double previous = l;
            l = a * (y[i] - seasonal) + (1 - a) * (l + t);
            t = b * (l - previous) + (1 - b) * t;
            if (m > 0) {
                s[i] = g * (y[i] - l) + (1 - g) * seasonal;
            }
        }
        double[] last = m > 0 ? java.util.Arrays.copyOfRange(s, n - m, n) : new double[0];
        return new Run(l, t, last, sse, count, fitted);
    }

    private static double mean(double[] y, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += y[i];
        }
        return sum / (to - from);
    }

    /** Point forecasts for the next {@code h} periods. */
    double[] forecast(int h) {
        double[] out = new double[h];
        for (int k = 1; k <= h; k++) {
            out[k - 1] = level + k * trend + (period > 0 ? season[(k - 1) % period] : 0);
        }
        return out;
    }

    /**
     * Half-width of the prediction interval {@code k} steps ahead at normal quantile {@code z}: the additive
     * ETS variance σ²(1 + Σ c_j²), c_j = α + αβ·j + (1−α)γ·[j mod m = 0].
     */
    double halfWidth(int k, double z) {
        double sum = 1;
        for (int j = 1; j < k; j++) {
            double c = alpha + alpha * beta * j + (period > 0 && j % period == 0 ? (1 - alpha) * gamma : 0);
            sum += c * c;
        }
        return z * residualSd * Math.sqrt(sum);
    }

    int period() {
        return period;
    }

    double alpha() {
        return alpha;
    }

    double beta() {
        return beta;
    }

    double gamma() {
        return gamma;
    }

    double residualSd() {
        return residualSd;
    }

    double[] fitted() {
        return fitted.clone();
    }
}
