package dev.sift.bench;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.data.engine.LiveConnect;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;

/**
 * A built dataset copied onto an engine of this process and connected as a live dataset of the same name: into a
 * PostgreSQL (the embedded binaries, loopback only) read through a role that may only read
 * ({@code bench run --engine postgres}), or into Spark SQL as Parquet tables of a database of its own: {@code local[1]}
 * ({@code --engine spark}), a standalone cluster of separate processes ({@code spark-cluster}) or the same behind Spark
 * Connect ({@code spark-connect}). The questions of a suite are then answered on the engine and scored against DuckDB's gold
 * answers. Removed on close.
 */
final class LiveCopy implements AutoCloseable {
    /** The engines a copy can be made on, as {@code --engine} names them. */
    static final java.util.List<String> ENGINES = java.util.List.of("postgres", "spark", "spark-cluster", "spark-connect");
    private static final String LOCAL = "local[1]";
    private static final int WORKERS = 2;

    private final AutoCloseable engine;
    private final Path dir;
    private final Dataset dataset;
    private final PrintWriter progress;
    private final SparkCluster cluster;

    private LiveCopy(AutoCloseable engine, Path dir, Dataset dataset, PrintWriter progress, SparkCluster cluster) {
        this.engine = engine;
        this.dir = dir;
        this.dataset = dataset;
        this.progress = progress;
        this.cluster = cluster;
    }

    /** A copy of {@code source} on {@code engine} (one of {@link #ENGINES}). */
    static LiveCopy of(String engine, Dataset source, PrintWriter progress) throws Exception {
        return switch (engine) {
            case "postgres" -> postgres(source, progress);
            case "spark", "spark-cluster", "spark-connect" -> spark(engine, source, progress);
            default -> throw new IllegalArgumentException("--engine takes postgres (a live PostgreSQL copy of the dataset),"
                    + " spark (a Spark SQL local[1] copy), spark-cluster (a standalone master and " + WORKERS + " workers,"
                    + " each a process) or spark-connect (the same cluster behind a Spark Connect server), got " + engine);
        };
    }

    /**
     * {@code source} as Parquet tables of a Spark database, connected as a live dataset exactly as a user would: on
     * {@code local[1]} in this process ({@code spark}), through a driver here on a standalone cluster of separate
     * processes ({@code spark-cluster}), or through Spark Connect to a server driving that cluster ({@code spark-connect}).
     */
    static LiveCopy spark(String engine, Dataset source, PrintWriter progress) throws Exception {
        if (!SparkCluster.available()) {
            throw new IllegalArgumentException("--engine " + engine + " needs Spark SQL in the jar: run it as"
                    + " SIFT_BUILD_ARGS=-Pspark ./sift bench run … (the launcher then builds the jar that bundles Spark).");
        }
        Path dir = Files.createTempDirectory("sift-parity-");
        long t0 = System.nanoTime();
        SparkCluster cluster = engine.equals("spark") ? null
                : SparkCluster.start(dir.resolve("cluster"), WORKERS, engine.equals("spark-connect") ? "" : null);
        try {
            String url = cluster == null ? LOCAL : engine.equals("spark-cluster") ? cluster.masterUrl() : cluster.connectUrl();
            SparkCopy copy = sparkCopy(url, cluster, source, dir);
            AutoCloseable both = () -> {
                try {
                    copy.close();
                } finally {
                    if (cluster != null) {
                        cluster.close();
                    }
                }
            };
            try {
                Dataset live = LiveConnect.connect(new DatasetStore(dir.resolve("datasets")), source.name(), url,
                        Map.of("database", copy.database()), Map.of(), Workspace.Limits.defaults()).dataset();
                progress.printf("Copied '%s' (%,d rows, column names as they are) into Spark SQL %s on %s%s as Parquet"
                        + " tables in %.1f s; answering on it as live dataset '%s', gold answers from DuckDB%n", source.name(),
                        copy.rows(), copy.version(), url, cluster == null ? "" : " (a master and " + cluster.workers()
                        + " workers, each a process on 127.0.0.1" + (engine.equals("spark-connect") ? ", behind a Spark"
                        + " Connect server" : "") + ")", (System.nanoTime() - t0) / 1e9, live.name());
                progress.flush();
                return new LiveCopy(both, dir, live, progress, cluster);
            } catch (Exception | Error e) {
                both.close();
                throw e;
            }
        } catch (Exception | Error e) {
            if (cluster != null) {
                cluster.close();
            }
            throw e;
        }
    }

    /** The copy through a session in this process ({@code local[1]}, a driver on the cluster) or through Connect. */
    private static SparkCopy sparkCopy(String url, SparkCluster cluster, Dataset source, Path dir) throws Exception {
        if (cluster == null) {
            boolean owns = !SparkSessions.driverRunning();
            return SparkCopy.of(source, dir, dev.sift.data.engine.LocalSpark.session("sift-parity", dir.resolve("warehouse")), owns);
        }
        if (url.startsWith("spark://")) {
            return SparkCopy.of(source, dir, SparkSessions.driver(url, dir.resolve("warehouse"), SparkCluster.driverConf(),
                    cluster.executorsFile()), true);
        }
        return SparkCopy.of(source, dir, SparkSessions.connect(url, null), true);
    }

    static LiveCopy postgres(Dataset source, PrintWriter progress) throws Exception {
        Path dir = Files.createTempDirectory("sift-parity-");
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pg")).setCleanDataDirectory(true).start();
        try {
            long t0 = System.nanoTime();
            long rows;
            try (Connection admin = pg.getPostgresDatabase().getConnection()) {
                rows = EngineCopy.toPostgres(source, admin, "parity");
            }
            Path credentials = Files.writeString(dir.resolve("reader.credentials"), "password=parity\n");
            Dataset live = LiveConnect.connect(new DatasetStore(dir.resolve("datasets")), source.name(), "postgresql://"
                    + EngineCopy.READER + "@localhost:" + pg.getPort() + "/postgres", Map.of("credentials_file",
                    credentials.toString()), Map.of(), Workspace.Limits.defaults()).dataset();
            progress.printf("Copied '%s' (%,d rows, column names as they are) into PostgreSQL on port %d in %.1f s; answering"
                    + " on it as live dataset '%s' (role %s, SELECT only), gold answers from DuckDB%n", source.name(), rows,
                    pg.getPort(), (System.nanoTime() - t0) / 1e9, live.name(), EngineCopy.READER);
            progress.flush();
            return new LiveCopy(pg, dir, live, progress, null);
        } catch (Exception | Error e) {
            pg.close();
            throw e;
        }
    }

    Dataset dataset() {
        return dataset;
    }

    @Override
    public void close() throws Exception {
        java.util.List<String> executors = cluster == null ? null : TaskExecutors.read(cluster.executorsFile());
        engine.close();
        if (executors != null) {
            progress.printf("Executors that ran tasks: %d (ids %s), each in a worker's process, not this one%n",
                    executors.size(), String.join(", ", executors));
            progress.flush();
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
