package dev.sift.bench;

import dev.sift.data.Progress;
import dev.sift.data.source.FileLoader;
import dev.sift.data.source.NetworkSources;
import dev.sift.data.source.PostgresConnections;
import dev.sift.data.source.Source;
import dev.sift.data.source.SqliteSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * How fast sources load: the same generated rows read by DuckDB from a CSV file (the baseline: DuckDB's own
 * reader), and copied from a SQLite file and from a PostgreSQL server through their drivers as Arrow batches,
 * each into a fresh DuckDB file. Prints wall and process CPU seconds, rows per second, the ratio to the CSV read
 * (wall and CPU: on a busy machine the wall ratio is mostly waiting for a core), and peak heap per load.
 *
 * <p>PostgreSQL needs a server the bench may write to ({@code --postgres URL}: it creates and finally drops
 * schema {@value #PG_SCHEMA}); it is reported as skipped when missing.
 */
public final class LoadBench {
    static final String PG_SCHEMA = "sift_bench_load";
    static final String COLUMNS = "id, k, amount, label, day, ts, flag";
    private static final String PG_NAME = "PostgreSQL → DuckDB (JDBC + Arrow)";

    private final long rows;
    private final String postgres;
    private final Map<String, String> env;
    private final int repeat;

    public LoadBench(long rows, String postgres, Map<String, String> env, int repeat) {
        if (rows < 1) {
            throw new IllegalArgumentException("--rows must be at least 1, got " + rows);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        this.rows = rows;
        this.repeat = repeat;
        this.postgres = postgres;
        this.env = env;
    }

    /** One measured load. */
    public record Result(String name, long rows, double seconds, double cpuSeconds, long heapPeakBytes, String skipped) {
        double rowsPerSecond() {
            return rows / seconds;
        }
    }

    /**
     * Measures every load {@code repeat} times, in rounds (each round loads them all, so a busy spell on the machine
     * falls on all of them), and prints each one's median wall and CPU time beside every run's wall time.
     */
    public List<Result> run(PrintWriter out) throws Exception {
        Path dir = Files.createTempDirectory("sift-bench-load");
        List<Result> results = new ArrayList<>();
        try {
            Path csv = dir.resolve("rows.csv");
            generate(csv);
            Path sqlite = dir.resolve("rows.sqlite");
            SqliteRows.write(sqlite, rows);
            out.printf(Locale.ROOT, "Load bench: %,d rows (%s), CSV %.1f MB, median of %d run%s each%n", rows, COLUMNS,
                    Files.size(csv) / 1e6, repeat, repeat == 1 ? "" : "s");
            out.flush();
            Map<String, Load> loads = new java.util.LinkedHashMap<>();
            loads.put("DuckDB read_csv (baseline)", db -> {
                try (Statement st = db.createStatement()) {
                    st.execute("CREATE TABLE rows AS SELECT * FROM read_csv(" + dev.sift.data.Sql.quoteString(csv.toString())
                            + ", header = true)");
                }
            });
            loads.put("Sift file loader (read_csv + type checks)", db -> new FileLoader(List.of(csv)).build(db, Progress.NONE));
            loads.put("SQLite → DuckDB (sqlite-jdbc + Arrow)", db -> new SqliteSource(sqlite).load(db, "main", Progress.NONE));
            Optional<Source> pg = postgres(csv);
            pg.ifPresent(s -> loads.put(PG_NAME, db -> s.load(db, "main", Progress.NONE)));
            try {
                Map<String, List<Result>> runs = new java.util.LinkedHashMap<>();
                for (int round = 0; round < repeat; round++) {
                    for (Map.Entry<String, Load> load : loads.entrySet()) {
                        Path file = dir.resolve("load.duckdb");
                        runs.computeIfAbsent(load.getKey(), k -> new ArrayList<>()).add(measure(load.getKey(), file, load.getValue()));
                        Files.deleteIfExists(file);
                        Files.deleteIfExists(Path.of(file + ".wal"));
                    }
                }
                Result base = null;
                for (List<Result> r : runs.values()) {
                    Result median = median(r);
                    base = base == null ? median : base;
                    results.add(median);
                    print(out, median, base, r);
                }
            } finally {
                if (pg.isPresent()) {
                    dropSchema();
                }
            }
            if (pg.isEmpty()) {
                Result skipped = new Result(PG_NAME, 0, 0, 0, 0, "pass --postgres postgresql://user@host:port/db (the bench"
                        + " creates and drops schema " + PG_SCHEMA + " there; password from PGPASSWORD)");
                results.add(skipped);
                print(out, skipped, null, List.of());
            }
            out.printf(Locale.ROOT, "  process peak resident memory: %s%n", peakRss().map(LoadBench::mb).orElse("n/a"));
            out.printf(Locale.ROOT, "  targets: Sift's file loader ≤ 1.5× DuckDB's read_csv on the same file (wall time;"
                    + " the CPU ratio is the steadier measure on a busy machine); the other sources ≤ 2×%n");
            out.flush();
        } finally {
            deleteTree(dir);
        }
        return results;
    }

    /** The median wall time and the median CPU time of the runs, and the highest heap peak. */
    static Result median(List<Result> runs) {
        double[] wall = runs.stream().mapToDouble(Result::seconds).sorted().toArray();
        double[] cpu = runs.stream().mapToDouble(Result::cpuSeconds).sorted().toArray();
        long heap = runs.stream().mapToLong(Result::heapPeakBytes).max().orElse(0);
        Result first = runs.get(0);
        return new Result(first.name(), first.rows(), middle(wall), middle(cpu), heap, null);
    }

    private static double middle(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The bench's rows 1..n as a DuckDB query: the same values whatever the source they are written to. */
    static String rowsQuery(long n) {
        return "SELECT i AS id, (i * 7919) % 1000 AS k, round(((i * 104729) % 1000000) / 100.0, 2)::DECIMAL(12,2)"
                + " AS amount, 'label ' || (i % 977) AS label, DATE '2020-01-01' + (i % 1500)::INTEGER AS day,"
                + " TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 37) AS ts, i % 3 = 0 AS flag"
                + " FROM range(1, " + (n + 1) + ") t(i)";
    }

    private void generate(Path csv) throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement st = duck.createStatement()) {
            st.execute("COPY (" + rowsQuery(rows) + ") TO '" + csv + "' (HEADER, DELIMITER ',')");
        }
    }

    /** The PostgreSQL source over the bench's rows (copied in first), when a server was given. */
    private Optional<Source> postgres(Path csv) throws Exception {
        if (postgres == null) {
            return Optional.empty();
        }
        String url = postgres + (postgres.contains("?") ? "&" : "?") + "schema=" + PG_SCHEMA;
        try (Connection pg = PostgresConnections.open(postgres, Map.of(), env)) {
            fill(pg, csv);
        }
        Source s = NetworkSources.open(url, Map.of(), env).orElseThrow();
        s.fingerprint();
        return Optional.of(s);
    }

    private void dropSchema() throws Exception {
        try (Connection pg = PostgresConnections.open(postgres, Map.of(), env); Statement st = pg.createStatement()) {
            st.execute("DROP SCHEMA " + PG_SCHEMA + " CASCADE");
        }
    }

    /** The same rows into PostgreSQL, by COPY from the CSV file. */
    private static void fill(Connection pg, Path csv) throws Exception {
        try (Statement st = pg.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + PG_SCHEMA + " CASCADE");
            st.execute("CREATE SCHEMA " + PG_SCHEMA);
            st.execute("CREATE TABLE " + PG_SCHEMA + ".rows (id bigint PRIMARY KEY, k integer, amount numeric(12,2),"
                    + " label text, day date, ts timestamp, flag boolean)");
        }
        try (Reader in = Files.newBufferedReader(csv)) {
            new CopyManager(pg.unwrap(BaseConnection.class))
                    .copyIn("COPY " + PG_SCHEMA + ".rows FROM STDIN WITH (FORMAT csv, HEADER true)", in);
        }
        try (Statement st = pg.createStatement()) {
            st.execute("ANALYZE " + PG_SCHEMA + ".rows");
        }
    }

    @FunctionalInterface
    interface Load {
        void into(Connection db) throws Exception;
    }

    private Result measure(String name, Path file, Load load) throws Exception {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        long count;
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + file)) {
            load.into(db);
            try (Statement st = db.createStatement()) {
                st.execute("CHECKPOINT");
            }
            count = countRows(db);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpu = (processCpuNanos() - cpu0) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        if (count != rows) {
            throw new IllegalStateException(name + " loaded " + count + " rows, expected " + rows);
        }
        return new Result(name, count, seconds, cpu, peak, null);
    }

    /** CPU time of this process, all threads (DuckDB's native ones too). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long countRows(Connection db) throws Exception {
        String table;
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()")) {
            rs.next();
            table = rs.getString(1);
        }
        try (Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + table.replace("\"", "\"\"") + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void print(PrintWriter out, Result r, Result base, List<Result> runs) {
        if (r.skipped() != null) {
            out.printf(Locale.ROOT, "  %-40s skipped: %s%n", r.name(), r.skipped());
        } else {
            String each = runs.size() < 2 ? "" : runs.stream().map(x -> String.format(Locale.ROOT, "%.2f", x.seconds()))
                    .collect(java.util.stream.Collectors.joining(" / ", "  runs ", " s"));
            out.printf(Locale.ROOT, "  %-40s %7.2f s (cpu %6.2f s)  %,11.0f rows/s  %5.2f× the CSV time (cpu %5.2f×)"
                    + "  heap peak %s%s%n", r.name(), r.seconds(), r.cpuSeconds(), r.rowsPerSecond(),
                    r.seconds() / base.seconds(), r.cpuSeconds() / base.cpuSeconds(), mb(r.heapPeakBytes()), each);
        }
        out.flush();
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    /** VmHWM of this process (Linux), the most resident memory it ever had. */
    static Optional<Long> peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Optional.of(Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
