package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Writes source tables into a dataset's DuckDB file: creates a table from {@link SourceColumn}s and, for a table
 * with a LIST column (which Arrow batches do not carry here, see {@link JdbcBatches}), streams a JDBC
 * {@link ResultSet} into it through DuckDB's Appender, one row at a time, so memory stays bounded by the driver's
 * fetch size and the Appender's chunk, whatever the table's size.
 */
final class DuckTables {
    private DuckTables() { }

    /** Rows between two progress reports. */
    static final long PROGRESS_EVERY = 50_000;

    /** Reads column {@code index} of the current row and appends it (or NULL). */
    @FunctionalInterface
    interface Copier {
        void copy(ResultSet rs, int index, DuckDBAppender ap) throws SQLException;
    }

    static void create(Connection db, String schema, String table, List<SourceColumn> columns) throws SQLException {
        String cols = columns.stream().map(c -> Sql.quoteIdent(c.name()) + " " + c.type().ddl())
                .collect(Collectors.joining(", "));
        try (Statement st = db.createStatement()) {
            st.execute("CREATE TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(table) + " (" + cols + ")");
        }
    }

    /**
     * Appends every row of {@code rs} to {@code schema.table}; returns the row count. {@code copiers} has one
     * entry per column, in order.
     */
    static long append(Connection db, String schema, String table, ResultSet rs, List<Copier> copiers,
                       long total, String stage, Progress progress) throws SQLException {
        long rows = 0;
        int n = copiers.size();
        Copier[] cs = copiers.toArray(new Copier[0]);
        progress.report(stage, 0, total);
        try (DuckDBAppender ap = db.unwrap(DuckDBConnection.class).createAppender(schema, table)) {
            while (rs.next()) {
                ap.beginRow();
                for (int i = 0; i < n; i++) {
                    cs[i].copy(rs, i + 1, ap);
                }
                ap.endRow();
                if (++rows % PROGRESS_EVERY == 0) {
                    progress.report(stage, rows, Math.max(total, rows));
                }
            }
        }
        progress.report(stage, rows, rows);
        return rows;
    }

    /** Converts the columns staged as text (intervals) to their type, once the table is full. */
    static void finish(Connection db, String schema, String table, List<SourceColumn> columns) throws SQLException {
        for (SourceColumn c : columns) {
            if (c.type().kind() == DuckType.Kind.INTERVAL) {
                String col = Sql.quoteIdent(c.name());
                try (Statement st = db.createStatement()) {
                    st.execute("ALTER TABLE " + Sql.quoteIdent(schema) + "." + Sql.quoteIdent(table) + " ALTER " + col
                            + " TYPE INTERVAL USING CAST(" + col + " AS INTERVAL)");
                }
            }
        }
    }

    /** The standard JDBC reader for a DuckDB type; sources override a few where their driver differs. */
    static Copier copier(DuckType type) {
        return switch (type.kind()) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE -> primitive(type.kind());
            case DECIMAL -> {
                int scale = type.scale();
                yield (rs, i, ap) -> {
                    BigDecimal v = rs.getBigDecimal(i);
                    if (v == null) ap.appendNull(); else ap.append(v.setScale(scale, RoundingMode.HALF_EVEN));
                };
            }
            case HUGEINT -> (rs, i, ap) -> {
                BigDecimal v = rs.getBigDecimal(i);
                if (v == null) ap.appendNull(); else ap.append(v.toBigIntegerExact());
            };
            case VARCHAR, JSON, ENUM, INTERVAL -> (rs, i, ap) -> {
                String v = rs.getString(i);
                if (v == null) ap.appendNull(); else ap.append(v);
            };
            case UUID -> (rs, i, ap) -> {
                Object v = rs.getObject(i);
                if (v == null) ap.appendNull(); else ap.append(v instanceof UUID u ? u : UUID.fromString(v.toString()));
            };
            case BLOB -> (rs, i, ap) -> {
                byte[] v = rs.getBytes(i);
                if (v == null) ap.appendNull(); else ap.append(v);
            };
            case LIST -> DuckTables::appendList;
            case DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> temporal(type.kind());
        };
    }

    /** A primitive getter answers 0 or false for NULL: {@code wasNull()} tells them apart. */
    private static Copier primitive(DuckType.Kind kind) {
        return switch (kind) {
            case BOOLEAN -> (rs, i, ap) -> {
                boolean v = rs.getBoolean(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            case SMALLINT -> (rs, i, ap) -> {
                short v = rs.getShort(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            case INTEGER -> (rs, i, ap) -> {
                int v = rs.getInt(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            case BIGINT -> (rs, i, ap) -> {
                long v = rs.getLong(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            case FLOAT -> (rs, i, ap) -> {
                float v = rs.getFloat(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            case DOUBLE -> (rs, i, ap) -> {
                double v = rs.getDouble(i);
                if (rs.wasNull()) ap.appendNull(); else ap.append(v);
            };
            default -> throw new IllegalArgumentException("not a primitive type: " + kind);
        };
    }

    /** Dates and times read as java.time values; an instant is stored in UTC. */
    private static Copier temporal(DuckType.Kind kind) {
        return switch (kind) {
            case DATE -> (rs, i, ap) -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                if (v == null) ap.appendNull(); else ap.append(v);
            };
            case TIME -> (rs, i, ap) -> {
                LocalTime v = rs.getObject(i, LocalTime.class);
                if (v == null) ap.appendNull(); else ap.append(v);
            };
            case TIMESTAMP -> (rs, i, ap) -> {
                LocalDateTime v = rs.getObject(i, LocalDateTime.class);
                if (v == null) ap.appendNull(); else ap.append(v);
            };
            case TIMESTAMPTZ -> (rs, i, ap) -> {
                OffsetDateTime v = rs.getObject(i, OffsetDateTime.class);
                if (v == null) ap.appendNull(); else ap.append(v.withOffsetSameInstant(ZoneOffset.UTC));
            };
            default -> throw new IllegalArgumentException("not a date or time type: " + kind);
        };
    }

    private static void appendList(ResultSet rs, int i, DuckDBAppender ap) throws SQLException {
        Array v = rs.getArray(i);
        if (v == null) {
            ap.appendNull();
            return;
        }
        try {
            ap.append(toList((Object[]) v.getArray()));
        } finally {
            v.free();
        }
    }

    /** JDBC arrays may nest (a multi-dimensional array); DuckDB's Appender takes nested collections. */
    private static List<Object> toList(Object[] values) {
        List<Object> out = new ArrayList<>(values.length);
        for (Object o : values) {
            out.add(o instanceof Object[] inner ? toList(inner) : o);
        }
        return out;
    }
}
