package dev.sift.tool.analysis;

import java.util.List;

/**
 * The correlation ratio η between a categorical and a numeric column: the share of the numeric column's
 * variance explained by the categories, η² = SS_between / SS_total, computed from per-category count,
 * mean and population variance (which SQL aggregates in one pass).
 */
final class CorrelationRatio {
    private CorrelationRatio() { }

    /** One category's statistics of the numeric column. */
    record Group(long n, double mean, double varPop) { }

    /** η in [0, 1]; NaN when fewer than two rows or no variance. */
    static double eta(List<Group> groups) {
        long total = 0;
        double sum = 0;
        for (Group g : groups) {
            total += g.n();
            sum += g.n() * g.mean();
        }
        if (total < 2) {
            return Double.NaN;
        }
        double mean = sum / total;
        double between = 0;
        double within = 0;
        for (Group g : groups) {
            if (g.n() == 0) {
                continue;
            }
            between += g.n() * (g.mean() - mean) * (g.mean() - mean);
            within += g.n() * g.varPop();
        }
        double all = between + within;
        return all <= 0 ? Double.NaN : Math.sqrt(Math.min(1, between / all));
    }
}
