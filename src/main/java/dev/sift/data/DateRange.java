package dev.sift.data;

/**
 * Dates a careful analyst questions, the same in the load report and in {@code data_quality_report}: dates before
 * 1900 (placeholders such as 1900-01-01, or typos) and dates after today (a record of the past dated in the future:
 * usually an error of the source, such as a film released in 2046). Conditions on a DATE or TIMESTAMP column.
 */
public final class DateRange {
    public static final String EARLIEST = "1900-01-01";

    private DateRange() { }

    /** The column {@code q} (quoted) holds a date before {@link #EARLIEST}. */
    public static String tooEarly(String q) {
        return "CAST(" + q + " AS DATE) < DATE '" + EARLIEST + "'";
    }

    /** The column {@code q} (quoted) holds a date after today. */
    public static String future(String q) {
        return "CAST(" + q + " AS DATE) > current_date";
    }

    /** Either of the above. */
    public static String outOfRange(String q) {
        return "(" + tooEarly(q) + " OR " + future(q) + ")";
    }

    /** Whether a column type is a date or a timestamp. */
    public static boolean temporal(String type) {
        String t = type.toUpperCase(java.util.Locale.ROOT);
        return t.equals("DATE") || t.startsWith("TIMESTAMP");
    }
}
