package dev.sift.data.source;

import dev.sift.data.Progress;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.sqlite.core.Codes;
import org.sqlite.core.CoreStatement;
import org.sqlite.core.DB;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SQLite query's rows as Arrow batches for {@link ArrowIngest}: the whole query, or every n-th chunk of a table's
 * rowids (so several of these read one table on several threads, each on its own connection). Statements are
 * stepped through sqlite-jdbc's own native layer ({@link DB}: step, column_type, column_long …) under one lock per
 * batch: through {@code ResultSet} each value cost a locked call and a lambda, most of the read's time. Each
 * value's storage class comes with it, so a value of a class its column was not expected to hold stops the batches
 * ({@link #mismatch()}), and the classes each column held are kept ({@link #seen}). Values are gathered in Java
 * arrays and copied into the Arrow vectors a column at a time ({@link ColumnBuffer}): setting them one by one
 * through Arrow's bounds-checked buffers cost as much as reading them from SQLite.
 */
final class SqliteBatches implements ArrowIngest.Producer, AutoCloseable {
    /**
     * Chunk {@code j} holds rowids [first + j·span, first + (j+1)·span); this reader takes chunks offset, offset +
     * stride, … up to the one holding {@code last}.
     */
    record Chunks(String rowid, long first, long last, long span, int offset, int stride) { }

    /** Storage-class bits of {@link #seen}. */
    static final int INTEGER = 1;
    static final int REAL = 2;
    static final int TEXT = 4;
    static final int BLOB = 8;

    static final int BATCH_ROWS = 16_384;
    /** A batch also ends past this many bytes of text or blobs, so wide rows keep memory bounded. */
    private static final long BATCH_BYTES = 16L << 20;
    private static final int PROGRESS_ROWS = 100_000;

    private final Connection src;
    private final String query;
    private final Chunks chunks;
    private final List<ColumnBuffer.Kind> kinds;
    private final boolean utf8;
    private final Progress progress;
    private final String table;
    private final long total;
    private final AtomicLong copied;
    private final int[] seen;
    private final ColumnBuffer[] buffers;
    private volatile boolean mismatch;
    private PreparedStatement statement;
    private long chunk;

    /**
     * Reads {@code query} (a SELECT without WHERE) on {@code src}: whole, or by {@code chunks} when not null.
     * {@code utf8} says the database stores text as UTF-8; {@code copied} counts the rows of all readers of the table.
     */
    SqliteBatches(Connection src, String query, Chunks chunks, List<ColumnBuffer.Kind> kinds, boolean utf8, Progress progress,
                  String table, long total, AtomicLong copied) {
        this.src = src;
        this.query = query;
        this.chunks = chunks;
        this.kinds = kinds;
        this.utf8 = utf8;
        this.progress = progress;
        this.table = table;
        this.total = total;
        this.copied = copied;
        this.chunk = chunks == null ? 0 : chunks.offset();
        this.seen = new int[kinds.size()];
        this.buffers = new ColumnBuffer[kinds.size()];
        for (int c = 0; c < buffers.length; c++) {
            buffers[c] = new ColumnBuffer(kinds.get(c), BATCH_ROWS);
        }
    }

    @Override
    public ArrowIngest.Fill fill(VectorSchemaRoot batch) throws SQLException {
        if (statement == null) { // a chunk begins: each reader has at least one
            statement = src.prepareStatement(chunks == null ? query : query + " WHERE " + chunks.rowid() + " >= "
                    + (chunks.first() + chunk * chunks.span()) + " AND " + chunks.rowid() + " < "
                    + (chunks.first() + (chunk + 1) * chunks.span()));
        }
        for (ColumnBuffer b : buffers) {
            b.clear();
        }
        CoreStatement core = statement.unwrap(CoreStatement.class);
        boolean[] stepped = new boolean[1];
        int n = core.pointer.safeRun((db, ptr) -> read(db, ptr, stepped));
        for (int c = 0; c < buffers.length; c++) {
            buffers[c].writeTo(batch.getVector(c), n);
        }
        batch.setRowCount(n);
        long now = copied.addAndGet(n);
        if (now / PROGRESS_ROWS != (now - n) / PROGRESS_ROWS) {
            progress.report("loading " + table, now, total);
        }
        if (mismatch) {
            return ArrowIngest.Fill.END;
        }
        if (!stepped[0]) {
            return ArrowIngest.Fill.MORE;
        }
        statement.close();
        statement = null;
        if (chunks == null) {
            return ArrowIngest.Fill.END;
        }
        chunk += chunks.stride();
        return chunks.first() + chunk * chunks.span() > chunks.last() ? ArrowIngest.Fill.END : ArrowIngest.Fill.CHUNK_END;
    }

    @Override
    public void close() throws SQLException {
        if (statement != null) {
            statement.close();
        }
    }

    /** Steps up to a batch of rows into the buffers; returns how many, {@code stepped[0]} when the rows ran out. */
    private int read(DB db, long ptr, boolean[] stepped) throws SQLException {
        int n = 0;
        long bytes = 0;
        int width = kinds.size();
        while (n < BATCH_ROWS && bytes < BATCH_BYTES) {
            int rc = db.step(ptr);
            if (rc == Codes.SQLITE_DONE) {
                stepped[0] = true;
                break;
            }
            if (rc != Codes.SQLITE_ROW) {
                db.throwex(rc);
            }
            for (int c = 0; c < width; c++) {
                ColumnBuffer b = buffers[c];
                int type = db.column_type(ptr, c);
                if (type == Codes.SQLITE_NULL) {
                    b.addNull(n);
                    continue;
                }
                int cls = type == Codes.SQLITE_INTEGER ? INTEGER : type == Codes.SQLITE_FLOAT ? REAL
                        : type == Codes.SQLITE_TEXT ? TEXT : BLOB;
                seen[c] |= cls;
                switch (kinds.get(c)) {
                    case BIGINT -> {
                        if (cls != INTEGER) {
                            return stop(n);
                        }
                        b.add(n, db.column_long(ptr, c));
                    }
                    case DOUBLE -> {
                        if (cls != INTEGER && cls != REAL) {
                            return stop(n);
                        }
                        b.add(n, db.column_double(ptr, c));
                    }
                    case BLOB -> {
                        if (cls != BLOB) {
                            return stop(n);
                        }
                        bytes += b.add(n, db.column_blob(ptr, c));
                    }
                    default -> bytes += b.add(n, text(db, ptr, c, cls)); // VARCHAR
                }
            }
            n++;
        }
        return n;
    }

    /**
     * A value as UTF-8 text: the bytes SQLite holds (numbers as SQLite writes them), decoded and encoded again only
     * when they are not plain ASCII, so invalid UTF-8 still becomes valid text (with replacement characters).
     */
    private byte[] text(DB db, long ptr, int c, int cls) throws SQLException {
        if (!utf8 && cls == TEXT) {
            return db.column_text(ptr, c).getBytes(StandardCharsets.UTF_8);
        }
        byte[] v = db.column_blob(ptr, c);
        for (byte b : v) {
            if (b < 0) {
                return new String(v, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
            }
        }
        return v;
    }

    private int stop(int n) {
        mismatch = true;
        return n;
    }

    /** A value's storage class did not fit its column's kind: the batches ended there. */
    boolean mismatch() {
        return mismatch;
    }

    /** The storage classes column {@code c} held, as bits. */
    int seen(int c) {
        return seen[c];
    }
}
