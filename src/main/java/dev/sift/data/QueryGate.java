package dev.sift.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Admission and memory watch for queries, shared by the workspaces of one process (a server owns one): at most
 * {@code maxRunning} queries run at once, and a running query is cancelled when the process grows by more than
 * the memory limit while it runs. DuckDB's own {@code memory_limit} bounds its buffer pool only; a huge list or
 * string ({@code range(300000000)}, {@code repeat('x', 2000000000)}) is allocated outside it, so the limit
 * that holds is measured on the process (resident set, Linux {@code /proc/self/statm}).
 */
public final class QueryGate implements AutoCloseable {
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE = 4096;
    private static final Duration POLL = Duration.ofMillis(25);

    private final int maxRunning;
    private final Semaphore running;
    private final LongSupplier residentBytes;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder waitedNanos = new LongAdder();
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sift-query-watch");
        t.setDaemon(true);
        return t;
    });

    public QueryGate(int maxRunning) {
        this(maxRunning, QueryGate::residentSetBytes);
    }

    QueryGate(int maxRunning, LongSupplier residentBytes) {
        if (maxRunning < 1) {
            throw new IllegalArgumentException("maxRunning must be at least 1, got " + maxRunning);
        }
        this.maxRunning = maxRunning;
        this.running = new Semaphore(maxRunning, true);
        this.residentBytes = residentBytes;
    }

    public int maxRunning() {
        return maxRunning;
    }

    /** Queries admitted so far. */
    public long admitted() {
        return admitted.sum();
    }

    /** Time the admitted queries spent waiting for a free place, in total (what the gate costs in latency). */
    public long waitedNanos() {
        return waitedNanos.sum();
    }

    /** One admitted query: watched until closed; {@link #outOfMemory()} says whether the watch cancelled it. */
    public final class Ticket implements AutoCloseable {
        private final AtomicBoolean overLimit = new AtomicBoolean();
        private volatile ScheduledFuture<?> watch;

        private void watch(Statement st, long limitBytes) {
            long base = residentBytes.getAsLong();
            if (base <= 0 || limitBytes <= 0) {
                return; // no measure of the process here: DuckDB's own limit is all there is
            }
            // cancel on every poll while over the limit: a cancel that lands before the statement starts is lost
            watch = watcher.scheduleWithFixedDelay(() -> {
                if (residentBytes.getAsLong() - base > limitBytes) {
                    overLimit.set(true);
                    try {
                        st.cancel();
                    } catch (SQLException | RuntimeException ignored) {
                        // the statement ended meanwhile: nothing left to stop
                    }
                }
            }, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
        }

        public boolean outOfMemory() {
            return overLimit.get();
        }

        @Override
        public void close() {
            ScheduledFuture<?> w = watch;
            if (w != null) {
                w.cancel(false);
            }
            running.release();
        }
    }

    /**
     * Admits a query within {@code wait} (else a TIMEOUT saying the server is busy) and watches {@code st}
     * against {@code limitBytes} of growth.
     */
    public Ticket admit(Statement st, long limitBytes, Duration wait) throws QueryException {
        long start = System.nanoTime();
        try {
            if (!running.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new QueryException(QueryException.Kind.TIMEOUT, "The server is busy: " + maxRunning
                        + " queries are running and none finished within " + Math.max(1, wait.toSeconds())
                        + " s. Try again in a moment.");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled while waiting to run.");
        }
        waitedNanos.add(System.nanoTime() - start);
        admitted.increment();
        Ticket ticket = new Ticket();
        try {
            ticket.watch(st, limitBytes);
        } catch (RuntimeException e) {
            ticket.close();
            throw e;
        }
        return ticket;
    }

    /** "2GB", "512 MB", "1.5GiB" → bytes (DuckDB's memory_limit syntax); -1 when it cannot be read. */
    public static long parseBytes(String limit) {
        String s = limit == null ? "" : limit.trim().toUpperCase(Locale.ROOT).replace(" ", "");
        var m = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([KMGT]?I?B?)").matcher(s);
        if (!m.matches()) {
            return -1;
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2);
        boolean binary = unit.contains("I");
        int power = unit.isEmpty() || unit.equals("B") ? 0 : "KMGT".indexOf(unit.charAt(0)) + 1;
        return (long) (n * Math.pow(binary ? 1024 : 1000, power));
    }

    private static long residentSetBytes() {
        try {
            String[] fields = Files.readString(STATM).trim().split(" ");
            return Long.parseLong(fields[1]) * PAGE;
        } catch (IOException | RuntimeException e) {
            return -1; // not Linux: no process measure
        }
    }

    @Override
    public void close() {
        watcher.shutdownNow();
    }
}
