package dev.sift.agent.grounding;

import java.util.List;

/**
 * How a run's answer fared in the groundedness checks: how many claims it made, those no result supports
 * (after the repair turn), those the first answer made before a repair turn fixed them, the judge's
 * verdict when it was sampled, and the judge's failure when it could not give one.
 */
public record Groundedness(int claims, List<String> unsupported, List<String> repaired, Verdict judge,
                           String judgeError) {
    public static final Groundedness NONE = new Groundedness(0, List.of(), List.of(), null, null);

    public Groundedness {
        unsupported = List.copyOf(unsupported);
        repaired = List.copyOf(repaired);
    }

    public boolean repairAsked() {
        return !repaired.isEmpty();
    }

    public Groundedness withJudge(Verdict v) {
        return new Groundedness(claims, unsupported, repaired, v, null);
    }

    public Groundedness withJudgeError(String error) {
        return new Groundedness(claims, unsupported, repaired, null, error);
    }
}
