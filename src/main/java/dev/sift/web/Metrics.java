package dev.sift.web;

import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.agent.grounding.Groundedness;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * What the server exposes at {@code /metrics}, through Micrometer's Prometheus registry: runs by status and
 * kind; groundedness (judged grounded / judged, judge failures counting as judged); repairs of unsupported
 * numbers and their outcomes; dropped calls, call repairs, loop-guard triggers and forced finals; steps and
 * tool latency histograms by tool; model latency, tokens and errors (recorded where the model is called);
 * HTTP requests; open sessions; the JVM. Tool label values are the registry's names only: a name a model
 * invents counts as {@code tool="unknown"}, never as a new series.
 */
public final class Metrics implements AutoCloseable {
    static final String UNKNOWN_TOOL = "unknown";
    /** Histogram buckets for tool, run and model latency: a few, from a fast query to a slow model. */
    public static final Duration[] BUCKETS = {Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final PrometheusMeterRegistry registry;
    private final Set<String> tools;
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public Metrics(PrometheusMeterRegistry registry, Collection<String> tools, IntSupplier openSessions) {
        this.registry = registry;
        this.tools = Set.copyOf(tools);
        Gauge.builder("sift.open.sessions", openSessions, s -> s.getAsInt()).strongReference(true)
                .description("Sessions with an open workspace").register(registry);
        Gauge.builder("sift.groundedness", registry, Metrics::groundedness)
                .description("Share of judged answers the judge found grounded (judge failures count as judged)")
                .strongReference(true).register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
    }

    /** The label for a step's tool: a registry name, {@code none}, or {@code unknown}. */
    String toolLabel(String tool) {
        if (tool == null) {
            return "none";
        }
        return tools.contains(tool) ? tool : UNKNOWN_TOOL;
    }

    public void step(Step s) {
        String tool = toolLabel(s.tool());
        String outcome = s.outcome().name().toLowerCase(Locale.ROOT);
        count("sift.steps", "Run steps, by tool and outcome", "tool", tool, "outcome", outcome);
        switch (s.outcome()) {
            case RAN -> Timer.builder("sift.tool.latency").description("Tool step latency").tags("tool", tool)
                    .serviceLevelObjectives(BUCKETS).register(registry).record(Duration.ofMillis(s.millis()));
            case DROPPED -> count("sift.dropped.calls", "Invalid calls dropped after repair");
            case INVALID -> count("sift.call.repairs", "Invalid calls sent back to the planner for repair");
            default -> { }
        }
    }

    public void run(AgentRun run) {
        count("sift.runs", "Runs finished, by answer status and kind", "status", run.status().wire(),
                "kind", run.kind().wire());
        Timer.builder("sift.run.latency").description("Run latency").serviceLevelObjectives(BUCKETS).register(registry)
                .record(Duration.ofMillis(run.millis()));
        Groundedness g = run.grounding();
        if (g.repairAsked()) {
            count("sift.grounding.repairs", "Answers sent back once for numbers in no result, by outcome", "outcome",
                    g.unsupported().isEmpty() ? "repaired" : "ungrounded");
        }
        if (g.judge() != null || g.judgeError() != null) {
            String verdict = g.judge() == null ? "failed" : g.judge().verdict();
            count("sift.judge.verdicts", "Judged answers, by verdict (failed: the judge erred or timed out)",
                    "verdict", verdict);
        }
        if (run.signals().loopGuards() > 0) {
            Counter.builder("sift.loop.guard").description("Re-plan directives after a repeated failing call")
                    .register(registry).increment(run.signals().loopGuards());
        }
        if (run.signals().forcedFinal()) {
            count("sift.forced.finals", "Runs whose step budget ran out, so the answer was forced");
        }
    }

    /** Judged grounded / judged, from the verdict counters (so it is right whichever server registered it). */
    private static double groundedness(MeterRegistry r) {
        double all = r.find("sift.judge.verdicts").counters().stream().mapToDouble(Counter::count).sum();
        double grounded = r.find("sift.judge.verdicts").tag("verdict", "grounded").counters().stream()
                .mapToDouble(Counter::count).sum();
        return all == 0 ? Double.NaN : grounded / all;
    }

    /** How long a question waited for a run thread before its run started. */
    void queued(long nanos) {
        Timer.builder("sift.run.queued").description("Time a question waited for a free run thread")
                .serviceLevelObjectives(BUCKETS).register(registry).record(Duration.ofNanos(nanos));
    }

    public void runError() {
        count("sift.run.errors", "Runs that failed with an internal error");
    }

    public void request(int status) {
        count("sift.http.requests", "HTTP requests, by status class", "code", (status / 100) + "xx");
    }

    /** The exposition text (Prometheus text format). */
    public String render() {
        return registry.scrape();
    }

    private void count(String name, String help, String... tags) {
        Counter.builder(name).description(help).tags(tags).register(registry).increment();
    }

    @Override
    public void close() {
        gc.close();
    }
}
