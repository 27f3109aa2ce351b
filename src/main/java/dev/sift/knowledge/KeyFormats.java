package dev.sift.knowledge;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keys that name the same thing in different formats ({@code businessid_12} ↔ {@code businessref_12},
 * {@code C-0042} ↔ {@code c42}, {@code 0042} ↔ {@code 42}): both sides are reduced to their number — the last
 * run of digits, without leading zeros — and compared by containment ({@link KgBuilder} measures it). Tried
 * only when plain equality does not already join them (so a real key join is never shadowed), between columns
 * whose names share a stem, and only when the values look like codes (a prefix or padding around a number),
 * not like free numbers.
 */
public final class KeyFormats {
    /** The last run of digits, as the SQL's {@code regexp_extract(…, '([0-9]+)[^0-9]*$', 1)} finds it. */
    private static final Pattern LAST = Pattern.compile("([0-9]+)[^0-9]*$");
    private static final String LAST_NUMBER = "'([0-9]+)[^0-9]*$'";

    private KeyFormats() { }

    /**
     * The expression that reduces {@code column} (already quoted) to the number it carries, as text: DuckDB's SQL, like
     * all SQL Sift writes, rendered for a live engine where it runs.
     */
    public static String normalise(String column) {
        return "ltrim(regexp_extract(CAST(" + column + " AS VARCHAR), " + LAST_NUMBER + ", 1), '0')";
    }

    /** The Java twin of {@link #normalise}: null when the value carries no number. */
    static String number(String value) {
        if (value == null) {
            return null;
        }
        Matcher m = LAST.matcher(value.strip());
        return m.find() ? m.group(1).replaceFirst("^0+", "") : null;
    }

    /**
     * Whether two sampled values look like the same kind of code in different formats: each carries a number,
     * they differ as they are, and at least one has a prefix, a suffix or padding around its number (two plain
     * numbers are not a format question).
     */
    static boolean codes(String a, String b) {
        String na = number(a);
        String nb = number(b);
        if (na == null || nb == null || a.strip().equals(b.strip())) {
            return false;
        }
        return !a.strip().equals(na) || !b.strip().equals(nb);
    }

    /** The join condition on the normalised keys, e.g. {@code ltrim(regexp_extract(...)) = ltrim(...)}. */
    public static String condition(String fromColumn, String toColumn) {
        return normalise(fromColumn) + " = " + normalise(toColumn);
    }

    /** Lower-case stem of a column name without id-like endings: {@code business_ref} → {@code business}. */
    static String stem(String column) {
        return column.toLowerCase(Locale.ROOT).replaceAll("_?(id|ref|key|code|no|number)$", "");
    }
}
