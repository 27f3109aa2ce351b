package dev.sift.cli;

import dev.sift.data.Progress;

import java.io.PrintWriter;

/** Progress on stderr: at most a few lines per stage, so logs and CI output stay readable. */
public final class ConsoleProgress implements Progress {
    private static final long MIN_INTERVAL_NANOS = 1_000_000_000L;

    private final PrintWriter out;
    private final String what;
    private String stage;
    private long lastPrint;

    public ConsoleProgress(PrintWriter out, String what) {
        this.out = out;
        this.what = what;
    }

    @Override
    public synchronized void report(String stage, long done, long total) { // loaders report from their threads
        long now = System.nanoTime();
        boolean newStage = !stage.equals(this.stage);
        boolean finished = total > 0 && done >= total;
        if (!newStage && !finished && now - lastPrint < MIN_INTERVAL_NANOS) {
            return;
        }
        this.stage = stage;
        lastPrint = now;
        out.printf("%s: %s %,d%s%n", what, stage, done, total > 0 ? String.format("/%,d", total) : "");
        out.flush();
    }
}
