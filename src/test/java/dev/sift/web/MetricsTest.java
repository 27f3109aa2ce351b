package dev.sift.web;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Step;
import dev.sift.agent.Usage;
import dev.sift.agent.grounding.Groundedness;
import dev.sift.agent.grounding.Verdict;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {
    private final Metrics metrics = new Metrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            List.of("run_sql", "inspect_data"), () -> 2);

    @AfterEach
    void close() {
        metrics.close();
    }

    private static Step step(String tool, Step.Outcome outcome) {
        return new Step(1, outcome, null, tool, JsonNodeFactory.instance.objectNode(), true, "", null, 12, Usage.NONE);
    }

    private static AgentRun run(AgentRun.Status status, Groundedness g, AgentRun.Signals signals) {
        return new AgentRun("r", "q", "bank", "m", "a", AnswerKind.ANSWER, status, List.of(), List.of(), List.of(),
                "t", 40, Usage.NONE, null, g, signals);
    }

    @Test
    void an_invented_tool_name_is_counted_as_unknown_and_cannot_inject_lines() {
        metrics.step(step("evil\"}\nsift_runs_total{status=\"judged\"} 999\n#", Step.Outcome.DROPPED));
        metrics.step(step("run_sql", Step.Outcome.RAN));
        String text = metrics.render();

        assertThat(text).contains("sift_steps_total{outcome=\"dropped\",tool=\"unknown\"} 1.0",
                "sift_steps_total{outcome=\"ran\",tool=\"run_sql\"} 1.0", "sift_dropped_calls_total 1.0",
                "sift_tool_latency_seconds_count{tool=\"run_sql\"} 1", "sift_open_sessions 2.0");
        // the injected sample, not the digits: JVM gauges may hold "999" by chance (0.88999… CPU usage)
        assertThat(text).doesNotContain("evil");
        assertThat(text.lines()).noneMatch(l -> l.matches(".*\\} 999(\\.0)?$"));
        assertThat(text.lines().filter(l -> l.startsWith("sift_runs_total"))).isEmpty();
    }

    @Test
    void runs_by_status_groundedness_repairs_and_loop_signals_are_counted() {
        Verdict grounded = new Verdict("grounded", List.of(), "ok", "judge-model");
        Verdict partly = new Verdict("partly", List.of("12%"), "one figure missing", "judge-model");
        metrics.run(run(AgentRun.Status.JUDGED, Groundedness.NONE.withJudge(grounded), AgentRun.Signals.NONE));
        metrics.run(run(AgentRun.Status.JUDGED, Groundedness.NONE.withJudge(partly), new AgentRun.Signals(2, true)));
        metrics.run(run(AgentRun.Status.FAILED, Groundedness.NONE.withJudgeError("timed out"), AgentRun.Signals.NONE));
        metrics.run(run(AgentRun.Status.UNGROUNDED, new Groundedness(2, List.of("4,812"), List.of("4,812"), null, null),
                AgentRun.Signals.NONE));
        metrics.run(run(AgentRun.Status.NOT_SAMPLED, new Groundedness(2, List.of(), List.of("7.5"), null, null),
                AgentRun.Signals.NONE));
        String text = metrics.render();

        assertThat(text).contains("sift_runs_total{kind=\"answer\",status=\"judged\"} 2.0",
                "sift_runs_total{kind=\"answer\",status=\"ungrounded\"} 1.0",
                "sift_judge_verdicts_total{verdict=\"failed\"} 1.0",
                "sift_groundedness 0.3333333333333333",
                "sift_grounding_repairs_total{outcome=\"repaired\"} 1.0",
                "sift_grounding_repairs_total{outcome=\"ungrounded\"} 1.0",
                "sift_loop_guard_total 2.0", "sift_forced_finals_total 1.0", "sift_run_latency_seconds_count 5",
                "jvm_memory_used_bytes");
    }
}
