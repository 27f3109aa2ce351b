package dev.sift.ml;

import java.util.Locale;

/** Numbers as people read them in summaries: grouped thousands, at most 3 significant decimals. */
public final class Format {
    private Format() { }

    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.1f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    public static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
