package dev.sift.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.ml.ModelRegistry;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wall-clock time of each analysis tool on the {@code trans} table (about 1M rows in the demo bank), called
 * the way the loop calls it (prepared and validated by the registry, then run), median of a few runs.
 * Targets: each tool at most 2 s, auto_insights at most 10 s. CPU time of the process (DuckDB's threads
 * included) is printed beside wall time: on a shared machine it shows what a call costs regardless of load.
 */
public final class AnalysisBench {
    public static final String TABLE = "trans";
    static final Map<String, String> CALLS = new LinkedHashMap<>();

    static {
        CALLS.put("profile_data", "{\"source\":\"trans\"}");
        CALLS.put("data_quality_report", "{\"source\":\"trans\"}");
        CALLS.put("correlation_analysis", "{\"source\":\"trans\"}");
        CALLS.put("correlation_analysis spearman", "{\"source\":\"trans\",\"method\":\"spearman\"}");
        CALLS.put("trend_analysis", "{\"source\":\"trans\",\"date\":\"date\",\"measure\":\"amount\",\"grain\":\"month\"}");
        CALLS.put("pivot", "{\"source\":\"trans\",\"rows\":[\"k_symbol\"],\"columns\":[\"type\"],\"values\":\"amount\",\"agg\":\"sum\"}");
        CALLS.put("forecast", "{\"source\":\"trans\",\"date\":\"date\",\"measure\":\"amount\",\"horizon\":12}");
        CALLS.put("transform_column", "{\"source\":\"trans\",\"expression\":\"amount / nullif(balance, 0)\",\"name\":\"amount_share\"}");
        CALLS.put("sample_rows", "{\"source\":\"trans\",\"n\":20,\"where\":\"amount > 1000\"}");
        CALLS.put("auto_insights", "{\"source\":\"trans\"}");
    }

    private final Sift sift;
    private final Dataset dataset;
    private final int repeat;

    public AnalysisBench(Sift sift, Dataset dataset, int repeat) {
        this.sift = sift;
        this.dataset = dataset;
        this.repeat = repeat;
    }

    /** Median milliseconds per call, in the order of {@link #CALLS}. */
    public Map<String, Double> run(PrintWriter out) throws Exception {
        Map<String, Double> medians = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        List<String> misses = new ArrayList<>();
        try (Workspace ws = sift.open(dataset)) {
            ToolRegistry tools = sift.tools();
            long rows = ws.table(TABLE).orElseThrow().rows();
            out.printf("Analysis tools on %s (%,d rows), %d DuckDB threads, median of %d run(s) each, after one warm-up:%n",
                    TABLE, rows, ws.limits().threads(), repeat);
            for (Map.Entry<String, String> call : CALLS.entrySet()) {
                String tool = call.getKey().split(" ")[0];
                JsonNode args = json.readTree(call.getValue());
                double[] ms = new double[repeat];
                double[] cpu = new double[repeat];
                String first = "";
                for (int k = -1; k < repeat; k++) {
                    ToolContext ctx = new ToolContext(ws, null, "bench", new ModelRegistry(), sift.knowledge().lazy(ws));
                    long c0 = processCpuNanos();
                    long t0 = System.nanoTime();
                    ToolResult r = tools.run(tools.prepare(tool, args, ws), ctx);
                    long t1 = System.nanoTime();
                    long c1 = processCpuNanos();
                    if (!r.ok()) {
                        throw new IllegalStateException("Bench call " + tool + " failed: " + r.error());
                    }
                    first = r.summary().lines().findFirst().orElse("");
                    if (k >= 0) {
                        ms[k] = (t1 - t0) / 1e6;
                        cpu[k] = (c1 - c0) / 1e6;
                    }
                }
                double median = OverheadBench.median(ms);
                double target = tool.equals("auto_insights") ? 10_000 : 2_000;
                boolean ok = median <= target;
                if (!ok) {
                    misses.add(call.getKey());
                }
                medians.put(call.getKey(), median);
                out.printf("  %-30s %8.1f ms  (cpu %8.1f ms; target <= %,.0f ms%s)  %s%n", call.getKey(), median,
                        OverheadBench.median(cpu), target, ok ? "" : ", MISSED", first.length() > 70 ? first.substring(0, 70) + "…" : first);
                out.flush();
            }
        }
        out.println(misses.isEmpty() ? "All analysis tools within their targets."
                : "Over target: " + String.join(", ", misses) + ".");
        out.flush();
        return medians;
    }

    /** CPU time of the whole process (DuckDB's native threads included); -1 where the JVM cannot tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }
}
