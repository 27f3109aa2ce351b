package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The process-level memory bound of docs/security.md, on a real process: rows too large for the Java heap (forty
 * 9 MB values, which DuckDB hands over in one chunk outside its own limit) stop the query with one clear line naming
 * the heap and the fix, not an internal error, and the process stays within heap + DuckDB's limit + an allowance.
 */
class ProcessMemoryTest {
    private static final long MB = 1024 * 1024;
    private static final long HEAP = 256 * MB;
    /** DuckDB's memory_limit of a workspace (Workspace.Limits.defaults) plus one fetched chunk's allowance. */
    private static final long BOUND = HEAP + 2048 * MB + 512 * MB;
    @TempDir
    static Path home;

    @BeforeAll
    static void load() throws Exception {
        CliHarness.useHome(home);
        Path csv = Files.writeString(home.resolve("tiny.csv"), "id,name\n1,a\n2,b\n");
        ok("load", "tiny", csv.toString());
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void rows_too_large_for_the_heap_are_one_clear_error_within_the_stated_bound() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux /proc to read the process's peak memory");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP / MB + "m", "-cp", System.getProperty("java.class.path"), "-Dsift.home=" + home,
                "-Dsift.llm.provider=none", "dev.sift.cli.Main", "sql", "--dataset", "tiny",
                "SELECT repeat('x', 9000000) AS s FROM range(40)");
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long peak = 0;
        Path status = Path.of("/proc/" + p.pid() + "/status");
        while (!p.waitFor(10, TimeUnit.MILLISECONDS)) {
            peak = Math.max(peak, highWaterMark(status));
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isEqualTo(Main.USAGE_ERROR);
        List<String> lines = err.lines().filter(l -> !l.isBlank()).toList();
        assertThat(lines).hasSize(1);
        // the heap size is the JVM's own reading of -Xmx256m (a few MB less under some collectors)
        assertThat(lines.get(0)).matches("sift: error: The result's rows are too large to bring into this process's"
                + " memory \\(Java heap 2[45][0-9] MB\\) and the query was stopped\\. Select fewer rows or shorter values"
                + " \\(e\\.g\\. left\\(column, 1000\\)\\), or give Sift more memory \\(SIFT_JAVA_OPTS=-Xmx4g\\)\\.");
        assertThat(peak).as("peak resident bytes").isPositive().isLessThan(BOUND);
    }

    /** VmHWM (the peak resident set) in bytes; 0 once the process is gone. */
    private static long highWaterMark(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // the process ended between the check and the read
        }
        return 0;
    }
}
