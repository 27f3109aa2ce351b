package dev.sift.web;

import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the server exposes at {@code /metrics} in the Prometheus text format (version 0.0.4): runs by
 * answer status, steps by tool and outcome, tool latency (sum and count per tool), run errors, model calls
 * and tokens, HTTP requests by status class.
 */
public final class Metrics {
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Map<String, DoubleAdder> sums = new ConcurrentHashMap<>();

    private void inc(String key, long n) {
        counters.computeIfAbsent(key, k -> new LongAdder()).add(n);
    }

    private void add(String key, double v) {
        sums.computeIfAbsent(key, k -> new DoubleAdder()).add(v);
    }

    public void step(Step s) {
        String tool = s.tool() == null ? "none" : s.tool();
        inc("sift_steps_total{tool=\"" + esc(tool) + "\",outcome=\"" + s.outcome().name().toLowerCase() + "\"}", 1);
        if (s.outcome() == Step.Outcome.RAN) {
            add("sift_tool_seconds_sum{tool=\"" + esc(tool) + "\"}", s.millis() / 1000.0);
            inc("sift_tool_seconds_count{tool=\"" + esc(tool) + "\"}", 1);
        }
        if (s.tokens() != null && (s.tokens().input() > 0 || s.tokens().output() > 0)) {
            inc("sift_llm_calls_total", 1);
            inc("sift_llm_tokens_total{kind=\"input\"}", s.tokens().input());
            inc("sift_llm_tokens_total{kind=\"output\"}", s.tokens().output());
        }
    }

    public void run(AgentRun run) {
        inc("sift_runs_total{status=\"" + run.status().wire() + "\",kind=\"" + run.kind().wire() + "\"}", 1);
        add("sift_run_seconds_sum", run.millis() / 1000.0);
        inc("sift_run_seconds_count", 1);
    }

    public void runError() {
        inc("sift_run_errors_total", 1);
    }

    public void request(int status) {
        inc("sift_http_requests_total{code=\"" + (status / 100) + "xx\"}", 1);
    }

    /** The exposition text. */
    public String render(int openSessions) {
        Map<String, String> help = Map.of(
                "sift_runs_total", "counter Runs finished, by answer status and kind",
                "sift_steps_total", "counter Run steps, by tool and outcome",
                "sift_tool_seconds", "summary Tool step latency in seconds",
                "sift_run_seconds", "summary Run latency in seconds",
                "sift_run_errors_total", "counter Runs that failed with an internal error",
                "sift_llm_calls_total", "counter Planner steps that called a language model",
                "sift_llm_tokens_total", "counter Language model tokens, by kind",
                "sift_http_requests_total", "counter HTTP requests, by status class");
        TreeMap<String, String> lines = new TreeMap<>();
        counters.forEach((k, v) -> lines.put(k, Long.toString(v.sum())));
        sums.forEach((k, v) -> lines.put(k, Double.toString(v.sum())));
        StringBuilder out = new StringBuilder();
        String family = null;
        for (Map.Entry<String, String> e : lines.entrySet()) {
            String name = e.getKey().replaceFirst("\\{.*", "");
            String fam = name.replaceFirst("_(sum|count)$", "");
            if (!fam.equals(family) && help.containsKey(fam)) {
                String[] h = help.get(fam).split(" ", 2);
                out.append("# HELP ").append(fam).append(' ').append(h[1]).append('\n');
                out.append("# TYPE ").append(fam).append(' ').append(h[0]).append('\n');
            }
            family = fam;
            out.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        out.append("# HELP sift_open_sessions Sessions with an open workspace\n# TYPE sift_open_sessions gauge\n");
        out.append("sift_open_sessions ").append(openSessions).append('\n');
        return out.toString();
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
