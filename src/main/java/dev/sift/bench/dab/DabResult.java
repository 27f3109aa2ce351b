package dev.sift.bench.dab;

/**
 * One scored task iteration. {@code passed} is the validator's verdict; {@code error} says why a task could not be
 * scored normally (the run failed, the validator crashed or hung) and counts as not passed.
 */
public record DabResult(String dataset, String query, int iteration, boolean passed, String reason, String error,
                        String kind, String status, String answer, int steps, long inputTokens, long outputTokens,
                        long runMillis, long validateMillis) {
    public String task() {
        return dataset + "_" + query;
    }
}
