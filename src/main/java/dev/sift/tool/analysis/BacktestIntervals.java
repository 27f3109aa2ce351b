package dev.sift.tool.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Forecast intervals from the forecast's own errors. The model is refitted at each of the last origins of the
 * series (rolling origin: fitted on the points before it, forecasting the points after), and the errors are kept
 * per horizon. The 95 % half-width at horizon h is the largest of: the conformal quantile of the absolute errors at
 * that horizon (the ⌈(m + 1)·0.95⌉-th smallest of m, when m ≥ 19) or the normal interval from their root mean
 * square, whichever is wider; the same from the errors of every backtested horizon pooled (a few origins per horizon
 * are too few to trust a narrow one-step interval, and a business series' misses come from shifts of level as much
 * as from the distance ahead); and the model's own approximate interval. Beyond the last backtested horizon the
 * width grows with √h.
 * The coverage reported is honest: each backtest error is checked against the interval built without its origin.
 */
final class BacktestIntervals {
    static final double LEVEL = 0.95;
    static final double Z = Forecast.Z95;
    /** Rolling origins at most (each is one refit of the model). */
    static final int MAX_ORIGINS = 24;

    private final double[][] errors; // [horizon - 1][origin] (NaN where the origin had no point that far ahead)
    private final double mae;
    private final int checked;
    private final int covered;

    private BacktestIntervals(double[][] errors) {
        this.errors = errors;
        double s = 0;
        int n = 0;
        int in = 0;
        int all = 0;
        for (int h = 0; h < errors.length; h++) {
            for (int o = 0; o < errors[h].length; o++) {
                double e = errors[h][o];
                if (Double.isNaN(e)) {
                    continue;
                }
                s += Math.abs(e);
                n++;
                double w = wider(empirical(h, o), pooled(o));
                if (!Double.isNaN(w)) {
                    all++;
                    in += Math.abs(e) <= w ? 1 : 0;
                }
            }
        }
        this.mae = n == 0 ? Double.NaN : s / n;
        this.checked = all;
        this.covered = in;
    }

    /**
     * Refits the model at the last origins of {@code y} and keeps its errors up to {@code horizons} steps ahead;
     * an origin needs {@code minFit} points before it.
     */
    static BacktestIntervals of(double[] y, int season, int horizons, int minFit) {
        int n = y.length;
        int first = Math.max(minFit, n - horizons - MAX_ORIGINS + 1);
        int origins = Math.max(0, n - first);
        double[][] errors = new double[horizons][origins];
        for (double[] row : errors) {
            java.util.Arrays.fill(row, Double.NaN);
        }
        for (int o = 0; o < origins; o++) {
            int t = first + o;
            int ahead = Math.min(horizons, n - t);
            double[] f = HoltWinters.fit(java.util.Arrays.copyOfRange(y, 0, t), season).forecast(ahead);
            for (int h = 0; h < ahead; h++) {
                errors[h][o] = y[t + h] - f[h];
            }
        }
        return new BacktestIntervals(errors);
    }

    /** The 95 % half-width {@code k} steps ahead, at least the model's own ({@code model}). */
    double halfWidth(int k, double model) {
        int h = Math.min(k, errors.length) - 1;
        while (h >= 0 && count(h, -1) < 2) {
            h--;
        }
        if (h < 0) {
            return model;
        }
        double w = wider(empirical(h, -1), pooled(-1)) * Math.sqrt((double) k / (h + 1));
        return Math.max(model, w);
    }

    /** The larger of two widths, either of which may be NaN (none). */
    private static double wider(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    /** Mean absolute error over every backtest forecast. */
    double mae() {
        return mae;
    }

    /** Backtest errors checked against an interval built without their origin, and how many fell inside. */
    int checked() {
        return checked;
    }

    int covered() {
        return covered;
    }

    /** Errors at horizon {@code h + 1} kept (without origin {@code skip}; -1 skips none). */
    int count(int h, int skip) {
        int c = 0;
        for (int o = 0; o < errors[h].length; o++) {
            c += o != skip && !Double.isNaN(errors[h][o]) ? 1 : 0;
        }
        return c;
    }

    /** The half-width from the errors at horizon {@code h + 1} but origin {@code skip}'s; NaN with fewer than 2. */
    private double empirical(int h, int skip) {
        return width(h, h, skip);
    }

    /** The half-width from the errors of every horizon but origin {@code skip}'s. */
    private double pooled(int skip) {
        return width(0, errors.length - 1, skip);
    }

    private double width(int fromH, int toH, int skip) {
        List<Double> abs = new ArrayList<>();
        double ss = 0;
        for (int h = fromH; h <= toH; h++) {
            for (int o = 0; o < errors[h].length; o++) {
                double e = errors[h][o];
                if (o != skip && !Double.isNaN(e)) {
                    abs.add(Math.abs(e));
                    ss += e * e;
                }
            }
        }
        int m = abs.size();
        if (m < 2) {
            return Double.NaN;
        }
        double normal = Z * Math.sqrt(ss / m);
        int rank = (int) Math.ceil((m + 1) * LEVEL);
        if (rank > m) {
            return normal;
        }
        java.util.Collections.sort(abs);
        return Math.max(normal, abs.get(rank - 1));
    }
}
