package dev.sift.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Admission and memory watch for queries, shared by the workspaces of one process (a server owns one): at most
 * {@code maxRunning} queries run at once, and a running query is cancelled when the process grows by more than
 * the memory limit while it runs. With a process budget (Java heap + DuckDB's limit + an allowance: one budget), a
 * query waits to start while the process is over it, and is refused when no memory comes free within the time limit;
 * running queries are cancelled when the process passes it. DuckDB's own {@code memory_limit} bounds its buffer pool only; a huge list or
 * string ({@code range(300000000)}, {@code repeat('x', 2000000000)}) is allocated outside it, so the limit
 * that holds is measured on the process (resident set, Linux {@code /proc/self/statm}). The same polls enforce a query's
 * time limit when it is admitted with one: JDBC's own time limit started a timer task per statement, which woke the
 * driver's timer thread for every query.
 */
public final class QueryGate implements AutoCloseable {
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE = 4096;
    private static final Duration POLL = Duration.ofMillis(25);
    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([KMGT]?I?B?)");
    /**
     * How long one reading of the resident set serves admissions (the budget check, a watch's starting point): reading
     * it for each of a busy process's queries cost more than the gate's other work. The watch's polls read afresh.
     */
    static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final int maxRunning;
    /** The process's memory budget in bytes; 0 for none (a command's own gate). */
    private final long budgetBytes;
    private final Semaphore running;
    private final LongSupplier residentBytes;
    private final LongAdder admitted = new LongAdder();
    private final LongAdder waitedNanos = new LongAdder();
    /** The admitted queries the memory watch polls, and whether a poll is scheduled. */
    private final Set<Ticket> watched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean polling = new AtomicBoolean();
    /** The last reading of the resident set and when it was taken (null before the first). */
    private volatile Sample sample;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sift-query-watch");
        t.setDaemon(true);
        return t;
    });

    public QueryGate(int maxRunning) {
        this(maxRunning, 0, new ResidentSet());
    }

    /** A gate that also keeps the process within {@code budgetBytes} of resident memory. */
    public QueryGate(int maxRunning, long budgetBytes) {
        this(maxRunning, budgetBytes, new ResidentSet());
    }

    QueryGate(int maxRunning, LongSupplier residentBytes) {
        this(maxRunning, 0, residentBytes);
    }

    QueryGate(int maxRunning, long budgetBytes, LongSupplier residentBytes) {
        if (maxRunning < 1) {
            throw new IllegalArgumentException("maxRunning must be at least 1, got " + maxRunning);
        }
        this.maxRunning = maxRunning;
        this.budgetBytes = Math.max(0, budgetBytes);
        this.running = new Semaphore(maxRunning, true);
        this.residentBytes = residentBytes;
    }

    public int maxRunning() {
        return maxRunning;
    }

    /** The process's memory budget in bytes; 0 when there is none. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** Queries admitted so far. */
    public long admitted() {
        return admitted.sum();
    }

    /** Time the admitted queries spent waiting for a free place, in total (what the gate costs in latency). */
    public long waitedNanos() {
        return waitedNanos.sum();
    }

    /**
     * One admitted query: watched until closed; {@link #outOfMemory()}, {@link #overBudget()} and {@link #overTime()} say
     * whether the watch cancelled it.
     */
    public final class Ticket implements AutoCloseable {
        private final AtomicBoolean overLimit = new AtomicBoolean();
        private final AtomicBoolean overBudget = new AtomicBoolean();
        private final AtomicBoolean overTime = new AtomicBoolean();
        private Statement statement;
        private long base;
        private long limitBytes;
        /** When the time limit ends ({@link System#nanoTime}); unused without one. */
        private long deadline;
        private boolean timed;

        private void watch(Statement st, long limit, Duration timeLimit) {
            long resident = recentResident();
            timed = timeLimit != null;
            deadline = timed ? System.nanoTime() + timeLimit.toNanos() : 0;
            limitBytes = resident > 0 ? limit : 0; // no measure of the process: DuckDB's own memory limit is all there is
            if (limitBytes <= 0 && !timed) {
                return;
            }
            statement = st;
            base = resident;
            watched.add(this);
            if (polling.compareAndSet(false, true)) {
                schedulePoll();
            }
        }

        /**
         * Cancels the statement while the process is over its limit or the time limit has passed (each poll again: a
         * cancel that lands before the statement starts is lost).
         */
        private void check(long resident, long now) {
            boolean grew = limitBytes > 0 && resident > 0 && resident - base > limitBytes;
            boolean over = budgetBytes > 0 && resident > budgetBytes;
            boolean late = timed && now - deadline >= 0;
            if (grew || over || late) {
                (grew ? overLimit : over ? overBudget : overTime).set(true);
                try {
                    statement.cancel();
                } catch (SQLException | RuntimeException ignored) {
                    // the statement ended meanwhile: nothing left to stop
                }
            }
        }

        public boolean outOfMemory() {
            return overLimit.get();
        }

        /** Whether the watch cancelled the query at its time limit. */
        public boolean overTime() {
            return overTime.get();
        }

        long budgetBytes() {
            return budgetBytes;
        }

        /** Whether the watch cancelled the query because the process passed its budget. */
        public boolean overBudget() {
            return overBudget.get();
        }

        @Override
        public void close() {
            watched.remove(this);
            running.release();
        }
    }

    /**
     * One poll for every watched query, rescheduled while any is watched: a query that ends between two polls
     * costs the watch nothing (a task per query woke the watch thread twice for each).
     */
    private void poll() {
        long resident = readResident();
        long now = System.nanoTime();
        for (Ticket ticket : watched) {
            ticket.check(resident, now);
        }
        if (watched.isEmpty()) {
            polling.set(false);
            // a query admitted between the check and the flag saw polling on and scheduled nothing
            if (watched.isEmpty() || !polling.compareAndSet(false, true)) {
                return;
            }
        }
        schedulePoll();
    }

    private void schedulePoll() {
        try {
            watcher.schedule(this::poll, POLL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            polling.set(false); // the gate is closed: nothing runs through it any more
        }
    }

    /**
     * Admits a query within {@code wait} (else a TIMEOUT saying the server is busy) and watches {@code st}
     * against {@code limitBytes} of growth.
     */
    public Ticket admit(Statement st, long limitBytes, Duration wait) throws QueryException {
        return admit(st, limitBytes, wait, null);
    }

    /**
     * As above, and cancels {@code st} once {@code timeLimit} has passed from its admission until its ticket is closed
     * (within one poll, {@link #POLL}); null for no time limit.
     */
    public Ticket admit(Statement st, long limitBytes, Duration wait, Duration timeLimit) throws QueryException {
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
        try {
            awaitBudget(start + wait.toNanos());
        } catch (QueryException e) {
            running.release();
            throw e;
        }
        waitedNanos.add(System.nanoTime() - start);
        admitted.increment();
        Ticket ticket = new Ticket();
        try {
            ticket.watch(st, limitBytes, timeLimit);
        } catch (RuntimeException e) {
            ticket.close();
            throw e;
        }
        return ticket;
    }

    /** Waits while the process is over its budget (memory held by queries that just ended comes free), until the deadline. */
    private void awaitBudget(long deadline) throws QueryException {
        if (budgetBytes <= 0) {
            return;
        }
        long resident = recentResident();
        while (resident > budgetBytes) {
            if (System.nanoTime() >= deadline) {
                throw new QueryException(QueryException.Kind.TIMEOUT, "The server is at its memory budget: the process"
                        + " holds " + megabytes(resident) + " of its " + megabytes(budgetBytes) + " (Java heap + DuckDB's"
                        + " memory limit + an allowance) and none came free within the time limit. Try again in a moment,"
                        + " with a query that selects fewer rows or shorter values.");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled while waiting to run.");
            }
            resident = readResident();
        }
    }

    /** One reading of the resident set, in bytes, and when it was taken ({@link System#nanoTime}). */
    private record Sample(long bytes, long at) { }

    /** The resident set as read at most {@link #SAMPLE_NANOS} ago, else read now. */
    private long recentResident() {
        Sample last = sample;
        return last != null && System.nanoTime() - last.at() < SAMPLE_NANOS ? last.bytes() : readResident();
    }

    /** The resident set read now, kept for the admissions that follow. */
    private long readResident() {
        long bytes = residentBytes.getAsLong();
        sample = new Sample(bytes, System.nanoTime());
        return bytes;
    }

    /** 4831838208 → "4,608 MB". */
    static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%,d MB", bytes >> 20);
    }

    /** "2GB", "512 MB", "1.5GiB" → bytes (DuckDB's memory_limit syntax); -1 when it cannot be read. */
    public static long parseBytes(String limit) {
        String s = limit == null ? "" : limit.trim().toUpperCase(Locale.ROOT).replace(" ", "");
        var m = SIZE.matcher(s);
        if (!m.matches()) {
            return -1;
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2);
        boolean binary = unit.contains("I");
        int power = unit.isEmpty() || unit.equals("B") ? 0 : "KMGT".indexOf(unit.charAt(0)) + 1;
        return (long) (n * Math.pow(binary ? 1024 : 1000, power));
    }

    /**
     * The process's resident set in bytes, read from one open {@code /proc/self/statm} (opening the file for every
     * query cost more than reading it); -1 where there is no such file.
     */
    static final class ResidentSet implements LongSupplier, AutoCloseable {
        private final ByteBuffer buffer = ByteBuffer.allocate(256);
        private FileChannel statm;
        private boolean absent;

        @Override
        public synchronized long getAsLong() {
            if (absent) {
                return -1;
            }
            try {
                if (statm == null) {
                    statm = FileChannel.open(STATM);
                }
                buffer.clear();
                statm.read(buffer, 0); // the kernel writes the figures afresh on every read from the start
                return secondNumber(buffer.flip()) * PAGE;
            } catch (IOException | RuntimeException e) {
                absent = true; // not Linux: no process measure
                close();
                return -1;
            }
        }

        /** "size resident shared …" (pages): the second number. */
        private static long secondNumber(ByteBuffer text) {
            int i = 0;
            while (i < text.limit() && text.get(i) != ' ') {
                i++;
            }
            long n = 0;
            int digits = 0;
            for (i++; i < text.limit() && Character.isDigit(text.get(i)); i++, digits++) {
                n = n * 10 + (text.get(i) - '0');
            }
            if (digits == 0) {
                throw new IllegalStateException("Unreadable " + STATM);
            }
            return n;
        }

        @Override
        public synchronized void close() {
            try (FileChannel open = statm) {
                statm = null;
            } catch (IOException ignored) {
                // a read-only file: nothing to lose
            }
        }
    }

    @Override
    public void close() {
        watcher.shutdownNow();
        if (residentBytes instanceof ResidentSet own) {
            own.close();
        }
    }
}
