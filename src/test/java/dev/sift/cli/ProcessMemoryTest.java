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
 * The process-level memory bound of docs/security.md, on a real process: a gigabyte value is refused in one line and
 * a long one cut at the engine and said so, within 1.5 GB; and when a user raises the cell budget, rows too large for
 * the Java heap (forty 9 MB values, which DuckDB hands over in one chunk outside its own limit) stop the query with
 * one clear line naming the heap and the fix, and the process stays within heap + DuckDB's limit + an allowance.
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
                "--max-cell-bytes", "10000000", "SELECT repeat('x', 9000000) AS s FROM range(40)");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("SIFT_MAX_RESULT_MB", "1048576"); // a 9 MB cell of each of 2,048 rows may come whole
        Process p = pb.start();
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

    @Test
    void a_gigabyte_value_is_refused_in_one_line_and_a_long_one_is_cut_and_said_so_within_one_and_a_half_gigabytes() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux /proc to read the process's peak memory");
        Run huge = sql("SELECT repeat(repeat('x', 99999), 9999) AS s");
        assertThat(huge.exit()).as(huge.err()).isEqualTo(Main.USAGE_ERROR);
        assertThat(huge.err().lines().filter(l -> !l.isBlank()).toList()).containsExactly("sift: error: Refused:"
                + " repeat(…) builds one value of 999,890,001 characters or items; at most 10,000,000 (DuckDB builds it"
                + " while planning, beyond the memory and time limits). Generate rows with FROM range(n) instead, or"
                + " aggregate.");
        assertThat(huge.peak()).as("peak resident bytes").isPositive().isLessThan(1536 * MB);

        Run wide = sql(ServeMemoryTest.WIDE);
        assertThat(wide.exit()).as(wide.err()).isZero();
        assertThat(wide.err().lines().filter(l -> !l.isBlank()).toList()).containsExactly("sift: Cut to the result's"
                + " byte budget: 1 value of s was over 64 KB (the largest 99,999,000 bytes) and kept its first 64 KB. To"
                + " read more, select a part of a long value (substr(s, 65537, 65536) gives the next characters) or its"
                + " length, or raise the budget (SIFT_MAX_CELL_BYTES, SIFT_MAX_RESULT_MB; sift sql --max-cell-bytes).");
        assertThat(wide.peak()).as("peak resident bytes").isPositive().isLessThan(1536 * MB);
    }

    private record Run(int exit, String err, long peak) { }

    /** {@code sift sql --format csv} in a real process with the launcher's heap bound (-Xmx2g), peak memory read. */
    private static Run sql(String query) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx2g", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "-Dsift.home=" + home,
                "-Dsift.llm.provider=none", "dev.sift.cli.Main", "sql", "--dataset", "tiny", "--format", "csv", query);
        Path err = Files.createTempFile(home, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        long peak = 0;
        Path status = Path.of("/proc/" + p.pid() + "/status");
        while (!p.waitFor(10, TimeUnit.MILLISECONDS)) {
            peak = Math.max(peak, highWaterMark(status));
        }
        return new Run(p.exitValue(), Files.readString(err), peak);
    }

    /** VmHWM (the peak resident set) in bytes; 0 once the process is gone. */
    static long highWaterMark(Path status) {
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
