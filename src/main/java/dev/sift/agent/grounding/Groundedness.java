package dev.sift.agent.grounding;

import java.util.List;

/**
 * How a run's answer fared in the groundedness checks: how many claims it made, the numeric claims no result
 * supports (after the repair turn), those the first answer made before a repair turn fixed them, the judge's
 * verdict when it was sampled, the judge's failure when it could not give one, the quoted values found nowhere
 * (reported, never sent back), the numbers accepted as derived with their formulas, and {@code reference}: what
 * else the check read that the trace does not hold elsewhere (the conversation so far, the dataset and knowledge
 * sections the planner was shown), so {@code sift grounding check} can replay it.
 */
public record Groundedness(int claims, List<String> unsupported, List<String> repaired, Verdict judge,
                           String judgeError, List<String> unsupportedValues, List<AnswerCheck.Derived> derived,
                           List<String> reference) {
    public static final Groundedness NONE = new Groundedness(0, List.of(), List.of(), null, null);

    public Groundedness {
        unsupported = List.copyOf(unsupported);
        repaired = List.copyOf(repaired);
        unsupportedValues = unsupportedValues == null ? List.of() : List.copyOf(unsupportedValues);
        derived = derived == null ? List.of() : List.copyOf(derived);
        reference = reference == null ? List.of() : List.copyOf(reference);
    }

    public Groundedness(int claims, List<String> unsupported, List<String> repaired, Verdict judge, String judgeError) {
        this(claims, unsupported, repaired, judge, judgeError, List.of(), List.of(), List.of());
    }

    /** The outcome of the final answer's check, with the numbers a repair turn was asked for. */
    public static Groundedness of(AnswerCheck.Result check, List<String> repaired, List<String> reference) {
        return new Groundedness(check.claims().size(), texts(check.unsupported()), repaired, null, null,
                texts(check.unsupportedValues()), check.derived(), reference);
    }

    private static List<String> texts(List<Claim> claims) {
        return claims.stream().map(Claim::text).distinct().toList();
    }

    public boolean repairAsked() {
        return !repaired.isEmpty();
    }

    public Groundedness withJudge(Verdict v) {
        return new Groundedness(claims, unsupported, repaired, v, null, unsupportedValues, derived, reference);
    }

    public Groundedness withJudgeError(String error) {
        return new Groundedness(claims, unsupported, repaired, null, error, unsupportedValues, derived, reference);
    }
}
