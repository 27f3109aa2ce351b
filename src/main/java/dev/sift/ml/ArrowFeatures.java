package dev.sift.ml;

import dev.sift.data.ArrowMemory;
import dev.sift.data.Numbers;

import dev.sift.data.QueryException;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
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
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

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
    /** Rows whose block of the matrix is written column by column (20 KB for 20 features: 1,024 rows were 20% slower). */
    static final int CHUNK_ROWS = 256;

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
        // a whole-number target arrives as BIGINT (its text made once per distinct value, not cast by DuckDB per row)
        String targetColumn = target != null && MlData.wholeNumbers(table, target)
                ? "CAST(" + Sql.quoteIdent(target) + " AS BIGINT)" : MlData.targetText(target);
        // rows stream in DuckDB's order and are sorted here (numbers, text), unless the entity sorts otherwise (dates)
        boolean sortHere = entity == null || MlData.wholeNumbers(table, entity) || text(table, entity);
        String sql = MlData.select(table, entity, targetColumn, where, select) + (sortHere ? "" : MlData.orderBy(entity));
        long t0 = System.nanoTime();
        // the count first, so the matrix is allocated once at its size
        int rows = Math.toIntExact(ws.trustedRead(MlData.count(table, where), rs -> rs.next() ? rs.getLong(1) : 0L));
        long[] spent = new long[3]; // running the query, importing batches, writing them
        long t1 = System.nanoTime();
        MlData read = ws.trustedRead(sql, rs -> {
            spent[0] = System.nanoTime() - t1;
            return decode(rs, encoder, keepDisplay, rows, spent);
        });
        long t2 = System.nanoTime();
        MlData data = sortHere ? read.inEntityOrder() : read;
        LOG.debug("{} rows of {}: count {} ms, query {} ms, import {} ms, write {} ms, {} {} ms", data.rows(),
                table.name(), (t1 - t0) / 1_000_000, spent[0] / 1_000_000, spent[1] / 1_000_000, spent[2] / 1_000_000,
                data == read ? "already in order" : "sorted", (System.nanoTime() - t2) / 1_000_000);
        return data;
    }

    /** Whether the entity is plain text, whose order is its UTF-8 bytes' (an ENUM sorts by its declaration). */
    private static boolean text(TableInfo table, String column) {
        return table.column(column).map(c -> c.type().toUpperCase(Locale.ROOT).equals("VARCHAR")).orElse(false);
    }

    /** The level's position in {@code levels}, -1 for any other value, NULL for NULL. */
    private static String levelIndex(String text, List<String> levels) {
        StringBuilder b = new StringBuilder("CASE WHEN ").append(text).append(" IS NULL THEN NULL");
        for (int i = 0; i < levels.size(); i++) {
            b.append(" WHEN ").append(text).append(" = ").append(Sql.quoteString(levels.get(i))).append(" THEN ").append(i);
        }
        return b.append(" ELSE -1 END").toString();
    }

    private static MlData decode(ResultSet rs, FeatureEncoder encoder, boolean keepDisplay, int rows, long[] spent)
            throws SQLException {
        DuckDBResultSet duck = rs.unwrap(DuckDBResultSet.class);
        try (BufferAllocator allocator = ArrowMemory.allocator();
             ArrowReader reader = (ArrowReader) duck.arrowExportStream(allocator, BATCH_ROWS)) {
            Rows out = new Rows(rows, encoder.width(), keepDisplay ? encoder.columns().size() : 0);
            long t = System.nanoTime();
            while (reader.loadNextBatch()) {
                long loaded = System.nanoTime();
                spent[1] += loaded - t;
                out.add(reader.getVectorSchemaRoot(), encoder.columns(), keepDisplay);
                t = System.nanoTime();
                spent[2] += t - loaded;
            }
            return out.toData();
        } catch (java.io.IOException e) {
            throw new SQLException("reading the Arrow stream failed: " + e.getMessage(), e);
        }
    }

    /**
     * The matrix and its row arrays, allocated once for the counted rows and filled in the order the rows arrive.
     * Values are read straight from the batches' buffers (an address and an offset: no buffer object or bounds check
     * per value), entities stay longs when whole numbers, and a target's text is made once per distinct value while
     * there are few: a million small objects were most of what the collector had to copy.
     */
    private static final class Rows {
        private static final int DISTINCT_TARGETS = 64;
        private final int rows;
        private final int width;
        private final int shownColumns;
        private final float[] x;
        private final long[] rowids;
        private final String[] targets;
        private final String[][] display;
        private final BitSet entityMissing = new BitSet();
        private long[] entityNumbers;
        private String[] entityTexts;
        private final List<byte[]> targetBytes = new ArrayList<>();
        private final List<String> targetTexts = new ArrayList<>();
        private final long[] wholeTargets = new long[DISTINCT_TARGETS];
        private final String[] wholeTexts = new String[DISTINCT_TARGETS];
        private int wholeSeen;
        private long[] data = new long[0]; // per vector of the batch: its values' address
        private long[] valid = new long[0]; // and its validity bits' (0: no NULL)
        private int[] offsets = new int[0];
        private byte[] bytes = new byte[0];
        private int seen;
        private int last = -1;

        Rows(int rows, int width, int shownColumns) {
            this.rows = rows;
            this.width = width;
            this.shownColumns = shownColumns;
            this.x = new float[Math.multiplyExact(rows, width)];
            this.rowids = new long[rows];
            this.targets = new String[rows];
            this.display = shownColumns > 0 ? new String[rows][] : null;
        }

        void add(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, boolean keepDisplay) {
            int n = root.getRowCount();
            if (n == 0) {
                return;
            }
            int base = seen;
            if (base + n > rows) {
                throw new IllegalStateException("read more than the " + rows + " rows counted: the table changed"
                        + " between counting and reading its rows");
            }
            seen += n;
            longs((BigIntVector) root.getVector(0), n).get(rowids, base, n);
            entities(root.getVector(1), n, base);
            FieldVector target = root.getVector(2);
            if (target instanceof BigIntVector whole) {
                wholeTargets(whole, n, base);
            } else {
                texts((VarCharVector) target, n, targets, base, true);
            }
            if (keepDisplay) {
                for (int i = 0; i < n; i++) {
                    display[base + i] = new String[shownColumns];
                }
            }
            addresses(root, plans, keepDisplay);
            // the features in chunks of rows, so the block of the matrix being written stays in the processor's cache
            for (int lo = 0; lo < n; lo += CHUNK_ROWS) {
                int hi = Math.min(n, lo + CHUNK_ROWS);
                int vector = 3;
                int offset = 0;
                for (FeatureEncoder.ColumnPlan plan : plans) {
                    switch (plan.kind()) {
                        case NUMERIC -> putDoubles(vector++, lo, hi, base, offset++);
                        case ONE_HOT, ORDINAL -> {
                            putLevels(vector++, lo, hi, base, offset, plan);
                            offset += plan.kind() == FeatureEncoder.Kind.ORDINAL ? 1 : plan.levels().size();
                        }
                        case DATE -> {
                            for (int k = 0; k < 4; k++) {
                                putDoubles(vector++, lo, hi, base, offset++);
                            }
                        }
                    }
                    if (keepDisplay && plan.kind() != FeatureEncoder.Kind.NUMERIC) {
                        vector++;
                    }
                }
            }
            if (keepDisplay) {
                display(root, plans, n, base);
            }
        }

        /**
         * Each feature vector's buffer addresses, once per batch (a null count is a count over the validity bits, not
         * a field), each vector checked to be of the type its encoding reads.
         */
        private void addresses(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, boolean keepDisplay) {
            int size = root.getFieldVectors().size();
            if (data.length < size) {
                data = new long[size];
                valid = new long[size];
            }
            int vector = 3;
            for (FeatureEncoder.ColumnPlan plan : plans) {
                int parts = plan.kind() == FeatureEncoder.Kind.DATE ? 4 : 1;
                for (int k = 0; k < parts; k++, vector++) {
                    FieldVector v = plan.kind() == FeatureEncoder.Kind.NUMERIC || plan.kind() == FeatureEncoder.Kind.DATE
                            ? (Float8Vector) root.getVector(vector) : (IntVector) root.getVector(vector);
                    data[vector] = v.getDataBuffer().memoryAddress();
                    valid[vector] = validity(v);
                }
                if (keepDisplay && plan.kind() != FeatureEncoder.Kind.NUMERIC) {
                    vector++;
                }
            }
        }

        /** Whole-number ids as longs (NULLs marked), any other id as text. */
        private void entities(FieldVector entity, int n, int base) {
            if (entity instanceof BigIntVector ids) {
                if (entityNumbers == null) {
                    entityNumbers = new long[rows];
                }
                longs(ids, n).get(entityNumbers, base, n);
                long bits = validity(ids);
                if (bits != 0) {
                    for (int i = 0; i < n; i++) {
                        if (isNull(bits, i)) {
                            entityMissing.set(base + i);
                        }
                    }
                }
            } else {
                if (entityTexts == null) {
                    entityTexts = new String[rows];
                }
                texts((VarCharVector) entity, n, entityTexts, base, false);
            }
        }

        /** Each used value as text, for explanations. */
        private void display(VectorSchemaRoot root, List<FeatureEncoder.ColumnPlan> plans, int n, int base) {
            int vector = 3;
            for (int c = 0; c < plans.size(); c++) {
                FeatureEncoder.ColumnPlan plan = plans.get(c);
                if (plan.kind() == FeatureEncoder.Kind.NUMERIC) {
                    Float8Vector v = (Float8Vector) root.getVector(vector++);
                    for (int i = 0; i < n; i++) {
                        display[base + i][c] = v.isNull(i) ? null : Numbers.number(v.get(i));
                    }
                    continue;
                }
                vector += plan.kind() == FeatureEncoder.Kind.DATE ? 4 : 1;
                VarCharVector shown = (VarCharVector) root.getVector(vector++);
                for (int i = 0; i < n; i++) {
                    display[base + i][c] = text(shown, i);
                }
            }
        }

        /** Rows [lo, hi) of a DOUBLE column into matrix column {@code col}, NULL as NaN. */
        private void putDoubles(int vector, int lo, int hi, int base, int col) {
            long values = data[vector];
            long bits = valid[vector];
            int cell = (base + lo) * width + col;
            for (int i = lo; i < hi; i++, cell += width) {
                float value = (float) Double.longBitsToDouble(MemoryUtil.getLong(values + (long) i * Float8Vector.TYPE_WIDTH));
                x[cell] = bits != 0 && isNull(bits, i) ? Float.NaN : value;
            }
        }

        /** A level index as the row loop encodes it: one-hot 1/0 (NaN when NULL), ordinal the index (NaN unseen). */
        private void putLevels(int vector, int lo, int hi, int base, int col, FeatureEncoder.ColumnPlan plan) {
            boolean ordinal = plan.kind() == FeatureEncoder.Kind.ORDINAL;
            int levels = plan.levels().size();
            long values = data[vector];
            long bits = valid[vector];
            int cell = (base + lo) * width + col;
            for (int i = lo; i < hi; i++, cell += width) {
                int idx = MemoryUtil.getInt(values + (long) i * IntVector.TYPE_WIDTH);
                if (bits != 0 && isNull(bits, i)) {
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

        /** A whole-number target's text (as DuckDB casts it), made once per value while there are few values. */
        private void wholeTargets(BigIntVector v, int n, int base) {
            long values = v.getDataBuffer().memoryAddress();
            long bits = validity(v);
            for (int i = 0; i < n; i++) {
                if (bits != 0 && isNull(bits, i)) {
                    continue;
                }
                long value = MemoryUtil.getLong(values + (long) i * BigIntVector.TYPE_WIDTH);
                targets[base + i] = last >= 0 && wholeTargets[last] == value ? wholeTexts[last] : wholeText(value);
            }
        }

        private String wholeText(long value) {
            for (int k = 0; k < wholeSeen; k++) {
                if (wholeTargets[k] == value) {
                    last = k;
                    return wholeTexts[k];
                }
            }
            String text = Long.toString(value);
            if (wholeSeen < DISTINCT_TARGETS) {
                wholeTargets[wholeSeen] = value;
                wholeTexts[wholeSeen++] = text;
            }
            return text;
        }

        /** The first {@code n} values of a VARCHAR vector into {@code out} from {@code base}; {@code few}: reuse texts. */
        private void texts(VarCharVector v, int n, String[] out, int base, boolean few) {
            if (offsets.length < n + 1) {
                offsets = new int[n + 1];
            }
            v.getOffsetBuffer().nioBuffer(0, (n + 1) * VarCharVector.OFFSET_WIDTH).order(ByteOrder.LITTLE_ENDIAN)
                    .asIntBuffer().get(offsets, 0, n + 1);
            if (bytes.length < offsets[n]) {
                bytes = new byte[Math.max(offsets[n], bytes.length * 2)];
            }
            v.getDataBuffer().getBytes(0, bytes, 0, offsets[n]);
            long bits = validity(v);
            for (int i = 0; i < n; i++) {
                out[base + i] = bits != 0 && isNull(bits, i) ? null : few ? known(offsets[i], offsets[i + 1])
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
            return Arrays.equals(b, 0, b.length, bytes, from, to);
        }

        MlData toData() {
            if (seen != rows) {
                throw new IllegalStateException("read " + seen + " rows for the " + rows + " counted: the table changed"
                        + " between counting and reading its rows");
            }
            Entities entities = entityTexts != null ? Entities.texts(entityTexts)
                    : Entities.numbers(entityNumbers != null ? entityNumbers : new long[0], entityMissing);
            return new MlData(seen, width, x, entities, targets, rowids, display);
        }
    }

    /** The address of {@code v}'s validity bits, 0 when it holds no NULL. */
    private static long validity(FieldVector v) {
        return v.getNullCount() > 0 ? v.getValidityBuffer().memoryAddress() : 0;
    }

    /** Whether value {@code i} is NULL in the validity bitmap at {@code valid} (bit clear = NULL). */
    private static boolean isNull(long valid, int i) {
        return (MemoryUtil.getByte(valid + (i >> 3)) & (1 << (i & 7))) == 0;
    }

    private static LongBuffer longs(BigIntVector v, int n) {
        return v.getDataBuffer().nioBuffer(0, n * BigIntVector.TYPE_WIDTH).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    }

    private static String text(VarCharVector v, int i) {
        return v.isNull(i) ? null : new String(v.get(i), StandardCharsets.UTF_8);
    }
}
