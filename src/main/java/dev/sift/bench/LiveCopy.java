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
 * A built dataset copied into a PostgreSQL of this process (the embedded binaries, loopback only) and connected as a
 * live dataset of the same name through a role that may only read ({@code bench run --engine postgres}): the
 * questions of a suite are then answered on the engine and scored against DuckDB's gold answers. Removed on close.
 */
final class LiveCopy implements AutoCloseable {
    private final EmbeddedPostgres pg;
    private final Path dir;
    private final Dataset dataset;

    private LiveCopy(EmbeddedPostgres pg, Path dir, Dataset dataset) {
        this.pg = pg;
        this.dir = dir;
        this.dataset = dataset;
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
    public void close() throws java.io.IOException {
        pg.close();
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
