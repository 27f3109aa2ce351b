package dev.sift.bench;

import dev.sift.data.Dataset;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.Explanations;
import dev.sift.ml.FeatureEncoder;
import dev.sift.ml.MlData;
import dev.sift.ml.Predictions;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;
import dev.sift.ml.Trainer;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * What in-process ML costs on synthetic, deterministic data of 20 numeric features (made in DuckDB from
 * hashes of the row number, so every run sees the same rows): building the frame, reading it into a float
 * matrix both ways (Arrow batches, which Sift uses, and the JDBC row loop it replaced, checked to agree; each the
 * median of a few reads, so neither is timed while its code is still being compiled),
 * training the final model on all rows (100 rounds, hist, 2 threads) and, timed beside it, its stratified 5-fold
 * cross-validation (on a stratified sample of 200,000 rows above that size), prediction throughput, and
 * TreeSHAP for 10 cases.
 */
public final class MlBench {
    public static final int FEATURES = 20;
    private final Dataset dataset;
    private final int[] sizes;

    private final int reads;

    /** Reads of each size by each reader ({@code reads}, at least 1), training once on the last. */
    public MlBench(Dataset dataset, int reads, int... sizes) {
        if (reads < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + reads);
        }
        this.dataset = dataset;
        this.reads = reads;
        this.sizes = sizes;
    }

    /** SQL for {@code n} rows: f1..f20 uniform in [0, 1) from hashes; y depends on five of them and an interaction. */
    static String frameSql(int n) {
        StringBuilder b = new StringBuilder("SELECT i AS row_id");
        for (int j = 1; j <= FEATURES; j++) {
            b.append(", (hash(i * ").append(FEATURES + 1).append(" + ").append(j).append(") % 1000000) / 1000000.0 AS f").append(j);
        }
        String inner = b.append(" FROM range(").append(n).append(") t(i)").toString();
        return "SELECT *, CASE WHEN 2 * f1 - 1.5 * f2 + f3 * f4 + 0.5 * f5 + (hash(row_id * 7 + 3) % 1000) / 1000.0 > 1.6"
                + " THEN 1 ELSE 0 END AS y FROM (" + inner + ")";
    }

    public void run(PrintWriter out) throws Exception {
        out.println("cores " + java.lang.Runtime.getRuntime().availableProcessors() + ", load average " + loadAverage()
                + " (numbers are slower on a busy machine); " + compiler());
        Workspace.Limits limits = new Workspace.Limits(2, "4GB", Duration.ofMinutes(5), 1000);
        try (Workspace ws = Workspace.open(dataset, limits)) {
            Trained last = null;
            for (int n : sizes) {
                last = size(ws, n, out);
            }
            if (last != null) {
                score(last.model(), last.data(), out);
            }
        }
    }

    /** A model trained by the bench and the matrix it trained on. */
    private record Trained(TrainedModel model, MlData data) { }

    /** One size: the frame made, read both ways, the model trained and cross-validated; one line printed. */
    private Trained size(Workspace ws, int n, PrintWriter out) throws Exception {
        String label = "bench_" + n;
        long t0 = System.nanoTime();
        ws.saveFrame(label, frameSql(n));
        long t1 = System.nanoTime();
        TableInfo table = ws.table(label).orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("row_id", "y"), null);
        Reads r = read(ws, table, enc);
        long t3 = System.nanoTime();
        Trainer.Labels labels = Trainer.classLabels("y", r.data().target());
        TrainedModel m = Trainer.train("bench", TaskType.CLASSIFICATION, label, "y", "row_id", enc, r.data(), labels, Map.of());
        long t4 = System.nanoTime();
        int threads = Trainer.threads(m.provenance().trainRows());
        dev.sift.ml.Evaluation cv = m.provenance().evaluation();
        double search = cv.capacity() == null ? 0 : cv.capacity().millis() / 1000.0;
        double fit = Math.max(1e-3, sec(t4 - t3) - cv.millis() / 1000.0 - search);
        out.printf("%,d rows x %d features: frame in DuckDB %.2f s; read into floats (median of %d) via JDBC rows"
                        + " %.2f s, via Arrow %.2f s (%.1fx); capacity search %.2f s (%.1fx the cross-validation;"
                        + " chose %s); train on all rows (%d rounds, hist, %d thread%s) %.2f s; cross-validation (%s)"
                        + " %.2f s (%.1fx the training); CV AUC %s%n",
                n, enc.width(), sec(t1 - t0), reads, sec(r.loop()), sec(r.arrow()), (double) r.loop() / r.arrow(),
                search, search / Math.max(1e-3, cv.millis() / 1000.0), cv.capacity() == null ? "n/a"
                        : cv.capacity().chosen(), m.provenance().rounds(), threads, threads == 1 ? "" : "s", fit,
                cv.scheme(), cv.millis() / 1000.0, cv.millis() / 1000.0 / fit, cv.metrics().get("auc").render());
        out.flush();
        return new Trained(m, r.data());
    }

    /** The Arrow read's matrix and both readers' median times. */
    private record Reads(MlData data, long loop, long arrow) { }

    /** The frame read by the JDBC row loop and by Arrow, checked to agree; only the Arrow matrix is kept. */
    private Reads read(Workspace ws, TableInfo table, FeatureEncoder enc) throws Exception {
        // the row loop's last matrix kept to compare, its million boxed ids and texts only as hashes, so the
        // Arrow reads do not run with them alive on the heap
        Timed rowLoop = timed(() -> MlData.readRows(ws, table, enc, "row_id", "y", null, false));
        long loop = rowLoop.nanos();
        float[] loopX = rowLoop.data().x();
        long[] loopRowids = rowLoop.data().rowids();
        int loopEntities = rowLoop.data().entities().hashCode();
        int loopTargets = Arrays.hashCode(rowLoop.data().target());
        rowLoop = null;
        Timed arrowRead = timed(() -> MlData.read(ws, table, enc, "row_id", "y", null, false));
        MlData data = arrowRead.data();
        if (!Arrays.equals(loopX, data.x()) || !Arrays.equals(loopRowids, data.rowids())
                || loopEntities != data.entities().hashCode() || loopTargets != Arrays.hashCode(data.target())) {
            throw new IllegalStateException("the Arrow and JDBC readers disagree on " + table.name());
        }
        return new Reads(data, loop, arrowRead.nanos());
    }

    /** Prediction throughput on the last matrix, and TreeSHAP for 10 of its cases (median of 7). */
    private static void score(TrainedModel last, MlData lastData, PrintWriter out) {
        long t0 = System.nanoTime();
        double[] p = Predictions.predict(last, lastData.x(), lastData.rows());
        long t1 = System.nanoTime();
        out.printf("predict %,d rows: %.2f s (%,.0f rows/s)%n", p.length, sec(t1 - t0), p.length / sec(t1 - t0));
        float[] ten = Arrays.copyOf(lastData.x(), 10 * lastData.width());
        double[] ms = new double[7];
        for (int r = 0; r < ms.length; r++) {
            long s0 = System.nanoTime();
            Explanations.contributions(last, ten, 10);
            ms[r] = (System.nanoTime() - s0) / 1e6;
        }
        Arrays.sort(ms);
        out.printf("TreeSHAP for 10 cases (load model + predictContrib), median of %d: %.1f ms (target <= 100 ms)%n",
                ms.length, ms[ms.length / 2]);
    }

    /**
     * Which JIT compilers time the row loop, whose speed depends on them far more than the Arrow read's does: a one-shot
     * command (ask, sql) runs on the quick one only, bench, serve and chat on both.
     */
    static String compiler() {
        var hotspot = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        boolean quickOnly = hotspot != null && hotspot.getVMOption("TieredStopAtLevel").getValue().equals("1");
        return quickOnly ? "quick compiler only, as a one-shot ask runs"
                : "optimising compiler, as serve runs (a one-shot ask runs on the quick one only:"
                + " SIFT_JAVA_OPTS=-XX:TieredStopAtLevel=1 times the reads that way)";
    }

    private static String loadAverage() {
        try {
            String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** {@code read} run {@link #reads} times, each from a clean heap (none pays to collect another's garbage). */
    private Timed timed(MatrixRead read) throws Exception {
        long[] nanos = new long[reads];
        MlData data = null;
        for (int r = 0; r < reads; r++) {
            data = null;
            System.gc();
            long s0 = System.nanoTime();
            data = read.read();
            nanos[r] = System.nanoTime() - s0;
        }
        Arrays.sort(nanos);
        return new Timed(data, nanos[reads / 2]);
    }

    /** One way of reading the frame into the matrix. */
    private interface MatrixRead {
        MlData read() throws Exception;
    }

    /** The last read's matrix and the median time of the reads. */
    private record Timed(MlData data, long nanos) { }

    private static double sec(long nanos) {
        return nanos / 1e9;
    }
}
