package dev.sift.ml;

import dev.sift.data.Numbers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Robust outlier scores per row: for each column the robust z-score {@code 0.6745·(x − median)/MAD}
 * (when MAD is 0, the IQR/1.349 is the scale; a column with neither spread is skipped). A row is unusual
 * when any column's |z| exceeds the threshold; its reasons name the column, the value, how far it is from
 * the median and the IQR fences (Q1 − 1.5·IQR, Q3 + 1.5·IQR). A column whose farthest value stays within the
 * threshold (a loan duration of five values) can flag no row, and the result says so rather than staying silent.
 */
public final class Anomalies {
    public static final double DEFAULT_THRESHOLD = 3.5;

    private Anomalies() { }

    public record ColumnStats(String column, double median, double scale, double q1, double q3) { }

    public record Flagged(int row, double score, List<String> reasons) { }

    /** The scores, the rows flagged, the columns skipped, and the columns that could flag no row, with why. */
    public record Result(List<ColumnStats> stats, List<Flagged> flagged, List<String> skipped, List<String> unflaggable) { }

    /** {@code data[column][row]}. */
    public static Result scan(List<String> columns, double[][] data, double threshold) {
        List<ColumnStats> stats = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> unflaggable = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            stats.add(columnStats(columns.get(c), data[c], threshold, skipped, unflaggable));
        }
        int rows = data.length == 0 ? 0 : data[0].length;
        List<Flagged> flagged = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            double score = 0;
            List<double[]> hits = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                ColumnStats s = stats.get(c);
                double x = data[c][r];
                if (s == null || Double.isNaN(x)) {
                    continue;
                }
                double z = (x - s.median()) / s.scale();
                score = Math.max(score, Math.abs(z));
                if (Math.abs(z) > threshold) {
                    hits.add(new double[] {c, z, x});
                }
            }
            if (!hits.isEmpty()) {
                hits.sort(Comparator.comparingDouble((double[] h) -> -Math.abs(h[1])));
                List<String> reasons = new ArrayList<>();
                for (double[] h : hits) {
                    ColumnStats s = stats.get((int) h[0]);
                    double iqr = s.q3() - s.q1();
                    reasons.add(s.column() + " = " + Numbers.number(h[2]) + " is " + Numbers.fixed(Math.abs(h[1]), 1)
                            + " robust SDs " + (h[1] > 0 ? "above" : "below") + " the median " + Numbers.number(s.median())
                            + " (IQR fences " + Numbers.number(s.q1() - 1.5 * iqr) + " to " + Numbers.number(s.q3() + 1.5 * iqr) + ")");
                }
                flagged.add(new Flagged(r, score, reasons));
            }
        }
        flagged.sort(Comparator.comparingDouble((Flagged f) -> -f.score()).thenComparingInt(Flagged::row));
        return new Result(stats.stream().filter(java.util.Objects::nonNull).toList(), flagged, skipped, unflaggable);
    }

    /**
     * The median, scale and quartiles of one column, or null when it has no values or no spread (then named in
     * {@code skipped}); a column none of whose values can pass {@code threshold} is named in {@code unflaggable}.
     */
    private static ColumnStats columnStats(String column, double[] values, double threshold, List<String> skipped,
                                           List<String> unflaggable) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            skipped.add(column + " (no values)");
            return null;
        }
        double median = quantile(v, 0.5);
        double[] dev = Arrays.stream(v).map(x -> Math.abs(x - median)).sorted().toArray();
        double mad = quantile(dev, 0.5) / 0.6745;
        double q1 = quantile(v, 0.25);
        double q3 = quantile(v, 0.75);
        double scale = mad > 0 ? mad : (q3 - q1) / 1.349;
        if (scale <= 0) {
            skipped.add(column + " (no spread)");
            return null;
        }
        double reach = Math.max(median - v[0], v[v.length - 1] - median) / scale;
        if (reach <= threshold) {
            unflaggable.add(column + " (" + Arrays.stream(v).distinct().count() + " distinct values, " + Numbers.number(v[0])
                    + " to " + Numbers.number(v[v.length - 1]) + ": the farthest is " + Numbers.fixed(reach, 1)
                    + " robust SDs from the median, within " + Numbers.number(threshold) + ")");
        }
        return new ColumnStats(column, median, scale, q1, q3);
    }

    /** Linear-interpolated quantile of sorted values. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}
