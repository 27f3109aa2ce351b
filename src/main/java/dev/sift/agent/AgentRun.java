package dev.sift.agent;

import dev.sift.text.Evidence;

import java.util.List;

/**
 * The outcome of one run: the answer with its kind and groundedness status, the evidence it rests on,
 * every step, and notes on what was dropped or could not be done. {@code toolsShown} records which tools a
 * model planner was shown and why (null when no catalogue was shown).
 */
public record AgentRun(String runId, String question, String dataset, String planner, String answer,
                       AnswerKind kind, Status status, List<Evidence> evidence, List<Step> steps, List<String> notes,
                       String startedAt, long millis, Usage tokens, ToolsShown toolsShown) {

    /** A run without a record of the tools shown (offline planners show no catalogue). */
    public AgentRun(String runId, String question, String dataset, String planner, String answer, AnswerKind kind,
                    Status status, List<Evidence> evidence, List<Step> steps, List<String> notes, String startedAt,
                    long millis, Usage tokens) {
        this(runId, question, dataset, planner, answer, kind, status, evidence, steps, notes, startedAt, millis, tokens,
                null);
    }

    /** How far the answer is known to rest on its evidence. */
    public enum Status {
        JUDGED, NOT_SAMPLED, RULE_BASED, LLM_DISABLED, FAILED;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
