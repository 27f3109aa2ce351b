package dev.sift.data;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who may build a dataset now: one build per name at a time (a second build of the same name waits for the
 * first, then finds it done), at most {@code running} builds of different names at once, and at most
 * {@code waiting} more queued; beyond that a build is refused at once instead of piling up. One slow build
 * never blocks the builds (uploads) of other names beyond the running limit.
 */
final class BuildQueue {
    private final int running;
    private final int waiting;
    private final Semaphore slots;
    private final AtomicInteger admitted = new AtomicInteger();
    private final ConcurrentHashMap<String, ReentrantLock> names = new ConcurrentHashMap<>();

    BuildQueue(int running, int waiting) {
        this.running = running;
        this.waiting = waiting;
        this.slots = new Semaphore(running, true);
    }

    /** The work of one build of {@code name}, run once admitted. */
    @FunctionalInterface
    interface Build<T> {
        T run() throws Exception;
    }

    <T> T run(String name, Build<T> build) throws Exception {
        if (admitted.incrementAndGet() > running + waiting) {
            admitted.decrementAndGet();
            throw new IllegalStateException("Too many datasets are being built: " + running + " running and "
                    + waiting + " waiting. Try again when one has finished.");
        }
        try {
            ReentrantLock lock = names.computeIfAbsent(name, n -> new ReentrantLock(true));
            lock.lockInterruptibly();
            try {
                slots.acquire();
                try {
                    return build.run();
                } finally {
                    slots.release();
                }
            } finally {
                lock.unlock();
            }
        } finally {
            admitted.decrementAndGet();
        }
    }
}
