package dev.sift.data.source;

import dev.sift.data.ArrowMemory;
import dev.sift.data.Sql;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows inserted into a DuckDB table as an Arrow stream: producers fill column batches on their own threads while
 * DuckDB converts, compresses and writes the ones before, so reading the source and writing the table share the
 * cores. DuckDB's Appender took about 8 s of CPU for a million rows of seven columns (a native call per value);
 * the same rows as Arrow batches take under one. With several producers each reads every n-th chunk of the rows
 * and the stream takes the chunks in turn, so the rows keep their order. A few batches per producer wait between
 * the threads at most: memory stays bounded whatever the table's size.
 */
final class ArrowIngest {
    /** Batches a producer may have waiting: it blocks beyond this. */
    private static final int QUEUED = 2;
    private static final AtomicLong VIEWS = new AtomicLong();

    /** What a {@link Producer#fill} call left: more rows of the chunk, the chunk's end, or the producer's end. */
    enum Fill { MORE, CHUNK_END, END }

    /** Fills batches of rows: chunk after chunk, each in one or more batches. */
    @FunctionalInterface
    interface Producer {
        /**
         * Fills {@code batch}: allocates its vectors, sets their values and the row count (0 is allowed). Runs on the
         * producer's own thread. {@link Fill#END} also ends the producer's last chunk.
         */
        Fill fill(VectorSchemaRoot batch) throws Exception;
    }

    private ArrowIngest() { }

    /**
     * Runs {@code INSERT INTO qualified SELECT select FROM <the stream>} with the producers' rows, whose columns are
     * {@code schema}'s: chunk 0 from the first producer, chunk 1 from the second, and so on in turn. When a producer
     * ends (its rows are done, it failed, or it stopped on purpose) the stream ends there. A producer's failure is
     * rethrown as it was, after DuckDB stopped reading; the caller owns the transaction, so a failed insert leaves
     * nothing once it rolls back.
     */
    static void insert(Connection db, String qualified, String select, Schema schema, List<Producer> producers)
            throws Exception {
        String view = "sift_ingest_" + VIEWS.incrementAndGet();
        try (BufferAllocator allocator = ArrowMemory.allocator(); Batches batches = new Batches(allocator, schema, producers)) {
            try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                Data.exportArrayStream(allocator, batches, stream);
                db.unwrap(DuckDBConnection.class).registerArrowStream(view, stream);
                try (Statement st = db.createStatement()) {
                    batches.start();
                    try {
                        st.execute("INSERT INTO " + qualified + " SELECT " + select + " FROM " + Sql.quoteIdent(view));
                    } catch (SQLException e) {
                        batches.rethrowFailure(); // the producer's reason, not the stream's echo of it
                        throw e;
                    } finally {
                        batches.stop();
                        st.execute("DROP VIEW IF EXISTS " + Sql.quoteIdent(view)); // releases DuckDB's hold on the stream
                    }
                }
            }
            batches.rethrowFailure();
        }
    }

    /** A filled batch and whether it ends its chunk. */
    private record Item(VectorSchemaRoot batch, boolean chunkEnd) { }

    /** The stream DuckDB reads: batches handed over from the producers' threads, chunk by chunk in turn. */
    private static final class Batches extends ArrowReader {
        private static final Item END = new Item(null, true);
        private final Schema schema;
        private final List<Producer> producers;
        private final List<BlockingQueue<Item>> queues = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stopped;
        private volatile Throwable failure;
        private int turn;
        private boolean ended;

        Batches(BufferAllocator allocator, Schema schema, List<Producer> producers) {
            super(allocator);
            this.schema = schema;
            this.producers = producers;
            producers.forEach(p -> queues.add(new ArrayBlockingQueue<>(QUEUED)));
        }

        void start() {
            for (int i = 0; i < producers.size(); i++) {
                int k = i;
                Thread t = new Thread(() -> produce(producers.get(k), queues.get(k)), "sift-ingest-" + k);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void produce(Producer producer, BlockingQueue<Item> queue) {
            try {
                Fill fill = Fill.MORE;
                while (fill != Fill.END && !stopped) {
                    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
                    try {
                        fill = producer.fill(batch);
                    } catch (Throwable e) {
                        batch.close();
                        throw e;
                    }
                    if (!hand(queue, new Item(batch, fill != Fill.MORE))) {
                        batch.close();
                    }
                }
            } catch (Throwable e) {
                failure = e;
            } finally {
                hand(queue, END);
            }
        }

        /** Queues {@code item} unless DuckDB has stopped reading; false when it was not queued. */
        private boolean hand(BlockingQueue<Item> queue, Item item) {
            try {
                while (!stopped) {
                    if (queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
                        return true;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }

        @Override
        public boolean loadNextBatch() throws IOException {
            while (!ended) {
                Item next;
                try {
                    next = queues.get(turn).take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for rows", e);
                }
                if (next == END) {
                    ended = true; // the chunk in turn will not come: no later one will either
                    break;
                }
                if (next.chunkEnd()) {
                    turn = (turn + 1) % queues.size();
                }
                VectorSchemaRoot batch = next.batch();
                if (batch.getRowCount() == 0) {
                    batch.close();
                    continue;
                }
                VectorSchemaRoot root = getVectorSchemaRoot();
                for (int i = 0; i < batch.getFieldVectors().size(); i++) {
                    batch.getVector(i).makeTransferPair(root.getVector(i)).transfer();
                }
                root.setRowCount(batch.getRowCount());
                batch.close();
                return true;
            }
            return false;
        }

        /** Stops the producers and frees what they had queued. */
        void stop() throws InterruptedException {
            stopped = true;
            for (Thread t : threads) {
                t.join();
            }
            for (BlockingQueue<Item> queue : queues) {
                for (Item item; (item = queue.poll()) != null; ) {
                    if (item.batch() != null) {
                        item.batch().close();
                    }
                }
            }
        }

        void rethrowFailure() throws Exception {
            Throwable e = failure;
            if (e instanceof Exception x) {
                throw x;
            }
            if (e instanceof Error x) {
                throw x;
            }
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        protected void closeReadSource() { }

        @Override
        protected Schema readSchema() {
            return schema;
        }
    }
}
