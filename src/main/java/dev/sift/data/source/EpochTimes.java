package dev.sift.data.source;

import dev.sift.data.LoadReport;
import dev.sift.data.Sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whole-number columns that are times written as seconds or milliseconds since 1970 (JSON feeds and exports
 * write them so: {@code "time": 1517966773840}) become TIMESTAMP, read as UTC. Both the name and every value must
 * say so: a name with a time word ({@code time}, {@code updated}, {@code created_at}, {@code timestamp}, …) and all
 * values between 1980 and 2100 in one of the two units, so a count, a year or a {@code YYYYMMDD} number never
 * qualifies. Each conversion is in the load report with its unit.
 */
final class EpochTimes {
    private static final Pattern TIME_NAME = Pattern.compile(
            "(?i)(^|[^a-z])(time|timestamp|datetime|date|updated|created|modified|epoch)([^a-z]|$)|[a-z](_at|At)$");
    private static final long FROM_SECONDS = 315_532_800L; // 1980-01-01
    private static final long TO_SECONDS = 4_102_444_800L; // 2100-01-01

    private EpochTimes() { }

    static void type(Connection db, String schema, String table, LoadReport.Builder report) throws SQLException {
        List<String> candidates = new ArrayList<>();
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT column_name FROM"
                + " information_schema.columns WHERE table_schema = " + Sql.quoteString(schema) + " AND table_name = "
                + Sql.quoteString(table) + " AND data_type IN ('BIGINT', 'INTEGER', 'HUGEINT', 'UBIGINT') ORDER BY ordinal_position")) {
            while (rs.next()) {
                if (TIME_NAME.matcher(rs.getString(1)).find()) {
                    candidates.add(rs.getString(1));
                }
            }
        }
        String tbl = Sql.quoteIdent(schema) + "." + Sql.quoteIdent(table);
        for (String col : candidates) {
            String q = Sql.quoteIdent(col);
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT min(" + q + "), max(" + q
                    + "), count(" + q + ") FROM " + tbl)) {
                rs.next();
                long min = rs.getLong(1);
                long max = rs.getLong(2);
                long n = rs.getLong(3);
                String unit = n == 0 ? null : within(min, max, 1000) ? "milliseconds" : within(min, max, 1) ? "seconds" : null;
                if (unit == null) {
                    continue;
                }
                String millis = unit.equals("seconds") ? q + " * 1000" : q;
                st.execute("ALTER TABLE " + tbl + " ALTER " + q + " TYPE TIMESTAMP USING epoch_ms(" + millis + ")");
                report.converted(table + "." + col, "timestamp", n + " values as " + unit.toLowerCase(Locale.ROOT)
                        + " since 1970-01-01, read as UTC");
            }
        }
    }

    private static boolean within(long min, long max, long scale) {
        return min >= FROM_SECONDS * scale && max <= TO_SECONDS * scale;
    }
}
