package dev.sift.data;

/**
 * Distinct counts as tools state them: exact ({@code count(DISTINCT)}) on tables of up to {@link #EXACT_UP_TO} rows,
 * where DuckDB counts them in well under a second; beyond, the HyperLogLog estimate, said to be one ("about 1,300").
 */
public final class DistinctCount {
    public static final long EXACT_UP_TO = 5_000_000;

    private DistinctCount() { }

    /** Whether a table of {@code rows} rows is counted exactly (unknown, negative: yes, so the count is never mislabelled). */
    public static boolean exact(long rows) {
        return rows <= EXACT_UP_TO;
    }

    /** The aggregate counting the distinct values of the quoted column {@code q}. */
    public static String sql(String q, long rows) {
        return (exact(rows) ? "count(DISTINCT " : "approx_count_distinct(") + q + ")";
    }

    /** "1,461 distinct", or "about 1,300 distinct" for an estimate (rounded to its two leading digits). */
    public static String describe(long n, long rows) {
        if (exact(rows)) {
            return String.format(java.util.Locale.ROOT, "%,d distinct", n);
        }
        double scale = n < 100 ? 1 : Math.pow(10, Math.floor(Math.log10(n)) - 1);
        return String.format(java.util.Locale.ROOT, "about %,d distinct", Math.round(Math.round(n / scale) * scale));
    }
}
