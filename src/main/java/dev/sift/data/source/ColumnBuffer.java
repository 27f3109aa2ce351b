package dev.sift.data.source;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One column of a batch gathered in plain Java arrays (numbers, or bytes with their offsets, and a validity
 * bitmap), then copied into its Arrow vector in a few bulk copies: Arrow's per-value setters check bounds on every
 * call, which for a million rows of seven columns cost about as much as reading them.
 */
final class ColumnBuffer {
    /** What a column's values are handed over as: numbers, bytes, text, or a date or time as a number. */
    enum Kind { BIGINT, DOUBLE, BLOB, VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMPTZ }

    /**
     * The Arrow columns c0, c1, … for {@code kinds}: dates as milliseconds, times and timestamps as microseconds
     * (TIMESTAMPTZ in UTC), which DuckDB reads as DATE, TIME, TIMESTAMP and TIMESTAMP WITH TIME ZONE.
     */
    static Schema schema(List<Kind> kinds) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            ArrowType type = switch (kinds.get(i)) {
                case BIGINT -> new ArrowType.Int(64, true);
                case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
                case BLOB -> ArrowType.Binary.INSTANCE;
                case VARCHAR -> ArrowType.Utf8.INSTANCE;
                case DATE -> new ArrowType.Date(DateUnit.MILLISECOND);
                case TIME -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
                case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
                case TIMESTAMPTZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
            };
            fields.add(new Field("c" + i, FieldType.nullable(type), null));
        }
        return new Schema(fields);
    }

    private final Kind kind;
    private final long[] longs;
    private final double[] doubles;
    private final int[] offsets;
    private final byte[] validity;
    private byte[] data = new byte[0];

    ColumnBuffer(Kind kind, int capacity) {
        this.kind = kind;
        boolean variable = kind == Kind.VARCHAR || kind == Kind.BLOB;
        this.longs = kind != Kind.DOUBLE && !variable ? new long[capacity] : null;
        this.doubles = kind == Kind.DOUBLE ? new double[capacity] : null;
        this.offsets = variable ? new int[capacity + 1] : null;
        this.validity = new byte[(capacity + 7) / 8];
        if (variable) {
            data = new byte[64 * 1024];
        }
    }

    void clear() {
        Arrays.fill(validity, (byte) 0);
        if (offsets != null) {
            offsets[0] = 0;
        }
    }

    void addNull(int row) {
        if (offsets != null) {
            offsets[row + 1] = offsets[row];
        }
    }

    void add(int row, long v) {
        longs[row] = v;
        validity[row >> 3] |= (byte) (1 << (row & 7));
    }

    void add(int row, double v) {
        doubles[row] = v;
        validity[row >> 3] |= (byte) (1 << (row & 7));
    }

    /** Appends a text or blob value; returns its length. */
    int add(int row, byte[] v) {
        int at = offsets[row];
        if (at + v.length > data.length) {
            data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2L * data.length, (long) at + v.length)));
        }
        System.arraycopy(v, 0, data, at, v.length);
        offsets[row + 1] = at + v.length;
        validity[row >> 3] |= (byte) (1 << (row & 7));
        return v.length;
    }

    /** Writes the first {@code rows} values into {@code vector} (of this column's kind), which it allocates. */
    void writeTo(FieldVector vector, int rows) {
        if (vector instanceof BaseVariableWidthVector v) {
            int bytes = offsets[rows];
            v.allocateNew(Math.max(bytes, 1), Math.max(rows, 1));
            v.getOffsetBuffer().nioBuffer(0, (rows + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer()
                    .put(offsets, 0, rows + 1);
            v.getDataBuffer().setBytes(0, data, 0, bytes);
            bits(v.getValidityBuffer(), rows);
            v.setLastSet(rows - 1); // the offsets are set: setValueCount must not fill them in as empty
            v.setValueCount(rows);
            return;
        }
        BaseFixedWidthVector v = (BaseFixedWidthVector) vector;
        v.allocateNew(Math.max(rows, 1));
        if (kind != Kind.DOUBLE) {
            v.getDataBuffer().nioBuffer(0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(longs, 0, rows);
        } else {
            v.getDataBuffer().nioBuffer(0, rows * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(doubles, 0, rows);
        }
        bits(v.getValidityBuffer(), rows);
        v.setValueCount(rows);
    }

    private void bits(ArrowBuf buffer, int rows) {
        int n = (rows + 7) / 8;
        if (rows % 8 != 0) {
            validity[n - 1] &= (byte) ((1 << (rows % 8)) - 1);
        }
        buffer.setBytes(0, validity, 0, n);
    }
}
