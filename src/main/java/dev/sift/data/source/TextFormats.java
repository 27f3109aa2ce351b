package dev.sift.data.source;

import dev.sift.data.Sql;

import java.util.Arrays;
import java.util.List;

/**
 * The ways of writing a date, a timestamp or a number that {@link TextTypes} recognises in a text column: DuckDB's
 * CSV-sniffer idea of candidate formats, each tried on the values. A format is a full-match regex and its readings:
 * strptime formats, several when the text does not say the day/month order ({@code 07/04/2021}). The values decide
 * between readings: when exactly one reading turns every value into a valid date (a value like {@code 13/04/2021}
 * rules out month first), the column is typed and the report says which value showed it; when both do, it stays
 * text. Two-digit years are never typed (the century is not in the data): the report gives the fix.
 */
final class TextFormats {
    /**
     * A recognised way of writing a date or number: a full-match regex, its kind (DATE, TIMESTAMP or NUMBER), its
     * readings (each one or more strptime formats separated by '|', tried in turn; none: an ISO timestamp, cast) and
     * whether its year has two digits.
     */
    record Format(String name, String regex, String kind, List<String> readings, boolean twoDigitYear) {
        boolean number() {
            return kind.equals("NUMBER");
        }

        /** Digits with leading zeros: a code (zip code, county id), kept as text. */
        boolean code() {
            return kind.equals("CODE");
        }

        /** A date or timestamp format whose values can be typed without the user (its year has four digits). */
        boolean convertible() {
            return !number() && !code() && !twoDigitYear;
        }

        /** One reading only: the text says which part is the day. */
        boolean unambiguous() {
            return readings.size() <= 1;
        }

        /** The value {@code v} (text) read with reading {@code r} of this format, NULL when it is not a valid one. */
        String tryConvert(String v, int r) {
            return readings.isEmpty() ? "TRY_CAST(replace(" + v + ", 'T', ' ') AS TIMESTAMP)"
                    : "CAST(try_strptime(" + v + ", " + list(readings.get(r)) + ") AS " + kind + ")";
        }

        /** As {@link #tryConvert} with the only reading, failing the statement when a value is not a valid one. */
        String strictConvert(String v) {
            return readings.isEmpty() ? "CAST(replace(" + v + ", 'T', ' ') AS TIMESTAMP)"
                    : "CAST(strptime(" + v + ", " + list(readings.get(0)) + ") AS " + kind + ")";
        }

        /** Reading {@code r} as written after {@code --types t.c=kind:}. */
        String spec(int r) {
            return readings.isEmpty() ? (name.endsWith(":SS") ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M") : readings.get(r);
        }

        /** Slots for per-reading counts: one for a cast. */
        int slots() {
            return Math.max(1, readings.size());
        }
    }

    private static String list(String reading) {
        return "[" + String.join(", ", Arrays.stream(reading.split("\\|")).map(Sql::quoteString).toList()) + "]";
    }

    private static Format date(String name, String regex, String... readings) {
        return new Format(name, regex, "DATE", List.of(readings), false);
    }

    private static Format timestamp(String name, String regex, String... readings) {
        return new Format(name, regex, "TIMESTAMP", List.of(readings), false);
    }

    private static Format twoDigit(String name, String regex, String reading) {
        return new Format(name, regex, "DATE", List.of(reading), true);
    }

    private static final String MON = "[A-Za-z]{3,9}\\.?";
    private static final String HM = "\\d{1,2}:\\d{2}";

    static final List<Format> FORMATS = List.of(
            date("YYYY-MM-DD", "\\d{4}-\\d{2}-\\d{2}", "%Y-%m-%d"),
            date("YYYY/MM/DD", "\\d{4}/\\d{2}/\\d{2}", "%Y/%m/%d"),
            timestamp("YYYY-MM-DD HH:MM", "\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}"),
            timestamp("YYYY-MM-DD HH:MM:SS", "\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?"),
            // ISO 8601 in UTC, as JavaScript and many APIs write it ("2000-01-01T08:00:00.000Z"): the cast reads the Z
            timestamp("UTC YYYY-MM-DDTHH:MM:SS", "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?Z"),
            timestamp("YYYY/MM/DD HH:MM", "\\d{4}/\\d{1,2}/\\d{1,2} " + HM, "%Y/%m/%d %H:%M"),
            timestamp("YYYY/MM/DD HH:MM:SS", "\\d{4}/\\d{1,2}/\\d{1,2} " + HM + ":\\d{2}", "%Y/%m/%d %H:%M:%S"),
            date("DD.MM.YYYY", "\\d{1,2}\\.\\d{1,2}\\.\\d{4}", "%d.%m.%Y"),
            timestamp("DD.MM.YYYY HH:MM", "\\d{1,2}\\.\\d{1,2}\\.\\d{4} " + HM, "%d.%m.%Y %H:%M"),
            date("DD/MM/YYYY or MM/DD/YYYY", "\\d{1,2}/\\d{1,2}/\\d{4}", "%d/%m/%Y", "%m/%d/%Y"),
            timestamp("DD/MM/YYYY HH:MM or MM/DD/YYYY HH:MM", "\\d{1,2}/\\d{1,2}/\\d{4} " + HM + "(:\\d{2})?",
                    "%d/%m/%Y %H:%M|%d/%m/%Y %H:%M:%S", "%m/%d/%Y %H:%M|%m/%d/%Y %H:%M:%S"),
            timestamp("DD/MM/YYYY HH:MM AM or MM/DD/YYYY HH:MM AM", "\\d{1,2}/\\d{1,2}/\\d{4} " + HM + "(:\\d{2})? ?[AaPp][Mm]",
                    "%d/%m/%Y %I:%M %p|%d/%m/%Y %I:%M:%S %p|%d/%m/%Y %I:%M%p", "%m/%d/%Y %I:%M %p|%m/%d/%Y %I:%M:%S %p|%m/%d/%Y %I:%M%p"),
            date("DD-MM-YYYY or MM-DD-YYYY", "\\d{1,2}-\\d{1,2}-\\d{4}", "%d-%m-%Y", "%m-%d-%Y"),
            date("Mon DD YYYY", MON + " \\d{1,2} \\d{4}", "%b %d %Y|%B %d %Y|%b. %d %Y"),
            date("Mon DD, YYYY", MON + " \\d{1,2}, \\d{4}", "%b %d, %Y|%B %d, %Y|%b. %d, %Y"),
            date("DD Mon YYYY", "\\d{1,2} " + MON + ",? \\d{4}", "%d %b %Y|%d %B %Y|%d %b, %Y|%d %B, %Y"),
            date("DD-Mon-YYYY", "\\d{1,2}-[A-Za-z]{3}-\\d{4}", "%d-%b-%Y"),
            date("YYYY-Mon-DD", "\\d{4}-[A-Za-z]{3}-\\d{1,2}", "%Y-%b-%d"),
            timestamp("Mon DD YYYY HH:MM", MON + " \\d{1,2},? \\d{4},? " + HM,
                    "%b %d %Y %H:%M|%B %d %Y %H:%M|%b %d, %Y %H:%M|%B %d, %Y %H:%M|%b %d, %Y, %H:%M|%B %d, %Y, %H:%M"),
            timestamp("DD Mon YYYY HH:MM", "\\d{1,2} " + MON + ",? \\d{4},? " + HM + "(:\\d{2})?",
                    "%d %b %Y %H:%M|%d %B %Y %H:%M|%d %b %Y %H:%M:%S|%d %B %Y %H:%M:%S|%d %B %Y, %H:%M|%d %b %Y, %H:%M"),
            twoDigit("NN/NN/YY (two-digit year)", "\\d{1,2}/\\d{1,2}/\\d{2}", "%m/%d/%y"),
            twoDigit("DD-Mon-YY (two-digit year)", "\\d{1,2}-[A-Za-z]{3}-\\d{2}", "%d-%b-%y"),
            twoDigit("Mon DD, YY (two-digit year)", MON + " \\d{1,2},? '?\\d{2}", "%b %d %y"),
            new Format("code with leading zeros", "0\\d+", "CODE", List.of(), false),
            new Format("number with currency or thousands separators",
                    "[-+]?[£$€]?\\s?[-+]?(\\d{1,3}(,\\d{3})+|0|[1-9]\\d*)(\\.\\d+)?", "NUMBER", List.of(), false));

    /** Any of the formats: one test per value before the formats are told apart (most text matches none). */
    static final String ANY_FORMAT = String.join("|", FORMATS.stream().map(f -> "(?:" + f.regex() + ")").toList());

    private TextFormats() { }
}
