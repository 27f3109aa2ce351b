package dev.sift.agent;

import dev.sift.agent.grounding.Groundedness;
import dev.sift.text.Evidence;

import java.util.List;

/**
 * The outcome of one run: the answer with its kind and groundedness status, the evidence it rests on,
 * every step, and notes on what was dropped or could not be done. {@code toolsShown} records which tools a
 * model planner was shown and why (null when no catalogue was shown); {@code grounding} is how the answer
 * fared in the groundedness checks, {@code signals} what the loop had to do to get it.
 */
public record AgentRun(String runId, String question, String dataset, String planner, String answer,
                       AnswerKind kind, Status status, List<Evidence> evidence, List<Step> steps, List<String> notes,
                       String startedAt, long millis, Usage tokens, ToolsShown toolsShown, Groundedness grounding,
                       Signals signals) {

    public AgentRun {
        grounding = grounding == null ? Groundedness.NONE : grounding;
        signals = signals == null ? Signals.NONE : signals;
    }

    /** A run without groundedness checks (offline planners, runs made outside the loop). */
    public AgentRun(String runId, String question, String dataset, String planner, String answer, AnswerKind kind,
                    Status status, List<Evidence> evidence, List<Step> steps, List<String> notes, String startedAt,
                    long millis, Usage tokens, ToolsShown toolsShown) {
        this(runId, question, dataset, planner, answer, kind, status, evidence, steps, notes, startedAt, millis, tokens,
                toolsShown, null, null);
    }

    /** How often the loop had to step in: loop-guard re-plan directives, and whether the answer was forced. */
    public record Signals(int loopGuards, boolean forcedFinal) {
        public static final Signals NONE = new Signals(0, false);
    }

    /** A run without a record of the tools shown (offline planners show no catalogue). */
    public AgentRun(String runId, String question, String dataset, String planner, String answer, AnswerKind kind,
                    Status status, List<Evidence> evidence, List<Step> steps, List<String> notes, String startedAt,
                    long millis, Usage tokens) {
        this(runId, question, dataset, planner, answer, kind, status, evidence, steps, notes, startedAt, millis, tokens,
                null);
    }

    /** How far the answer is known to rest on its evidence. */
    public enum Status {
        JUDGED, NOT_SAMPLED, RULE_BASED, LLM_DISABLED, UNGROUNDED, FAILED;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
