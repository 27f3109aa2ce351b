package dev.sift.data.source;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The PostgreSQL client's {@code pg_dump}, run against a test server to write real dumps. */
public final class PgDumpTool {
    public static final String MISSING = "pg_dump is not on the PATH: install the PostgreSQL client"
            + " (apt-get install postgresql-client, version 14 or newer) to run the dump tests";

    private PgDumpTool() { }

    public static boolean available() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, "pg_dump"))) {
                return true;
            }
        }
        return false;
    }

    /** Dumps {@code database} of {@code pg} into {@code out} (plain format unless {@code options} say otherwise). */
    public static Path dump(TestPostgres pg, String database, Path out, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("pg_dump", "-h", "127.0.0.1", "-p", Integer.toString(pg.port()),
                "-U", "postgres", "-d", database, "-f", out.toString()));
        cmd.addAll(List.of(options));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("pg_dump failed: " + output);
        }
        return out;
    }
}
