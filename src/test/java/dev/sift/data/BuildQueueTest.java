package dev.sift.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One slow build never blocks the builds of other names; builds of one name run once; the queue is bounded. */
class BuildQueueTest {
    @TempDir
    Path root;

    /** A one-table build that waits for {@code release} first and counts how often it ran. */
    record Slow(String id, CountDownLatch started, CountDownLatch release, AtomicInteger runs) implements DatasetBuilder {
        @Override
        public String fingerprint() {
            return "slow-" + id;
        }

        @Override
        public String describe() {
            return "slow " + id;
        }

        @Override
        public void build(Connection db, Progress progress) throws Exception {
            runs.incrementAndGet();
            started.countDown();
            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TABLE t AS SELECT 1 AS x");
            }
        }
    }

    @Test
    void a_slow_build_does_not_block_the_build_of_another_name() throws Exception {
        DatasetStore store = new DatasetStore(root);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Dataset> slow = pool.submit(() -> store.ensure("slow", new Slow("a", started, release,
                    new AtomicInteger()), Progress.NONE));
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

            Dataset quick = store.ensure("quick", new Slow("b", new CountDownLatch(1), new CountDownLatch(0),
                    new AtomicInteger()), Progress.NONE);

            assertThat(quick.rows("t")).isEqualTo(1);
            assertThat(slow.isDone()).as("the slow build is still running").isFalse();
            release.countDown();
            assertThat(slow.get(30, TimeUnit.SECONDS).rows("t")).isEqualTo(1);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void two_builds_of_one_name_run_once() throws Exception {
        DatasetStore store = new DatasetStore(root);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Dataset> first = pool.submit(() -> store.ensure("same", new Slow("a", started, release, runs),
                    Progress.NONE));
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            Future<Dataset> second = pool.submit(() -> store.ensure("same", new Slow("a", new CountDownLatch(1),
                    release, runs), Progress.NONE));
            Thread.sleep(200);
            release.countDown();

            assertThat(second.get(30, TimeUnit.SECONDS).builtAt()).isEqualTo(first.get(30, TimeUnit.SECONDS).builtAt());
            assertThat(runs).hasValue(1);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void builds_beyond_the_queue_are_refused_at_once() throws Exception {
        BuildQueue queue = new BuildQueue(1, 1);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<String>> admitted = new ArrayList<>();
            admitted.add(pool.submit(() -> queue.run("a", () -> {
                inside.countDown();
                release.await(30, TimeUnit.SECONDS);
                return "a";
            })));
            assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
            admitted.add(pool.submit(() -> queue.run("b", () -> "b")));
            Thread.sleep(200); // b waits for the one running slot

            assertThatThrownBy(() -> queue.run("c", () -> "c")).isInstanceOf(IllegalStateException.class)
                    .hasMessage("Too many datasets are being built: 1 running and 1 waiting. Try again when one has"
                            + " finished.");
            release.countDown();
            assertThat(admitted.get(0).get(30, TimeUnit.SECONDS)).isEqualTo("a");
            assertThat(admitted.get(1).get(30, TimeUnit.SECONDS)).isEqualTo("b");
            assertThat(queue.run("c", () -> "c")).isEqualTo("c");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
