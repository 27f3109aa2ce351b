package dev.sift.tool.analysis;

/**
 * A seasonality hint: the autocorrelation at the season's lag of a series after removing its linear trend,
 * and which position in the season (e.g. which month) is highest and lowest on average.
 */
record Seasonality(int period, double autocorrelation, int peak, int trough, String strength) {

    /** Null when the series is too short (fewer than two full seasons) or has no season length. */
    static Seasonality of(double[] y, int period) {
        if (period < 2 || y.length < 2 * period + 1) {
            return null;
        }
        OlsTrend trend = OlsTrend.fit(y);
        double[] r = new double[y.length];
        double mean = 0;
        for (int i = 0; i < y.length; i++) {
            r[i] = y[i] - trend.at(i);
            mean += r[i];
        }
        mean /= y.length;
        double denom = 0;
        for (double v : r) {
            denom += (v - mean) * (v - mean);
        }
        double num = 0;
        for (int i = period; i < y.length; i++) {
            num += (r[i] - mean) * (r[i - period] - mean);
        }
        double acf = denom == 0 ? 0 : num / denom;
        double[] sum = new double[period];
        int[] count = new int[period];
        for (int i = 0; i < y.length; i++) {
            sum[i % period] += r[i];
            count[i % period]++;
        }
        int peak = 0;
        int trough = 0;
        for (int k = 1; k < period; k++) {
            if (sum[k] / count[k] > sum[peak] / count[peak]) {
                peak = k;
            }
            if (sum[k] / count[k] < sum[trough] / count[trough]) {
                trough = k;
            }
        }
        String strength = acf >= 0.5 ? "strong" : acf >= 0.3 ? "moderate" : "none";
        return new Seasonality(period, acf, peak, trough, strength);
    }
}
