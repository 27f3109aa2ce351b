package dev.sift.ml;

import dev.sift.data.Numbers;

import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads model rows from DuckDB as Arrow batches (the JDBC driver's Arrow stream), so a million rows cost
 * a few column loops instead of tens of millions of JDBC calls. The encoding that the row loop does in
 * Java happens in the SQL here: every feature arrives as a DOUBLE (NULL = missing), a text column as the
 * index of its level (-1 for a value the encoder has not seen). The matrix is the same, value for value,
 * as {@link MlData#readRows}'s (a test holds both to that).
 */
final class ArrowFeatures {
    /**
     * Rows per Arrow batch. A batch is written into the matrix column by column, so its block of the matrix
     * (rows × features × 4 bytes: 640 KB for 20 features) should stay in cache; 64k-row batches made the same
     * copy five times slower.
     */
    static final long BATCH_ROWS = 8192;

    private ArrowFeatures() { }

    static MlData read(Workspace ws, TableInfo table, FeatureEncoder encoder, String entity, String target,
                       String where, boolean keepDisplay) throws QueryException {
        List<String> select = new ArrayList<>();
        for (FeatureEncoder.ColumnPlan p : encoder.columns()) {
            List<String> raw = encoder.selectExpressions(p);
            switch (p.kind()) {
                case NUMERIC -> select.add(raw.get(0));
                case ONE_HOT, ORDINAL -> select.add(levelIndex(raw.get(0), p.levels()));
                case DATE -> raw.subList(1, raw.size()).forEach(e -> select.add("CAST(" + e + " AS DOUBLE)"));
            }
            if (keepDisplay && p.kind() != FeatureEncoder.Kind.NUMERIC) {
                select.add(raw.get(0));
            }
        }
        String sql = MlData.query(table, entity, target, where, select);
        // the row count first (a cheap scan), so the matrix is allocated once, not grown and copied
        Object count = ws.trustedQuery("SELECT count(*) FROM " + table.sqlName() + (where == null ? "" : " WHERE " + where),
                1).rows().get(0).get(0);
        int expected = Math.toIntExact(((Number) count).longValue());
        return ws.trustedRead(sql, rs -> decode(rs, encoder, keepDisplay, expected));
    }

    /** The level's position in {@code levels}, -1 for any other value, NULL for NULL. */
    private static String levelIndex(String text, List<String> levels) {
        StringBuilder b = new StringBuilder("CASE WHEN ").append(text).append(" IS NULL THEN NULL");
        for (int i = 0; i < levels.size(); i++) {
            b.append(" WHEN ").append(text).append(" = ").append(Sql.quoteString(levels.get(i))).append(" THEN ").append(i);
        }
        return b.append(" ELSE -1 END").toString();
    }

    private static MlData decode(ResultSet rs, FeatureEncoder encoder, boolean keepDisplay, int expected)
            throws SQLException {
        DuckDBResultSet duck = rs.unwrap(DuckDBResultSet.class);
        try (BufferAllocator allocator = allocator();
             ArrowReader reader = (ArrowReader) duck.arrowExportStream(allocator, BATCH_ROWS)) {
            Rows rows = new Rows(encoder.width(), keepDisplay ? encoder.columns().size() : 0);
            rows.grow(expected);
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                rows.add(root, encoder.columns(), keepDisplay);
            }
            return rows.toData();
        } catch (java.io.IOException e) {
            throw new SQLException("reading the Arrow stream failed: " + e.getMessage(), e);
        }
    }

    private static BufferAllocator allocator() {
        try {
            return new RootAllocator();
        } catch (RuntimeException | LinkageError e) {
            // Arrow reads buffer addresses reflectively; the launcher and the jar's manifest open java.nio for it
            throw new IllegalStateException("Arrow could not start (" + e + "): run Java with"
                    + " --add-opens=java.base/java.nio=ALL-UNNAMED, as ./sift and java -jar sift.jar do", e);
        }
    }

    /** The decoded rows so far (allocated for the expected count; grown should more arrive). */
    private static final class Rows {
        private final int width;
        private final int shownColumns;
        private float[] x = new float[0];
        private long[] rowids = new long[0];
        private Object[] entities = new Object[0];
        private String[] targets = new String[0];
        private String[][] display;
        private int size;

        Rows(int width, int shownColumns) {
            this.width = width;
            this.shownColumns = shownColumns;
            this.display = shownColumns > 0 ? new String[0][] : null;
        }

        void add(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, boolean keepDisplay) {
            int n = root.getRowCount();
            if (n == 0) {
                return;
            }
            grow(size + n);
            longs((BigIntVector) root.getVector(0), n).get(rowids, size, n);
            FieldVector entity = root.getVector(1);
            if (entity instanceof BigIntVector ids) {
                LongBuffer values = longs(ids, n);
                boolean[] missing = nulls(ids, n);
                for (int i = 0; i < n; i++) {
                    long id = values.get(i);
                    entities[size + i] = missing != null && missing[i] ? null : (Object) id;
                }
            } else {
                texts((VarCharVector) entity, n, entities);
            }
            texts((VarCharVector) root.getVector(2), n, targets);
            if (keepDisplay) {
                for (int i = 0; i < n; i++) {
                    display[size + i] = new String[shownColumns];
                }
            }
            int vector = 3;
            int offset = 0;
            for (int c = 0; c < plans.size(); c++) {
                FeatureEncoder.ColumnPlan plan = plans.get(c);
                switch (plan.kind()) {
                    case NUMERIC -> {
                        Float8Vector v = (Float8Vector) root.getVector(vector++);
                        putDoubles(v, n, offset++);
                        if (keepDisplay) {
                            for (int i = 0; i < n; i++) {
                                display[size + i][c] = v.isNull(i) ? null : Numbers.number(v.get(i));
                            }
                        }
                    }
                    case ONE_HOT, ORDINAL -> {
                        putLevels((IntVector) root.getVector(vector++), n, offset, plan);
                        offset += plan.kind() == FeatureEncoder.Kind.ORDINAL ? 1 : plan.levels().size();
                    }
                    case DATE -> {
                        for (int k = 0; k < 4; k++) {
                            putDoubles((Float8Vector) root.getVector(vector++), n, offset++);
                        }
                    }
                }
                if (keepDisplay && plan.kind() != FeatureEncoder.Kind.NUMERIC) {
                    VarCharVector shown = (VarCharVector) root.getVector(vector++);
                    for (int i = 0; i < n; i++) {
                        display[size + i][c] = text(shown, i);
                    }
                }
            }
            size += n;
        }

        /** One DOUBLE column into matrix column {@code col}, its buffers copied in bulk (no call per value). */
        private void putDoubles(Float8Vector v, int n, int col) {
            double[] values = new double[n];
            v.getDataBuffer().nioBuffer(0, n * Float8Vector.TYPE_WIDTH).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer()
                    .get(values);
            boolean[] missing = nulls(v, n);
            int at = size * width + col;
            for (int i = 0; i < n; i++, at += width) {
                x[at] = missing != null && missing[i] ? Float.NaN : (float) values[i];
            }
        }

        /** A level index as the row loop encodes it: one-hot 1/0 (NaN when NULL), ordinal the index (NaN unseen). */
        private void putLevels(IntVector v, int n, int col, FeatureEncoder.ColumnPlan plan) {
            boolean ordinal = plan.kind() == FeatureEncoder.Kind.ORDINAL;
            int levels = plan.levels().size();
            int[] index = new int[n];
            v.getDataBuffer().nioBuffer(0, n * IntVector.TYPE_WIDTH).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(index);
            boolean[] missing = nulls(v, n);
            for (int i = 0; i < n; i++) {
                int at = (size + i) * width + col;
                int idx = index[i];
                if (missing != null && missing[i]) {
                    Arrays.fill(x, at, at + (ordinal ? 1 : levels), Float.NaN);
                } else if (ordinal) {
                    x[at] = idx < 0 ? Float.NaN : idx;
                } else {
                    for (int l = 0; l < levels; l++) {
                        x[at + l] = idx == l ? 1f : 0f;
                    }
                }
            }
        }

        /** The first {@code n} values of a VARCHAR vector into {@code out} from row {@code size} on. */
        private void texts(VarCharVector v, int n, Object[] out) {
            int[] offsets = new int[n + 1];
            v.getOffsetBuffer().nioBuffer(0, (n + 1) * VarCharVector.OFFSET_WIDTH).order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer().get(offsets);
            byte[] data = new byte[offsets[n]];
            v.getDataBuffer().getBytes(0, data);
            boolean[] missing = nulls(v, n);
            for (int i = 0; i < n; i++) {
                out[size + i] = missing != null && missing[i] ? null
                        : new String(data, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
            }
        }

        private void grow(int rows) {
            if (rows <= rowids.length) {
                return;
            }
            int cap = Math.max(rows, rowids.length * 2);
            x = Arrays.copyOf(x, Math.multiplyExact(cap, width));
            rowids = Arrays.copyOf(rowids, cap);
            entities = Arrays.copyOf(entities, cap);
            targets = Arrays.copyOf(targets, cap);
            if (display != null) {
                display = Arrays.copyOf(display, cap);
            }
        }

        MlData toData() {
            if (size == rowids.length) {
                return new MlData(size, width, x, entities, targets, rowids, display);
            }
            return new MlData(size, width, Arrays.copyOf(x, size * width), Arrays.copyOf(entities, size),
                    Arrays.copyOf(targets, size), Arrays.copyOf(rowids, size),
                    display == null ? null : Arrays.copyOf(display, size));
        }
    }

    private static LongBuffer longs(BigIntVector v, int n) {
        return v.getDataBuffer().nioBuffer(0, n * BigIntVector.TYPE_WIDTH).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    }

    /** Which of the first {@code n} values are NULL, from the validity bitmap; null when none is. */
    private static boolean[] nulls(FieldVector v, int n) {
        if (v.getNullCount() == 0) {
            return null;
        }
        byte[] bits = new byte[(n + 7) / 8];
        v.getValidityBuffer().getBytes(0, bits);
        boolean[] missing = new boolean[n];
        for (int i = 0; i < n; i++) {
            missing[i] = (bits[i >> 3] & (1 << (i & 7))) == 0;
        }
        return missing;
    }

    private static String text(VarCharVector v, int i) {
        return v.isNull(i) ? null : new String(v.get(i), StandardCharsets.UTF_8);
    }
}
