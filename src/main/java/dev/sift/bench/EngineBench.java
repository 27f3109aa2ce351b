package dev.sift.bench;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.DatasetTables;
import dev.sift.data.Progress;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.data.engine.LiveConnect;
import dev.sift.data.source.NetworkSources;
import dev.sift.data.source.Source;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * One question over an N-row PostgreSQL table, answered two ways in one run: aggregated on the engine (a live
 * dataset: connect, open, the GROUP BY runs there and only the groups come back) and copied into DuckDB first
 * (the sources' loader streams every row into a dataset, then DuckDB aggregates). Reports the time to the first
 * answer and the bytes that crossed the wire (counted on the driver's sockets), and checks both answers agree.
 */
public final class EngineBench {
    static final String TABLE = "sift_bench_events";
    static final String QUESTION_SQL = "SELECT region, count(*) AS n, round(avg(amount), 2) AS avg_amount FROM " + TABLE
            + " GROUP BY region ORDER BY region";

    private final String url;
    private final long rows;
    private final Map<String, String> env;

    public EngineBench(String url, long rows, Map<String, String> env) {
        this.url = url;
        this.rows = rows;
        this.env = env;
    }

    /** One measured path. */
    record Path2(String name, long millis, long bytes, QueryResult answer, String detail) { }

    public void run(PrintWriter out) throws Exception {
        String counted = url + (url.contains("?") ? "&" : "?") + "socketFactory=" + CountingSocketFactory.class.getName();
        long setup = ensureTable(out);
        if (setup >= 0) {
            out.printf("Prepared %s with %,d rows on PostgreSQL in %.1f s (not part of the measurement)%n", TABLE, rows,
                    setup / 1000.0);
        }
        Path dir = Files.createTempDirectory("sift-engine-bench");
        try {
            DatasetStore store = new DatasetStore(dir);
            Workspace.Limits limits = Workspace.Limits.defaults().withQueryTimeout(Duration.ofMinutes(10));
            Path2 live = onEngine(store, counted, limits);
            Path2 copy = copied(store, counted, limits);
            out.printf("%nQuestion: %s%n%n", QUESTION_SQL);
            out.printf("%-28s %16s %16s  %s%n", "path", "first answer", "bytes moved", "detail");
            for (Path2 p : new Path2[] {live, copy}) {
                out.printf("%-28s %13.2f s %16s  %s%n", p.name(), p.millis() / 1000.0, human(p.bytes()), p.detail());
            }
            out.printf("%nOn the engine: %.1fx faster to the first answer, %.0fx fewer bytes moved.%n",
                    copy.millis() / (double) Math.max(1, live.millis()), copy.bytes() / (double) Math.max(1, live.bytes()));
            boolean same = live.answer().rows().equals(copy.answer().rows());
            out.println(same ? "Both answers agree (" + live.answer().rows().size() + " groups)."
                    : "The answers DIFFER: engine " + live.answer().rows() + " vs DuckDB " + copy.answer().rows());
            out.flush();
        } finally {
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private Path2 onEngine(DatasetStore store, String counted, Workspace.Limits limits) throws Exception {
        long b0 = CountingSocketFactory.total();
        long t0 = System.nanoTime();
        Dataset ds = LiveConnect.connect(store, "bench_live", counted, Map.of(), env, limits).dataset();
        long connected = System.nanoTime();
        QueryResult r;
        try (Workspace ws = Workspace.open(ds, limits, null, new DatasetTables(1), env, null)) {
            r = ws.query(QUESTION_SQL);
        }
        long t1 = System.nanoTime();
        return new Path2("aggregated on PostgreSQL", (t1 - t0) / 1_000_000, CountingSocketFactory.total() - b0, r,
                String.format("connect (schema, samples) %.2f s + query %.2f s", (connected - t0) / 1e9, (t1 - connected) / 1e9));
    }

    private Path2 copied(DatasetStore store, String counted, Workspace.Limits limits) throws Exception {
        Source source = NetworkSources.open(counted, Map.of(), env).orElseThrow();
        long b0 = CountingSocketFactory.total();
        long t0 = System.nanoTime();
        Dataset ds = store.ensure("bench_copy", new DatasetBuilder() {
            @Override
            public String fingerprint() throws Exception {
                return source.fingerprint();
            }

            @Override
            public String describe() {
                return source.describe();
            }

            @Override
            public void build(Connection db, Progress progress) throws Exception {
                source.load(db, "main", progress);
            }
        }, Progress.NONE);
        long loaded = System.nanoTime();
        QueryResult r;
        try (Workspace ws = Workspace.open(ds, limits)) {
            r = ws.query(QUESTION_SQL);
        }
        long t1 = System.nanoTime();
        return new Path2("copied into DuckDB first", (t1 - t0) / 1_000_000, CountingSocketFactory.total() - b0, r,
                String.format("copy %,d rows %.2f s (%s file) + query %.2f s", rows, (loaded - t0) / 1e9,
                        human(Files.size(ds.file())), (t1 - loaded) / 1e9));
    }

    /** Creates the table unless it already has {@code rows} rows; returns the milliseconds spent, -1 if it existed. */
    private long ensureTable(PrintWriter out) throws Exception {
        dev.sift.data.engine.EngineUrl parsed = dev.sift.data.engine.EngineUrl.parse(url);
        var pg = new dev.sift.data.source.PostgresDialect();
        var creds = dev.sift.data.source.Credentials.resolve(parsed.source(), Map.of(), env, pg.standardPasswordEnv());
        Properties p = pg.properties(parsed.source(), creds, 10);
        p.remove("readOnly");
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(parsed.source()), p); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_class WHERE relname = '" + TABLE + "'")) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    try (ResultSet n = st.executeQuery("SELECT count(*) FROM " + TABLE)) {
                        n.next();
                        if (n.getLong(1) == rows) {
                            return -1;
                        }
                    }
                }
            }
            out.printf("Preparing %s with %,d rows on PostgreSQL…%n", TABLE, rows);
            out.flush();
            long t0 = System.nanoTime();
            st.execute("DROP TABLE IF EXISTS " + TABLE);
            st.execute("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, region text NOT NULL, amount numeric(10,2),"
                    + " day date)");
            st.execute("INSERT INTO " + TABLE + " SELECT i, (ARRAY['north','south','east','west','centre','coast','hills',"
                    + "'lakes'])[1 + (i * 7919) % 8], round(((i * 104729) % 100000) / 100.0, 2), DATE '2020-01-01' + (i % 1500)::int"
                    + " FROM generate_series(1::bigint, " + rows + ") i");
            st.execute("ANALYZE " + TABLE);
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }

    static String human(long bytes) {
        if (bytes < 10_000) {
            return String.format("%,d B", bytes);
        }
        if (bytes < 10_000_000) {
            return String.format("%,.1f KB", bytes / 1e3);
        }
        return String.format("%,.1f MB", bytes / 1e6);
    }
}
