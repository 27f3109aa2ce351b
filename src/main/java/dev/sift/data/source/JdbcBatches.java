package dev.sift.data.source;

import dev.sift.data.Progress;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A JDBC result's rows as Arrow batches for {@link ArrowIngest}: each column read with the standard getter for its
 * DuckDB type and handed over as a number, a date or time in microseconds, bytes, or text that DuckDB casts on the
 * way in (decimals and huge integers as their exact digits, UUIDs, JSON, enums). The Appender this replaces made one
 * native call per value; here a batch is one.
 */
final class JdbcBatches implements ArrowIngest.Producer {
    private static final int BATCH_ROWS = 16_384;
    private static final long BATCH_BYTES = 16L << 20;
    private static final int PROGRESS_ROWS = 50_000;

    /** Reads column {@code i} of the current row into {@code b} at {@code row}; returns the bytes it added. */
    @FunctionalInterface
    interface Reader {
        int read(ResultSet rs, int i, ColumnBuffer b, int row) throws SQLException;
    }

    /** How one column goes over: the Arrow kind, its reader, and the cast DuckDB applies (null: none). */
    record Column(ColumnBuffer.Kind kind, Reader reader, String cast) { }

    private final ResultSet rs;
    private final List<Column> columns;
    private final ColumnBuffer[] buffers;
    private final Progress progress;
    private final String stage;
    private final long total;
    private long rows;

    JdbcBatches(ResultSet rs, List<Column> columns, Progress progress, String stage, long total) {
        this.rs = rs;
        this.columns = columns;
        this.progress = progress;
        this.stage = stage;
        this.total = total;
        this.buffers = columns.stream().map(c -> new ColumnBuffer(c.kind(), BATCH_ROWS)).toArray(ColumnBuffer[]::new);
    }

    /**
     * How a column of {@code type} goes over as Arrow; empty for a type that does not (a LIST: its table is copied
     * with the Appender). {@code instant} reads a TIMESTAMPTZ value, which drivers send in their own way.
     */
    static Optional<Column> column(DuckType type, Reader instant) {
        String ddl = type.ddl();
        return Optional.ofNullable(switch (type.kind()) {
            case BOOLEAN -> new Column(ColumnBuffer.Kind.BIGINT, (rs, i, b, row) -> {
                boolean v = rs.getBoolean(i);
                return rs.wasNull() ? nul(b, row) : add(b, row, v ? 1 : 0);
            }, "BOOLEAN");
            case SMALLINT, INTEGER, BIGINT -> new Column(ColumnBuffer.Kind.BIGINT, (rs, i, b, row) -> {
                long v = rs.getLong(i);
                return rs.wasNull() ? nul(b, row) : add(b, row, v);
            }, type.kind() == DuckType.Kind.BIGINT ? null : ddl);
            case FLOAT -> new Column(ColumnBuffer.Kind.DOUBLE, (rs, i, b, row) -> {
                float v = rs.getFloat(i);
                return rs.wasNull() ? nul(b, row) : add(b, row, v);
            }, "FLOAT");
            case DOUBLE -> new Column(ColumnBuffer.Kind.DOUBLE, (rs, i, b, row) -> {
                double v = rs.getDouble(i);
                return rs.wasNull() ? nul(b, row) : add(b, row, v);
            }, null);
            case DECIMAL -> new Column(ColumnBuffer.Kind.VARCHAR, (rs, i, b, row) -> {
                BigDecimal v = rs.getBigDecimal(i);
                return v == null ? nul(b, row) : text(b, row, v.setScale(type.scale(), RoundingMode.HALF_EVEN).toPlainString());
            }, ddl);
            case HUGEINT -> new Column(ColumnBuffer.Kind.VARCHAR, (rs, i, b, row) -> {
                BigDecimal v = rs.getBigDecimal(i);
                return v == null ? nul(b, row) : text(b, row, v.toBigIntegerExact().toString());
            }, ddl);
            case VARCHAR, JSON, ENUM, INTERVAL -> new Column(ColumnBuffer.Kind.VARCHAR, (rs, i, b, row) -> {
                String v = rs.getString(i);
                return v == null ? nul(b, row) : text(b, row, v);
            }, type.kind() == DuckType.Kind.VARCHAR || type.kind() == DuckType.Kind.INTERVAL ? null : ddl);
            case UUID -> new Column(ColumnBuffer.Kind.VARCHAR, (rs, i, b, row) -> {
                Object v = rs.getObject(i);
                return v == null ? nul(b, row) : text(b, row, v instanceof UUID u ? u.toString() : UUID.fromString(v.toString()).toString());
            }, "UUID");
            case DATE -> new Column(ColumnBuffer.Kind.DATE, (rs, i, b, row) -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                return v == null ? nul(b, row) : add(b, row, Math.multiplyExact(v.toEpochDay(), 86_400_000L));
            }, null);
            case TIME -> new Column(ColumnBuffer.Kind.TIME, (rs, i, b, row) -> {
                LocalTime v = rs.getObject(i, LocalTime.class);
                return v == null ? nul(b, row) : add(b, row, v.toNanoOfDay() / 1000);
            }, null);
            case TIMESTAMP -> new Column(ColumnBuffer.Kind.TIMESTAMP, (rs, i, b, row) -> {
                LocalDateTime v = rs.getObject(i, LocalDateTime.class);
                return v == null ? nul(b, row) : add(b, row, micros(v.toInstant(ZoneOffset.UTC)));
            }, null);
            case TIMESTAMPTZ -> new Column(ColumnBuffer.Kind.TIMESTAMPTZ, instant, null);
            case BLOB -> new Column(ColumnBuffer.Kind.BLOB, (rs, i, b, row) -> {
                byte[] v = rs.getBytes(i);
                return v == null ? nul(b, row) : b.add(row, v);
            }, null);
            case LIST -> null;
        });
    }

    /** The standard reading of a TIMESTAMPTZ: the driver's OffsetDateTime, as its instant. */
    static int offsetDateTime(ResultSet rs, int i, ColumnBuffer b, int row) throws SQLException {
        java.time.OffsetDateTime v = rs.getObject(i, java.time.OffsetDateTime.class);
        return v == null ? nul(b, row) : add(b, row, micros(v.toInstant()));
    }

    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    static int nul(ColumnBuffer b, int row) {
        b.addNull(row);
        return 0;
    }

    static int add(ColumnBuffer b, int row, long v) {
        b.add(row, v);
        return 0;
    }

    private static int add(ColumnBuffer b, int row, double v) {
        b.add(row, v);
        return 0;
    }

    private static int text(ColumnBuffer b, int row, String v) {
        return b.add(row, v.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public ArrowIngest.Fill fill(VectorSchemaRoot batch) throws SQLException {
        for (ColumnBuffer b : buffers) {
            b.clear();
        }
        int n = 0;
        long bytes = 0;
        boolean more = true;
        while (n < BATCH_ROWS && bytes < BATCH_BYTES) {
            if (!rs.next()) {
                more = false;
                break;
            }
            for (int c = 0; c < buffers.length; c++) {
                bytes += columns.get(c).reader().read(rs, c + 1, buffers[c], n);
            }
            n++;
        }
        for (int c = 0; c < buffers.length; c++) {
            buffers[c].writeTo(batch.getVector(c), n);
        }
        batch.setRowCount(n);
        rows += n;
        if (rows / PROGRESS_ROWS != (rows - n) / PROGRESS_ROWS) {
            progress.report(stage, rows, Math.max(total, rows));
        }
        return more ? ArrowIngest.Fill.MORE : ArrowIngest.Fill.END;
    }

    long rows() {
        return rows;
    }
}
