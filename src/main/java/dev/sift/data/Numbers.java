package dev.sift.data;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one way Sift writes a number for a person, on every face (answers, tables, reports, the app, summaries):
 * counts plain and grouped ("691", "1,029,342"); identifiers and years never grouped ("4960", "1997"); amounts
 * grouped with at most two decimals ("145,068.67"); rates and shares as a percentage with one or two decimals
 * ("2.24%", "11.1%"); any other number to four significant digits, and never more digits than its size needs
 * ("6.368", "111,719"). What a column holds ({@link Kind}) is read from its name and values by {@link #kindOf}.
 * Planner-facing text keeps full precision elsewhere: this is for people.
 */
public final class Numbers {
    /** What a column of numbers holds, which decides how its values are written. */
    public enum Kind {
        /** a key or code: as stored, never grouped */
        ID,
        /** a calendar year or other period number: never grouped */
        YEAR,
        /** a count of things: a whole number, grouped */
        COUNT,
        /** money or another measured quantity: grouped, at most two decimals */
        AMOUNT,
        /** a share in [0, 1]: a percentage */
        RATE,
        /** any other number: significant digits */
        NUMBER,
        /** not a number */
        TEXT;

        /** The kind's name on the wire ({@code ask --json} evidence {@code formats}). */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Pattern ID = Pattern.compile("(?i)(.*[_ ])?id|.*_id|.*_key|.*_code|.*_no|.*_number|zip|postcode");
    private static final Pattern YEAR = Pattern.compile("(?i)(.*_)?(year|yr|decade|month|quarter|week|day)(_.*)?");
    private static final Pattern COUNT = Pattern.compile("(?i)n|cnt|count|(.*_)?(count|cnt)(_.*)?|n_.*|num_.*|number_of_.*"
            + "|.*_(loans|clients|accounts|cards|rows|transactions|orders|customers|people|items|records)");
    private static final Pattern RATE = Pattern.compile("(?i).*(rate|share|ratio|pct|percent|percentage|proportion|fraction"
            + "|probability|prob|likelihood).*");
    private static final Pattern AMOUNT = Pattern.compile("(?i).*(amount|balance|payment|payments|salary|price|cost|revenue"
            + "|income|total|sum|value|volume|inflow|outflow|spend|sales|profit|avg|average|mean|median|min|max).*");

    private Numbers() { }

    /**
     * What a result column holds, from its name and values: identifiers by name (id, *_id, *_code), years and periods
     * by name with whole values, counts by name with whole values (n, count, *_count), rates by name with every value
     * in [0, 1], amounts by name; text when any value is not a number.
     */
    public static Kind kindOf(String column, List<?> values) {
        boolean numbers = false;
        boolean whole = true;
        boolean unit = true;
        for (Object v : values) {
            if (v == null) {
                continue;
            }
            if (!(v instanceof Number n)) {
                return Kind.TEXT;
            }
            numbers = true;
            double d = n.doubleValue();
            whole &= d == Math.rint(d);
            unit &= d >= 0 && d <= 1;
        }
        if (!numbers) {
            return Kind.TEXT;
        }
        String c = column == null ? "" : column.trim();
        if (whole && ID.matcher(c).matches()) {
            return Kind.ID;
        }
        if (whole && YEAR.matcher(c).matches()) {
            return Kind.YEAR;
        }
        if (unit && RATE.matcher(c).matches()) {
            return Kind.RATE;
        }
        if (whole && COUNT.matcher(c).matches()) {
            return Kind.COUNT;
        }
        if (AMOUNT.matcher(c).matches()) {
            return Kind.AMOUNT;
        }
        return whole ? Kind.COUNT : Kind.NUMBER;
    }

    /** A value of a column of {@code kind}; text and nulls as they are ("NULL" for null). */
    public static String format(Object v, Kind kind) {
        if (v == null) {
            return "NULL";
        }
        if (!(v instanceof Number n)) {
            return v.toString();
        }
        return switch (kind) {
            case ID, YEAR -> plain(n);
            case COUNT -> whole(n) ? grouped(n) : number(n.doubleValue());
            case AMOUNT -> amount(n.doubleValue());
            case RATE -> percent(n.doubleValue());
            case NUMBER, TEXT -> number(n);
        };
    }

    /** A count of things with its noun: "1 loan", "691 loans". */
    public static String count(long n, String singular, String plural) {
        return grouped(n) + " " + (n == 1 ? singular : plural);
    }

    /** A whole number grouped by thousands ("1,029,342"). */
    public static String grouped(Number n) {
        if (n instanceof BigInteger || n instanceof BigDecimal) {
            return String.format(Locale.ROOT, "%,d", new BigDecimal(n.toString()).toBigInteger());
        }
        return String.format(Locale.ROOT, "%,d", Math.round(n.doubleValue()));
    }

    /** An amount: grouped, at most two decimals, trailing zeros dropped ("145,068.67", "1,200"). */
    public static String amount(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "n/a";
        }
        BigDecimal b = BigDecimal.valueOf(d).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros();
        return group(b.scale() < 0 ? b.setScale(0) : b);
    }

    /**
     * A share in [0, 1] as a percentage: one decimal from 10 % up ("11.1%"), two below ("2.24%"), and at least
     * "< 0.01%" for a tiny non-zero share.
     */
    public static String percent(double share) {
        if (Double.isNaN(share) || Double.isInfinite(share)) {
            return "n/a";
        }
        double p = share * 100;
        if (p != 0 && Math.abs(p) < 0.005) {
            return (p < 0 ? "> -" : "< ") + "0.01%";
        }
        int decimals = Math.abs(p) >= 10 ? 1 : 2;
        BigDecimal b = BigDecimal.valueOf(p).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
        return (b.scale() < 0 ? b.setScale(0) : b).toPlainString() + "%";
    }

    /** Any number: whole numbers grouped, others to four significant digits (all of the whole part when it is longer). */
    public static String number(Number n) {
        if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte || n instanceof BigInteger) {
            return grouped(n);
        }
        return number(n.doubleValue());
    }

    /** As {@link #number(Number)}: 6.367583213 → "6.368", 111719.09999999999 → "111,719", 0.000123456 → "0.0001235". */
    public static String number(double d) {
        if (Double.isNaN(d)) {
            return "n/a";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "∞" : "-∞";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return grouped(d);
        }
        BigDecimal b = new BigDecimal(d);
        BigDecimal whole = b.setScale(0, RoundingMode.DOWN);
        int digits = Math.max(4, whole.signum() == 0 ? 0 : whole.precision());
        BigDecimal r = b.round(new MathContext(digits, RoundingMode.HALF_UP)).stripTrailingZeros();
        return group(r.scale() < 0 ? r.setScale(0) : r);
    }

    /** A number with a fixed count of decimals ("0.890"), for metrics whose precision is the point. */
    public static String fixed(double d, int decimals) {
        return Double.isNaN(d) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", d);
    }

    /** Identifiers and years: the stored digits, no grouping ("4960"). */
    private static String plain(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : number(d);
        }
        return n instanceof BigDecimal b ? b.stripTrailingZeros().toPlainString() : n.toString();
    }

    private static boolean whole(Number n) {
        double d = n.doubleValue();
        return d == Math.rint(d) && Math.abs(d) < 1e15;
    }

    /** A plain decimal with its whole part grouped by thousands. */
    private static String group(BigDecimal b) {
        String s = b.toPlainString();
        int dot = s.indexOf('.');
        String intPart = dot < 0 ? s : s.substring(0, dot);
        String frac = dot < 0 ? "" : s.substring(dot);
        boolean neg = intPart.startsWith("-");
        String digits = neg ? intPart.substring(1) : intPart;
        StringBuilder g = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (digits.length() - i) % 3 == 0) {
                g.append(',');
            }
            g.append(digits.charAt(i));
        }
        return (neg ? "-" : "") + g + frac;
    }
}
