package dev.sift.ml;

import java.util.Arrays;
import java.util.Random;

/**
 * k-means on standardized columns (z-scores; missing values imputed with the column mean), k-means++
 * initialisation with a fixed seed, the best of {@value #INITS} starts. Without a given k, k in 2..8 is
 * chosen by the mean silhouette (computed on at most {@value #SILHOUETTE_ROWS} evenly spaced rows).
 */
public final class KMeans {
    public static final int INITS = 4;
    public static final int MAX_ITER = 100;
    public static final int MAX_K = 8;
    public static final int SILHOUETTE_ROWS = 1000;

    private KMeans() { }

    /** Cluster of each row, centroids in standardized units, the silhouette and the silhouette of each k tried. */
    public record Result(int k, int[] assignment, double[][] centroids, double silhouette, double[] silhouetteByK) { }

    /** {@code data[row][column]}; {@code k} null to choose it. */
    public static Result fit(double[][] data, Integer k, long seed) {
        double[][] z = standardize(data);
        int n = z.length;
        if (k != null) {
            int[] a = cluster(z, k, seed);
            return new Result(k, a, centroids(z, a, k), silhouette(z, a, k), new double[0]);
        }
        int maxK = Math.min(MAX_K, n - 1);
        double[] byK = new double[maxK + 1];
        Arrays.fill(byK, Double.NaN);
        int bestK = 2;
        int[] best = null;
        for (int c = 2; c <= maxK; c++) {
            int[] a = cluster(z, c, seed);
            byK[c] = silhouette(z, a, c);
            if (best == null || byK[c] > byK[bestK] + 1e-9) {
                bestK = c;
                best = a;
            }
        }
        return new Result(bestK, best, centroids(z, best, bestK), byK[bestK], byK);
    }

    static double[][] standardize(double[][] data) {
        int n = data.length;
        int d = n == 0 ? 0 : data[0].length;
        double[][] z = new double[n][d];
        for (int j = 0; j < d; j++) {
            double sum = 0;
            int cnt = 0;
            for (double[] row : data) {
                if (!Double.isNaN(row[j])) {
                    sum += row[j];
                    cnt++;
                }
            }
            double mean = cnt == 0 ? 0 : sum / cnt;
            double ss = 0;
            for (double[] row : data) {
                double v = Double.isNaN(row[j]) ? mean : row[j];
                ss += (v - mean) * (v - mean);
            }
            double sd = Math.sqrt(ss / Math.max(1, n));
            for (int i = 0; i < n; i++) {
                double v = Double.isNaN(data[i][j]) ? mean : data[i][j];
                z[i][j] = sd == 0 ? 0 : (v - mean) / sd;
            }
        }
        return z;
    }

    static int[] cluster(double[][] z, int k, long seed) {
        Random random = new Random(seed);
        int[] best = null;
        double bestInertia = Double.POSITIVE_INFINITY;
        for (int init = 0; init < INITS; init++) {
            double[][] c = plusPlus(z, k, random);
            int[] a = new int[z.length];
            for (int it = 0; it < MAX_ITER; it++) {
                boolean changed = false;
                for (int i = 0; i < z.length; i++) {
                    int nearest = nearest(z[i], c);
                    if (nearest != a[i] || it == 0) {
                        changed |= nearest != a[i];
                        a[i] = nearest;
                    }
                }
                double[][] moved = centroids(z, a, k);
                for (int j = 0; j < k; j++) {
                    if (count(a, j) > 0) {
                        c[j] = moved[j];
                    }
                }
                if (!changed && it > 0) {
                    break;
                }
            }
            double inertia = 0;
            for (int i = 0; i < z.length; i++) {
                inertia += dist2(z[i], c[a[i]]);
            }
            if (inertia < bestInertia - 1e-12) {
                bestInertia = inertia;
                best = a;
            }
        }
        return best;
    }

    private static double[][] plusPlus(double[][] z, int k, Random random) {
        double[][] c = new double[k][];
        c[0] = z[random.nextInt(z.length)].clone();
        double[] d2 = new double[z.length];
        for (int j = 1; j < k; j++) {
            double total = 0;
            for (int i = 0; i < z.length; i++) {
                double m = Double.POSITIVE_INFINITY;
                for (int q = 0; q < j; q++) {
                    m = Math.min(m, dist2(z[i], c[q]));
                }
                d2[i] = m;
                total += m;
            }
            double r = random.nextDouble() * total;
            int pick = z.length - 1;
            for (int i = 0; i < z.length; i++) {
                r -= d2[i];
                if (r <= 0) {
                    pick = i;
                    break;
                }
            }
            c[j] = z[pick].clone();
        }
        return c;
    }

    static double[][] centroids(double[][] z, int[] a, int k) {
        int d = z.length == 0 ? 0 : z[0].length;
        double[][] c = new double[k][d];
        int[] n = new int[k];
        for (int i = 0; i < z.length; i++) {
            n[a[i]]++;
            for (int j = 0; j < d; j++) {
                c[a[i]][j] += z[i][j];
            }
        }
        for (int q = 0; q < k; q++) {
            for (int j = 0; j < d; j++) {
                c[q][j] = n[q] == 0 ? 0 : c[q][j] / n[q];
            }
        }
        return c;
    }

    /** Mean silhouette over evenly spaced rows (all rows when there are few). */
    static double silhouette(double[][] z, int[] a, int k) {
        int n = z.length;
        int m = Math.min(SILHOUETTE_ROWS, n);
        int[] idx = new int[m];
        for (int i = 0; i < m; i++) {
            idx[i] = (int) ((long) i * n / m);
        }
        double total = 0;
        for (int i : idx) {
            double[] sum = new double[k];
            int[] cnt = new int[k];
            for (int j : idx) {
                if (j != i) {
                    sum[a[j]] += Math.sqrt(dist2(z[i], z[j]));
                    cnt[a[j]]++;
                }
            }
            if (cnt[a[i]] == 0) {
                continue; // a singleton's silhouette is 0
            }
            double own = sum[a[i]] / cnt[a[i]];
            double other = Double.POSITIVE_INFINITY;
            for (int q = 0; q < k; q++) {
                if (q != a[i] && cnt[q] > 0) {
                    other = Math.min(other, sum[q] / cnt[q]);
                }
            }
            if (other != Double.POSITIVE_INFINITY) {
                total += (other - own) / Math.max(own, other);
            }
        }
        return total / m;
    }

    private static int nearest(double[] p, double[][] c) {
        int best = 0;
        double bd = Double.POSITIVE_INFINITY;
        for (int j = 0; j < c.length; j++) {
            double d = dist2(p, c[j]);
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
        return best;
    }

    private static int count(int[] a, int j) {
        int n = 0;
        for (int v : a) {
            n += v == j ? 1 : 0;
        }
        return n;
    }

    private static double dist2(double[] x, double[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += (x[i] - y[i]) * (x[i] - y[i]);
        }
        return s;
    }
}
