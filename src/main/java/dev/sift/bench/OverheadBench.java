package dev.sift.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.ml.ModelRegistry;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What Sift's safety costs: the same queries through {@code run_sql} (guard parse, EXPLAIN bind-check,
 * timeout, evidence) and on a raw DuckDB JDBC connection to the dataset file; and the warm-process time
 * of a simple offline {@code ask}, end to end (workspace, planner, tools, trace).
 */
public final class OverheadBench {
    public static final List<String> QUERIES = List.of(
            "SELECT status, count(*) AS loans, avg(amount) AS avg_amount FROM loan GROUP BY status ORDER BY status",
            "SELECT year(date) AS y, count(*) AS n, sum(amount) AS total FROM trans GROUP BY y ORDER BY y",
            "SELECT a.district_id, count(*) AS n FROM account a JOIN loan l ON l.account_id = a.account_id"
                    + " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10",
            "SELECT type, operation, count(*) AS n, avg(balance) AS avg_balance FROM trans GROUP BY ALL ORDER BY ALL",
            "SELECT d.A3 AS region, avg(l.amount) AS avg_amount FROM loan l JOIN account a ON l.account_id = a.account_id"
                    + " JOIN district d ON d.A1 = a.district_id GROUP BY 1 ORDER BY 1",
            "SELECT account_id, max(balance) AS top FROM trans GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20",
            "SELECT k_symbol, count(*) AS n FROM trans WHERE amount > 1000 GROUP BY 1 ORDER BY 2 DESC",
            "SELECT count(DISTINCT account_id) AS accounts FROM trans WHERE type = 'VYDAJ'");
    static final String ASK = "How many loans are there?";
    static final double TARGET = 1.05;
    /** Rounds over every query, both ways, before the measured one: what a serving process has long done. */
    static final int WARM_UP_ROUNDS = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Sift sift;
    private final Dataset dataset;
    private final int repeat;

    public OverheadBench(Sift sift, Dataset dataset, int repeat) {
        this.sift = sift;
        this.dataset = dataset;
        this.repeat = repeat;
    }

    public record Result(double[] rawMs, double[] toolMs, double ratio, double askP50, double askP95) { }

    public Result run(PrintWriter out) throws Exception {
        out.printf("run_sql (guard parse, bind check, time limit, memory watch, evidence) against the same query on a raw"
                + " read-only DuckDB JDBC connection, alternating in both orders (A B B A), median of %d runs each after %d"
                + " warm-up rounds; target: ratio ≤ %.2f%n", repeat, WARM_UP_ROUNDS, TARGET);
        double[] raw = new double[QUERIES.size()];
        double[] tool = new double[QUERIES.size()];
        double[] rawNew = new double[QUERIES.size()];
        double[] toolNew = new double[QUERIES.size()];
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        ro.setProperty("threads", String.valueOf(Workspace.Limits.defaults().threads()));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dataset.file(), ro);
             Workspace ws = sift.open(dataset)) {
            ToolContext ctx = new ToolContext(ws, null, "bench", new ModelRegistry(), sift.knowledge().lazy(ws));
            for (int round = 0; round < WARM_UP_ROUNDS; round++) { // both paths run compiled code: the steady cost per call
                for (String sql : QUERIES) {
                    measure(c, ws, ctx, sql, false);
                    measure(c, ws, ctx, sql, true);
                }
            }
            for (int i = 0; i < QUERIES.size(); i++) {
                double[][] same = measure(c, ws, ctx, QUERIES.get(i), false);
                double[][] fresh = measure(c, ws, ctx, QUERIES.get(i), true);
                raw[i] = median(same[0]);
                tool[i] = median(same[1]);
                rawNew[i] = median(fresh[0]);
                toolNew[i] = median(fresh[1]);
                out.printf("  q%d  the same statement: raw %8.2f ms   run_sql %8.2f ms   x%.3f   │   a new statement each"
                        + " call: raw %8.2f ms   run_sql %8.2f ms   x%.3f%n", i + 1, raw[i], tool[i], tool[i] / raw[i],
                        rawNew[i], toolNew[i], toolNew[i] / rawNew[i]);
                out.flush();
            }
        }
        double ratio = Arrays.stream(tool).sum() / Arrays.stream(raw).sum();
        double ratioNew = Arrays.stream(toolNew).sum() / Arrays.stream(rawNew).sum();
        out.printf("run_sql vs raw JDBC over %d queries: the same statement again ratio %.3f; a new statement each call (as a"
                + " planner sends them: every call parsed and bind-checked) ratio %.3f (target ≤ %.2f)%n", QUERIES.size(),
                ratio, ratioNew, TARGET);

        List<Double> asks = new ArrayList<>();
        for (int k = -5; k < repeat * 2; k++) {
            long t0 = System.nanoTime();
            sift.ask(ASK, dataset, AgentConfig.defaults());
            if (k >= 0) {
                asks.add((System.nanoTime() - t0) / 1e6);
            }
        }
        double[] a = asks.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double p50 = a[a.length / 2];
        double p95 = a[Math.min(a.length - 1, (int) Math.ceil(a.length * 0.95) - 1)];
        out.printf("warm offline ask \"%s\" over %d runs: p50 %.1f ms, p95 %.1f ms (target p50 <= 150 ms)%n", ASK,
                a.length, p50, p95);
        out.flush();
        return new Result(raw, tool, ratio, p50, p95);
    }

    /**
     * Runs of {@code sql} raw and through run_sql, alternating so caches and JIT warm-up favour neither: {raw, run_sql}
     * in ms. The order alternates too (raw first, then run_sql first: A B B A …), since of two queries back to back the
     * second ran about 60 µs slower, which always fell on run_sql when raw always went first. With {@code fresh} each
     * run's text differs (a numbered comment), so the guard checks it anew as it does a planner's every call; otherwise
     * the guard knows the statement from the run before.
     */
    private double[][] measure(Connection c, Workspace ws, ToolContext ctx, String sql, boolean fresh) throws Exception {
        ToolRegistry tools = sift.tools();
        double[] r = new double[repeat];
        double[] t = new double[repeat];
        for (int k = -3; k < repeat; k++) {
            String text = fresh ? sql + "\n-- call " + k : sql;
            var args = JSON.createObjectNode().put("sql", text);
            boolean rawFirst = (k & 1) == 0;
            long rawNanos = rawFirst ? timeRaw(c, text) : 0;
            long t0 = System.nanoTime();
            ToolResult res = tools.run(tools.prepare("run_sql", args, ws), ctx);
            long toolNanos = System.nanoTime() - t0;
            rawNanos = rawFirst ? rawNanos : timeRaw(c, text);
            if (!res.ok()) {
                throw new IllegalStateException("Bench query failed through run_sql: " + res.error());
            }
            if (k >= 0) {
                r[k] = rawNanos / 1e6;
                t[k] = toolNanos / 1e6;
            }
        }
        return new double[][] {r, t};
    }

    /** One raw run of {@code sql}, in nanoseconds. */
    private static long timeRaw(Connection c, String sql) throws Exception {
        long t0 = System.nanoTime();
        rawQuery(c, sql);
        return System.nanoTime() - t0;
    }

    private static void rawQuery(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    rs.getObject(i);
                }
            }
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
