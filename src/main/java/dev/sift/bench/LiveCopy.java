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
 * ({@code bench run --engine postgres}), or into Spark SQL {@code local[1]} as Parquet tables of a database of its own
 * ({@code --engine spark}). The questions of a suite are then answered on the engine and scored against DuckDB's gold
 * answers. Removed on close.
 */
final class LiveCopy implements AutoCloseable {
    /** The engines a copy can be made on, as {@code --engine} names them. */
    static final java.util.List<String> ENGINES = java.util.List.of("postgres", "spark");

    private final AutoCloseable engine;
    private final Path dir;
    private final Dataset dataset;

    private LiveCopy(AutoCloseable engine, Path dir, Dataset dataset) {
        this.engine = engine;
        this.dir = dir;
        this.dataset = dataset;
    }

    /** A copy of {@code source} on {@code engine} (one of {@link #ENGINES}). */
    static LiveCopy of(String engine, Dataset source, PrintWriter progress) throws Exception {
        return switch (engine) {
            case "postgres" -> postgres(source, progress);
            case "spark" -> spark(source, progress);
            default -> throw new IllegalArgumentException("--engine takes postgres (a live PostgreSQL copy of the dataset)"
                    + " or spark (a Spark SQL local[1] copy), got " + engine);
        };
    }

    /**
     * {@code source} as Parquet tables of a Spark database in this process ({@code local[1]}), connected as a live
     * dataset through the Spark master URL exactly as a cluster would be.
     */
    static LiveCopy spark(Dataset source, PrintWriter progress) throws Exception {
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, LiveCopy.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("--engine spark needs Spark SQL in the jar: run it as"
                    + " SIFT_BUILD_ARGS=-Pspark ./sift bench run … (the launcher then builds the jar that bundles Spark).");
        }
        Path dir = Files.createTempDirectory("sift-parity-");
        long t0 = System.nanoTime();
        SparkCopy copy = SparkCopy.of(source, dir);
        try {
            Dataset live = LiveConnect.connect(new DatasetStore(dir.resolve("datasets")), source.name(), SparkCopy.MASTER,
                    Map.of("database", copy.database()), Map.of(), Workspace.Limits.defaults()).dataset();
            progress.printf("Copied '%s' (%,d rows, column names as they are) into Spark SQL %s on %s as Parquet tables"
                    + " in %.1f s; answering on it as live dataset '%s', gold answers from DuckDB%n", source.name(),
                    copy.rows(), copy.version(), SparkCopy.MASTER, (System.nanoTime() - t0) / 1e9, live.name());
            progress.flush();
            return new LiveCopy(copy, dir, live);
        } catch (Exception | Error e) {
            copy.close();
            throw e;
        }
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
            return new LiveCopy(pg, dir, live);
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
        engine.close();
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
