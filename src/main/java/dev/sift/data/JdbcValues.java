package dev.sift.data;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;

/** JDBC values as the JSON-friendly values results carry: numbers, booleans and text (dates as ISO text). */
final class JdbcValues {
    private JdbcValues() { }

    /** One value, JSON-friendly; a value Java cannot represent fails the query with a clear reason. */
    static Object value(ResultSet rs, int i, QueryResult.Column column) throws QueryException, SQLException {
        try {
            Object v = rs.getObject(i);
            if (v instanceof java.sql.Timestamp) {
                // java.sql.Timestamp goes through the JVM's time zone: a wall-clock time in its DST gap shifts
                v = rs.getObject(i, LocalDateTime.class);
            }
            return jsonValue(v);
        } catch (RuntimeException e) { // e.g. TIME '24:00:00' has no java.time value
            throw new QueryException(QueryException.Kind.FAILED, "Query failed while reading column '" + column.name()
                    + "' (" + column.type() + "): " + e.getMessage() + ". CAST the column to VARCHAR.");
        }
    }

    /** JDBC values as JSON-friendly values: numbers, booleans and strings (dates as ISO text). */
    static Object jsonValue(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof Double || v instanceof Short || v instanceof Byte) {
            return v;
        }
        if (v instanceof BigInteger b) { // HUGEINT, e.g. sum() of BIGINT: a plain long when it fits
            return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b;
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        if (v instanceof BigDecimal d) {
            return d.scale() <= 0 && d.precision() < 19 ? (Object) d.longValueExact() : (Object) d.doubleValue();
        }
        if (v instanceof java.sql.Date d) {
            return dateText(d.toLocalDate());
        }
        if (v instanceof java.sql.Timestamp t) {
            return dateTimeText(t.toLocalDateTime());
        }
        if (v instanceof LocalDate d) {
            return dateText(d);
        }
        if (v instanceof LocalDateTime t) {
            return dateTimeText(t);
        }
        if (v instanceof OffsetDateTime t) {
            String text = dateTimeText(t.toLocalDateTime());
            return text.endsWith("infinity") ? text : t.toString();
        }
        if (v instanceof java.sql.Blob b) {
            return blobText(b);
        }
        return v.toString();
    }

    /**
     * DuckDB's {@code 'infinity'} and {@code '-infinity'} dates and timestamps are the ends of its range
     * (year 5881580, year 294247): shown as DuckDB writes them, not as a date no one can read.
     */
    private static String dateText(LocalDate d) {
        long day = d.toEpochDay();
        return day == Integer.MAX_VALUE ? "infinity" : day == -Integer.MAX_VALUE ? "-infinity" : d.toString();
    }

    private static String dateTimeText(LocalDateTime t) {
        if (Math.abs(t.getYear()) > 290_000) { // only the infinities are out there: DuckDB's range is ±290,308 years
            java.time.Instant i = t.toInstant(java.time.ZoneOffset.UTC);
            long micros = Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
            return micros == Long.MAX_VALUE ? "infinity" : micros == -Long.MAX_VALUE ? "-infinity" : t.toString();
        }
        return t.toString();
    }

    /** A BLOB as DuckDB prints it: printable ASCII as is, other bytes (and quotes, backslash) as {@code \xHH}. */
    private static String blobText(java.sql.Blob blob) {
        try {
            byte[] bytes = blob.getBytes(1, (int) blob.length());
            StringBuilder out = new StringBuilder(bytes.length);
            for (byte b : bytes) {
                int c = b & 0xff;
                if (c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"') {
                    out.append((char) c);
                } else {
                    out.append(String.format("\\x%02X", c));
                }
            }
            return out.toString();
        } catch (SQLException e) {
            return "(unreadable BLOB: " + e.getMessage() + ")";
        }
    }

    /** Appends one value Sift holds (a JSON-friendly or java.time value) to a DuckDB appender row. */
    static void append(org.duckdb.DuckDBAppender appender, Object v) throws SQLException {
        if (v == null) {
            appender.appendNull();
        } else if (v instanceof Double d) {
            appender.append(d.doubleValue());
        } else if (v instanceof Float f) {
            appender.append(f.doubleValue());
        } else if (v instanceof Long l) {
            appender.append(l.longValue());
        } else if (v instanceof Integer n) {
            appender.append(n.intValue());
        } else if (v instanceof Boolean b) {
            appender.append(b.booleanValue());
        } else if (v instanceof LocalDate d) {
            appender.append(d);
        } else if (v instanceof LocalDateTime t) {
            appender.append(t);
        } else {
            appender.append(v.toString());
        }
    }
}
