package dev.sift.bench;

import dev.sift.data.Progress;
import dev.sift.data.source.SqliteSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Does a large source load in bounded memory? Writes N rows (default 10M) into a SQLite file, then loads it
 * through the SQLite source into a DuckDB file in a child JVM whose heap is capped ({@code -Xmx}) and whose DuckDB
 * has a memory limit: holding the table would need gigabytes, so the load finishing under the cap is the check.
 * Prints the rows, the peak heap against the cap and the child's peak resident memory. Not a timing.
 */
public final class LoadMemoryCheck {
    private final long rows;
    private final String heap;
    private final String duckMemory;

    public LoadMemoryCheck(long rows, String heap, String duckMemory) {
        if (rows < 1) {
            throw new IllegalArgumentException("--rows must be at least 1, got " + rows);
        }
        this.rows = rows;
        this.heap = heap;
        this.duckMemory = duckMemory;
    }

    /** Returns the child's exit code: 0 when every row loaded under the caps. */
    public int run(PrintWriter out) throws Exception {
        Path dir = Files.createTempDirectory("sift-bench-memory");
        try {
            Path sqlite = dir.resolve("rows.sqlite");
            out.printf(Locale.ROOT, "Memory check: writing %,d rows into a SQLite file…%n", rows);
            out.flush();
            SqliteRows.write(sqlite, rows);
            out.printf(Locale.ROOT, "  SQLite file %s; loading it in a JVM with -Xmx%s, DuckDB memory_limit %s%n",
                    LoadBench.mb(Files.size(sqlite)), heap, duckMemory);
            out.flush();
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx" + heap, "-XX:+UseSerialGC", "--add-opens=java.base/java.nio=ALL-UNNAMED", // Arrow, as ./sift opens it
                    "-cp", System.getProperty("java.class.path"),
                    LoadMemoryCheck.class.getName(), sqlite.toString(), dir.resolve("rows.duckdb").toString(),
                    duckMemory, Long.toString(rows)));
            Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.startsWith("  ")) { // the child's results; its log and errors go to stderr
                        out.println(line);
                        out.flush();
                    } else {
                        System.err.println(line);
                    }
                }
            }
            int code = child.waitFor();
            out.println(code == 0 ? "  bounded: the load finished under the caps"
                    : "  FAILED: the load did not finish under the caps (exit " + code + ")");
            out.flush();
            return code;
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The child: {@code SQLITE DUCKDB MEMORY_LIMIT ROWS}. */
    public static void main(String[] args) throws Exception {
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        long t0 = System.nanoTime();
        long count;
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + args[1])) {
            try (Statement st = db.createStatement()) {
                st.execute("SET memory_limit = '" + args[2].replace("'", "") + "'");
                st.execute("SET threads = 2");
            }
            try {
                new SqliteSource(Path.of(args[0])).load(db, "main", Progress.NONE);
            } catch (OutOfMemoryError e) {
                System.out.println("  out of heap: the load held more than the cap");
                System.exit(3);
            }
            try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM rows")) {
                rs.next();
                count = rs.getLong(1);
            }
        }
        long peak = pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        long max = Runtime.getRuntime().maxMemory();
        System.out.printf(Locale.ROOT, "  loaded %,d rows in %.1f s; heap peak %s of %s; peak resident memory %s%n",
                count, (System.nanoTime() - t0) / 1e9, LoadBench.mb(peak), LoadBench.mb(max),
                LoadBench.peakRss().map(LoadBench::mb).orElse("n/a"));
        System.exit(count == Long.parseLong(args[3]) ? 0 : 4);
    }
}
