package dev.sift.data.source;

import dev.sift.data.Progress;
import org.duckdb.DuckDBPreparedStatement;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows how far one long DuckDB statement (writing a large file's table) has got, from DuckDB's own progress
 * measure, twice a second once it has run for a second; a statement that ends sooner shows nothing.
 */
final class ReadProgress implements AutoCloseable {
    private static final long FIRST_MILLIS = 1000;
    private static final long EVERY_MILLIS = 500;

    private final ScheduledExecutorService poller;

    private ReadProgress(ScheduledExecutorService poller) {
        this.poller = poller;
    }

    /** Watches {@code st} (a DuckDB statement about to run), reporting as {@code stage} in percent. */
    static ReadProgress watch(Statement st, String stage, Progress progress) throws SQLException {
        if (progress == Progress.NONE) {
            return new ReadProgress(null);
        }
        try (Statement settings = st.getConnection().createStatement()) {
            settings.execute("SET enable_progress_bar = true"); // DuckDB measures progress only then
            settings.execute("SET enable_progress_bar_print = false");
        }
        DuckDBPreparedStatement duck = st.unwrap(DuckDBPreparedStatement.class);
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sift-read-progress");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(() -> {
            try {
                double percent = duck.getQueryProgress().getPercentage();
                if (percent >= 0) {
                    progress.report(stage + ", percent done", Math.round(percent), 100);
                }
            } catch (SQLException | RuntimeException e) {
                // the statement ended meanwhile: nothing to show
            }
        }, FIRST_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
        return new ReadProgress(poller);
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
