package dev.sift.agent.grounding;

import dev.sift.text.Evidence;

import java.util.List;
import java.util.function.Supplier;

/**
 * The groundedness checks a run's answer goes through: the deterministic check of its claims against
 * what the run showed the planner (result tables, the question, observations — model metrics and SHAP
 * values among them — and the calls' own arguments), and, for a sampled share, a judge model.
 */
public final class Grounding {
    /** The check alone; no judge. */
    public static final Grounding CHECK_ONLY = new Grounding(JudgeConfig.off(), null);

    /** The wording of the repair turn; the planner sees it as the observation after its answer. */
    public static final String REPAIR = "These numbers are in no result: %s. Cite results or run a query. Reply with"
            + " a final answer that uses only numbers from the results above (or call a tool to get them).";

    private final JudgeConfig config;
    private final Judge judge;

    public Grounding(JudgeConfig config, Judge judge) {
        if (config.sampleRate() > 0 && judge == null) {
            throw new IllegalArgumentException("a judge sample rate of " + config.sampleRate() + " needs a judge");
        }
        this.config = config;
        this.judge = judge;
    }

    /**
     * What the run has shown: {@code texts} are the question, conversation context, observations, call arguments
     * and the dataset facts the planner was shown; {@code names} (may be null) the dataset's names known beyond
     * them (knowledge-graph labels, aliases, code meanings), read only when a quoted value is found nowhere else.
     */
    public static Facts facts(List<Evidence> evidence, List<String> texts, Supplier<String> names) {
        return facts(evidence, texts, ReferenceIndex.NONE, names);
    }

    /** As above; {@code reference} (the prompt's dataset facts, the conversation) is read only when needed. */
    public static Facts facts(List<Evidence> evidence, List<String> texts, ReferenceIndex reference,
                              Supplier<String> names) {
        return facts(evidence, texts, List.of(), reference, names);
    }

    /**
     * As above; {@code literals} (the question, the calls' arguments) are texts whose years and dates also bound what
     * the run asked for ({@link Facts.Builder#literal}), as the evidence's SQL does.
     */
    public static Facts facts(List<Evidence> evidence, List<String> texts, List<String> literals,
                              ReferenceIndex reference, Supplier<String> names) {
        Facts.Builder b = Facts.builder().names(names).later(reference);
        for (Evidence e : evidence) {
            b.literal(e.sql());
            b.table(e.sql(), e.columns(), e.rows(), e.rowCount());
        }
        texts.forEach(b::text);
        literals.forEach(b::literal);
        return b.build();
    }

    public AnswerCheck.Result check(String answer, List<Evidence> evidence, List<String> texts) {
        return check(answer, evidence, texts, ReferenceIndex.NONE, null, false);
    }

    /** As above; {@code proposes}: a clarifying question or a decline, of which only statements are checked. */
    public AnswerCheck.Result check(String answer, List<Evidence> evidence, List<String> texts,
                                    ReferenceIndex reference, Supplier<String> names, boolean proposes) {
        return check(answer, evidence, texts, List.of(), reference, names, proposes);
    }

    /** As above; {@code literals}: the question and the calls' arguments (see {@link #facts}). */
    public AnswerCheck.Result check(String answer, List<Evidence> evidence, List<String> texts, List<String> literals,
                                    ReferenceIndex reference, Supplier<String> names, boolean proposes) {
        return AnswerCheck.check(answer, facts(evidence, texts, literals, reference, names), proposes);
    }

    public boolean sampled(String question, String answer) {
        return judge != null && config.sampled(question, answer);
    }

    /**
     * The judge's verdict on an answer. {@code results} is one block per result the run was shown (a query with
     * its observation, or another tool's observation), each once and as the planner saw it, window included
     * ("77 rows; showing rows 1–15"), so the judge checks the answer against what its author could read.
     */
    public Verdict judge(String question, String answer, List<String> results) throws Judge.JudgeException {
        return judge.judge(question, String.join("\n\n", results), answer);
    }

    public JudgeConfig config() {
        return config;
    }
}
