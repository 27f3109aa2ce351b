package dev.sift.web;

import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * The server's runs, in memory: a concurrent map by id plus the order they started in, so that beyond
 * {@link #KEPT} runs the oldest finished ones are forgotten (their results live on in the sessions' turns).
 * Owns the pool the runs execute on, and tells how long each run waited there for a thread.
 */
final class RunRegistry implements AutoCloseable {
    static final int KEPT = 2000;

    private final ConcurrentHashMap<String, RunHandle> runs = new ConcurrentHashMap<>();
    private final Queue<String> order = new ConcurrentLinkedQueue<>();
    private final ExecutorService pool;
    private final LongConsumer queuedNanos;

    RunRegistry(int threads, LongConsumer queuedNanos) {
        this.queuedNanos = queuedNanos;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sift-run-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Registers the run and starts {@code work} on the pool. */
    void start(RunHandle h, Runnable work) {
        runs.put(h.id(), h);
        order.add(h.id());
        forgetOldFinished();
        long queued = System.nanoTime();
        pool.submit(() -> {
            queuedNanos.accept(System.nanoTime() - queued);
            work.run();
        });
    }

    private void forgetOldFinished() {
        while (runs.size() > KEPT) {
            String eldest = order.peek();
            RunHandle h = eldest == null ? null : runs.get(eldest);
            if (h != null && !h.done()) {
                return; // the oldest is still running: keep everything until it ends
            }
            if (eldest == null || !order.remove(eldest)) {
                return;
            }
            runs.remove(eldest);
        }
    }

    Optional<RunHandle> find(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    RunHandle require(String id) {
        return find(id).orElseThrow(() -> ApiError.notFound("No run '" + id + "' in this server (runs are kept in"
                + " memory; a session's turns keep their results: GET /api/sessions/{id})."));
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
