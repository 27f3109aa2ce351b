package dev.sift.agent.grounding;

import dev.sift.text.Evidence;
import dev.sift.text.EvidenceText;

import java.util.List;

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

    /** What the run has shown: {@code texts} are the question, conversation context, observations and call arguments. */
    public static Facts facts(List<Evidence> evidence, List<String> texts) {
        Facts.Builder b = Facts.builder();
        for (Evidence e : evidence) {
            b.text(e.sql());
            b.table(e.columns(), e.rows(), e.rowCount());
        }
        texts.forEach(b::text);
        return b.build();
    }

    public AnswerCheck.Result check(String answer, List<Evidence> evidence, List<String> texts) {
        return AnswerCheck.check(answer, facts(evidence, texts));
    }

    public boolean sampled(String question, String answer) {
        return judge != null && config.sampled(question, answer);
    }

    /** The judge's verdict on an answer; the evidence it sees is the result tables and the observations. */
    public Verdict judge(String question, String answer, List<Evidence> evidence, List<String> observations)
            throws Judge.JudgeException {
        StringBuilder b = new StringBuilder();
        for (Evidence e : evidence) {
            b.append(b.length() == 0 ? "" : "\n\n").append("Query: ").append(e.sql()).append('\n')
                    .append(EvidenceText.plainText(List.of(e)));
        }
        for (String o : observations) {
            b.append(b.length() == 0 ? "" : "\n\n").append(o);
        }
        return judge.judge(question, b.toString(), answer);
    }

    public JudgeConfig config() {
        return config;
    }
}
