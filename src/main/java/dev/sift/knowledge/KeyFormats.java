package dev.sift.knowledge;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keys that name the same thing in different formats ({@code businessid_12} ↔ {@code businessref_12},
 * {@code C-0042} ↔ {@code c42}, {@code 0042} ↔ {@code 42}): both sides are reduced to their number — the last
 * run of digits, without leading zeros — when every sampled value has one, and compared by containment. Only
 * when plain equality does not already join them (so a real key join is never shadowed), and only when the
 * values look like codes (a prefix or padding around a number), not like free numbers.
 */
public final class KeyFormats {
    /** Share of the referring side's sampled values that must be found on the key side after normalisation. */
    public static final double MIN_CONTAINMENT = 0.99;
    private static final Pattern CODE = Pattern.compile("^([^0-9]*?)([0-9]+)([^0-9]*)$");

    private KeyFormats() { }

    /** The DuckDB expression that reduces {@code column} (already quoted) to the number it carries, as text. */
    public static String normalise(String column) {
        return "ltrim(regexp_extract(CAST(" + column + " AS VARCHAR), '([0-9]+)[^0-9]*$', 1), '0')";
    }

    /** The Java twin of {@link #normalise}: null when the value carries no number. */
    static String number(String value) {
        if (value == null) {
            return null;
        }
        Matcher m = CODE.matcher(value.strip());
        if (!m.matches()) {
            return null;
        }
        return m.group(2).replaceFirst("^0+", "");
    }

    /**
     * Whether {@code refs} (values of the referring column) join {@code keys} once both are reduced to their
     * number, but not as they are: every value has a number, at least one side has a prefix, suffix or padding,
     * and at least {@link #MIN_CONTAINMENT} of the distinct refs are found among the keys.
     */
    public static boolean joinable(List<String> refs, List<String> keys) {
        if (refs.isEmpty() || keys.isEmpty()) {
            return false;
        }
        Set<String> rawKeys = new HashSet<>();
        Set<String> normKeys = new HashSet<>();
        boolean decorated = false;
        for (String k : keys) {
            String n = number(k);
            if (n == null) {
                return false;
            }
            rawKeys.add(k);
            normKeys.add(n);
            decorated |= !k.equals(n);
        }
        Set<String> distinct = new HashSet<>(refs);
        int found = 0;
        int raw = 0;
        for (String r : distinct) {
            String n = number(r);
            if (n == null) {
                return false;
            }
            decorated |= !r.equals(n);
            found += normKeys.contains(n) ? 1 : 0;
            raw += rawKeys.contains(r) ? 1 : 0;
        }
        boolean plainJoins = raw >= MIN_CONTAINMENT * distinct.size();
        return decorated && !plainJoins && found >= MIN_CONTAINMENT * distinct.size();
    }

    /** The join condition on the normalised keys, e.g. {@code ltrim(regexp_extract(...)) = ltrim(...)}. */
    public static String condition(String fromColumn, String toColumn) {
        return normalise(fromColumn) + " = " + normalise(toColumn);
    }

    /** Lower-case stems of a column name without id-like endings: {@code business_ref} → {@code business}. */
    static String stem(String column) {
        return column.toLowerCase(Locale.ROOT).replaceAll("_?(id|ref|key|code|no|number)$", "");
    }
}
