package dev.sift.agent.grounding;

import java.util.List;

/**
 * What the judge said about an answer: {@code grounded}, {@code partly} or {@code ungrounded}, the claims
 * it could not find in the evidence, its reasons in a sentence or two, and the model that judged.
 */
public record Verdict(String verdict, List<String> unsupported, String reasons, String model) {
    public static final List<String> VERDICTS = List.of("grounded", "partly", "ungrounded");

    public Verdict {
        if (!VERDICTS.contains(verdict)) {
            throw new IllegalArgumentException("verdict '" + verdict + "' is not one of " + VERDICTS);
        }
        unsupported = List.copyOf(unsupported);
    }

    public boolean grounded() {
        return verdict.equals("grounded");
    }
}
