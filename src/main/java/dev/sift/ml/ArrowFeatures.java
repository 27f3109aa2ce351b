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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(ArrowFeatures.class);
    /**
     * Rows per Arrow batch (64k-row batches made the copy five times slower: their block of the matrix fell out of
     * cache).
     */
    static final long BATCH_ROWS = 8192;
    /** Rows whose block of the matrix is written column by column (80 KB for 20 features). */
    static final int CHUNK_ROWS = 1024;

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
        // DuckDB sorts only the rowids into entity order; the features stream unsorted, each row written to its place
        long t0 = System.nanoTime();
        long[] ordered = ws.trustedRead(MlData.order(table, entity, where), ArrowFeatures::rowids);
        Positions positions = Positions.of(ordered);
        long t1 = System.nanoTime();
        MlData data = ws.trustedRead(MlData.select(table, entity, target, where, select),
                rs -> decode(rs, encoder, keepDisplay, positions));
        LOG.debug("{} rows of {}: order {} ms, features {} ms", data.rows(), table.name(), (t1 - t0) / 1_000_000,
                (System.nanoTime() - t1) / 1_000_000);
        return data;
    }

    /** The single BIGINT column of {@code rs}, in its order. */
    private static long[] rowids(ResultSet rs) throws SQLException {
        DuckDBResultSet duck = rs.unwrap(DuckDBResultSet.class);
        try (BufferAllocator allocator = allocator();
             ArrowReader reader = (ArrowReader) duck.arrowExportStream(allocator, BATCH_ROWS)) {
            long[] out = new long[0];
            int size = 0;
            while (reader.loadNextBatch()) {
                int n = reader.getVectorSchemaRoot().getRowCount();
                if (size + n > out.length) {
                    out = Arrays.copyOf(out, Math.max(size + n, out.length * 2));
                }
                longs((BigIntVector) reader.getVectorSchemaRoot().getVector(0), n).get(out, size, n);
                size += n;
            }
            return size == out.length ? out : Arrays.copyOf(out, size);
        } catch (java.io.IOException e) {
            throw new SQLException("reading the Arrow stream failed: " + e.getMessage(), e);
        }
    }

    /**
     * The matrix row of each rowid: its position in the sorted rowids. A table's rowids are dense (a frame's are
     * 0..n-1), so an array indexed by rowid; a filter that keeps few rows of a large table falls back to a search.
     */
    private record Positions(int rows, long min, int[] dense, long[] sorted, int[] sortedAt) {
        static Positions of(long[] ordered) {
            int n = ordered.length;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long r : ordered) {
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
            if (n == 0 || max - min < 4L * n + 1024) {
                int[] dense = new int[n == 0 ? 0 : Math.toIntExact(max - min + 1)];
                Arrays.fill(dense, -1);
                for (int k = 0; k < n; k++) {
                    dense[(int) (ordered[k] - min)] = k;
                }
                return new Positions(n, min, dense, null, null);
            }
            long[] sorted = ordered.clone();
            Arrays.sort(sorted);
            int[] at = new int[n];
            for (int k = 0; k < n; k++) {
                at[Arrays.binarySearch(sorted, ordered[k])] = k;
            }
            return new Positions(n, min, null, sorted, at);
        }

        int of(long rowid) {
            int p = -1;
            if (dense != null) {
                long i = rowid - min;
                p = i >= 0 && i < dense.length ? dense[(int) i] : -1;
            } else {
                int j = Arrays.binarySearch(sorted, rowid);
                p = j >= 0 ? sortedAt[j] : -1;
            }
            if (p < 0) {
                throw new IllegalStateException("rowid " + rowid + " was not among the sorted rows: the table changed"
                        + " between reading its order and its features");
            }
            return p;
        }
    }

    /** The level's position in {@code levels}, -1 for any other value, NULL for NULL. */
    private static String levelIndex(String text, List<String> levels) {
        StringBuilder b = new StringBuilder("CASE WHEN ").append(text).append(" IS NULL THEN NULL");
        for (int i = 0; i < levels.size(); i++) {
            b.append(" WHEN ").append(text).append(" = ").append(Sql.quoteString(levels.get(i))).append(" THEN ").append(i);
        }
        return b.append(" ELSE -1 END").toString();
    }

    private static MlData decode(ResultSet rs, FeatureEncoder encoder, boolean keepDisplay, Positions positions)
            throws SQLException {
        DuckDBResultSet duck = rs.unwrap(DuckDBResultSet.class);
        try (BufferAllocator allocator = allocator();
             ArrowReader reader = (ArrowReader) duck.arrowExportStream(allocator, BATCH_ROWS)) {
            Rows rows = new Rows(encoder.width(), keepDisplay ? encoder.columns().size() : 0, positions);
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

    /**
     * The matrix and its row arrays, allocated once for every row; each batch's rows are written at their
     * {@link Positions}. Scratch arrays are reused from batch to batch, and a target's text is made once per distinct
     * value while there are few: a million rows otherwise left a million small objects for the collector.
     */
    private static final class Rows {
        private static final int DISTINCT_TARGETS = 64;
        private final int width;
        private final int shownColumns;
        private final Positions positions;
        private final float[] x;
        private final long[] rowids;
        private final Object[] entities;
        private final String[] targets;
        private final String[][] display;
        private final List<byte[]> targetBytes = new ArrayList<>();
        private final List<String> targetTexts = new ArrayList<>();
        private int[] at = new int[0];
        private long[] ids = new long[0];
        private double[] doubles = new double[0];
        private int[] ints = new int[0];
        private boolean[] missing = new boolean[0];
        private int[] offsets = new int[0];
        private byte[] bytes = new byte[0];
        private int seen;
        private int last = -1;

        Rows(int width, int shownColumns, Positions positions) {
            this.width = width;
            this.shownColumns = shownColumns;
            this.positions = positions;
            int n = positions.rows();
            this.x = new float[Math.multiplyExact(n, width)];
            this.rowids = new long[n];
            this.entities = new Object[n];
            this.targets = new String[n];
            this.display = shownColumns > 0 ? new String[n][] : null;
        }

        void add(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, boolean keepDisplay) {
            int n = root.getRowCount();
            if (n == 0) {
                return;
            }
            scratch(n);
            longs((BigIntVector) root.getVector(0), n).get(ids, 0, n);
            for (int i = 0; i < n; i++) {
                int p = positions.of(ids[i]);
                rowids[p] = ids[i];
                at[i] = p;
            }
            seen += n;
            FieldVector entity = root.getVector(1);
            if (entity instanceof BigIntVector idVector) {
                LongBuffer values = longs(idVector, n);
                boolean none = !nulls(idVector, n);
                for (int i = 0; i < n; i++) {
                    entities[at[i]] = none || !missing[i] ? (Object) values.get(i) : null;
                }
            } else {
                texts((VarCharVector) entity, n, entities, false);
            }
            texts((VarCharVector) root.getVector(2), n, targets, true);
            if (keepDisplay) {
                for (int i = 0; i < n; i++) {
                    display[at[i]] = new String[shownColumns];
                }
            }
            // the features in chunks of rows, so the block of the matrix being written stays in the processor's cache
            boolean[] hasNulls = new boolean[root.getFieldVectors().size()];
            for (int v = 3; v < hasNulls.length; v++) {
                hasNulls[v] = root.getVector(v).getNullCount() > 0;
            }
            for (int lo = 0; lo < n; lo += CHUNK_ROWS) {
                int hi = Math.min(n, lo + CHUNK_ROWS);
                int vector = 3;
                int offset = 0;
                for (FeatureEncoder.ColumnPlan plan : plans) {
                    switch (plan.kind()) {
                        case NUMERIC -> {
                            putDoubles((Float8Vector) root.getVector(vector), lo, hi, offset++, hasNulls[vector]);
                            vector++;
                        }
                        case ONE_HOT, ORDINAL -> {
                            putLevels((IntVector) root.getVector(vector), lo, hi, offset, plan, hasNulls[vector]);
                            vector++;
                            offset += plan.kind() == FeatureEncoder.Kind.ORDINAL ? 1 : plan.levels().size();
                        }
                        case DATE -> {
                            for (int k = 0; k < 4; k++, vector++) {
                                putDoubles((Float8Vector) root.getVector(vector), lo, hi, offset++, hasNulls[vector]);
                            }
                        }
                    }
                    if (keepDisplay && plan.kind() != FeatureEncoder.Kind.NUMERIC) {
                        vector++;
                    }
                }
            }
            if (keepDisplay) {
                display(root, plans, n);
            }
        }

        /** Each used value as text, for explanations. */
        private void display(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, int n) {
            int vector = 3;
            for (int c = 0; c < plans.size(); c++) {
                FeatureEncoder.ColumnPlan plan = plans.get(c);
                if (plan.kind() == FeatureEncoder.Kind.NUMERIC) {
                    Float8Vector v = (Float8Vector) root.getVector(vector++);
                    for (int i = 0; i < n; i++) {
                        display[at[i]][c] = v.isNull(i) ? null : Numbers.number(v.get(i));
                    }
                    continue;
                }
                vector += plan.kind() == FeatureEncoder.Kind.DATE ? 4 : 1;
                VarCharVector shown = (VarCharVector) root.getVector(vector++);
                for (int i = 0; i < n; i++) {
                    display[at[i]][c] = text(shown, i);
                }
            }
        }

        private void scratch(int n) {
            if (at.length < n) {
                at = new int[n];
                ids = new long[n];
                doubles = new double[n];
                ints = new int[n];
                missing = new boolean[n];
                offsets = new int[n + 1];
            }
        }

        /** Rows [lo, hi) of a DOUBLE column into matrix column {@code col}, the buffer copied in bulk (no call per value). */
        private void putDoubles(Float8Vector v, int lo, int hi, int col, boolean hasNulls) {
            int len = hi - lo;
            v.getDataBuffer().nioBuffer((long) lo * Float8Vector.TYPE_WIDTH, len * Float8Vector.TYPE_WIDTH)
                    .order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(doubles, 0, len);
            if (hasNulls) {
                nulls(v, lo, hi);
            }
            for (int i = 0; i < len; i++) {
                x[at[lo + i] * width + col] = hasNulls && missing[i] ? Float.NaN : (float) doubles[i];
            }
        }

        /** A level index as the row loop encodes it: one-hot 1/0 (NaN when NULL), ordinal the index (NaN unseen). */
        private void putLevels(IntVector v, int lo, int hi, int col, FeatureEncoder.ColumnPlan plan, boolean hasNulls) {
            boolean ordinal = plan.kind() == FeatureEncoder.Kind.ORDINAL;
            int levels = plan.levels().size();
            int len = hi - lo;
            v.getDataBuffer().nioBuffer((long) lo * IntVector.TYPE_WIDTH, len * IntVector.TYPE_WIDTH)
                    .order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ints, 0, len);
            if (hasNulls) {
                nulls(v, lo, hi);
            }
            for (int i = 0; i < len; i++) {
                int cell = at[lo + i] * width + col;
                int idx = ints[i];
                if (hasNulls && missing[i]) {
                    Arrays.fill(x, cell, cell + (ordinal ? 1 : levels), Float.NaN);
                } else if (ordinal) {
                    x[cell] = idx < 0 ? Float.NaN : idx;
                } else {
                    for (int l = 0; l < levels; l++) {
                        x[cell + l] = idx == l ? 1f : 0f;
                    }
                }
            }
        }

        /** The first {@code n} values of a VARCHAR vector into {@code out} at their rows; {@code few}: reuse texts. */
        private void texts(VarCharVector v, int n, Object[] out, boolean few) {
            v.getOffsetBuffer().nioBuffer(0, (n + 1) * VarCharVector.OFFSET_WIDTH).order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer().get(offsets, 0, n + 1);
            if (bytes.length < offsets[n]) {
                bytes = new byte[Math.max(offsets[n], bytes.length * 2)];
            }
            v.getDataBuffer().getBytes(0, bytes, 0, offsets[n]);
            boolean none = !nulls(v, n);
            for (int i = 0; i < n; i++) {
                out[at[i]] = !none && missing[i] ? null : few ? known(offsets[i], offsets[i + 1])
                        : new String(bytes, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
            }
        }

        /** The text of bytes[from, to), the same String for the same bytes while at most 64 texts were seen. */
        private String known(int from, int to) {
            if (last >= 0 && same(targetBytes.get(last), from, to)) {
                return targetTexts.get(last);
            }
            for (int k = 0; k < targetBytes.size(); k++) {
                if (same(targetBytes.get(k), from, to)) {
                    last = k;
                    return targetTexts.get(k);
                }
            }
            String text = new String(bytes, from, to - from, StandardCharsets.UTF_8);
            if (targetBytes.size() < DISTINCT_TARGETS) {
                targetBytes.add(Arrays.copyOfRange(bytes, from, to));
                targetTexts.add(text);
            }
            return text;
        }

        private boolean same(byte[] b, int from, int to) {
            if (b.length != to - from) {
                return false;
            }
            for (int i = 0; i < b.length; i++) {
                if (b[i] != bytes[from + i]) {
                    return false;
                }
            }
            return true;
        }

        /** Marks in {@code missing[0, n)} which of the first {@code n} values are NULL; false when none is. */
        private boolean nulls(FieldVector v, int n) {
            if (v.getNullCount() == 0) {
                return false;
            }
            nulls(v, 0, n);
            return true;
        }

        /** Marks in {@code missing[0, hi - lo)} which of rows [lo, hi) are NULL ({@code lo} a multiple of 8). */
        private void nulls(FieldVector v, int lo, int hi) {
            int len = hi - lo;
            byte[] bits = new byte[(len + 7) / 8];
            v.getValidityBuffer().getBytes(lo >> 3, bits);
            for (int i = 0; i < len; i++) {
                missing[i] = (bits[i >> 3] & (1 << (i & 7))) == 0;
            }
        }

        MlData toData() {
            if (seen != positions.rows()) {
                throw new IllegalStateException("read " + seen + " rows of features for " + positions.rows()
                        + " sorted rows: the table changed between the two reads");
            }
            return new MlData(seen, width, x, entities, targets, rowids, display);
        }
    }

    private static LongBuffer longs(BigIntVector v, int n) {
        return v.getDataBuffer().nioBuffer(0, n * BigIntVector.TYPE_WIDTH).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    }

    private static String text(VarCharVector v, int i) {
        return v.isNull(i) ? null : new String(v.get(i), StandardCharsets.UTF_8);
    }
}
