package dev.sift.agent;

import dev.sift.text.Evidence;

/**
 * Bounds of one run. {@code evidenceRows} is how many rows of each evidence the finished run carries
 * ({@link Evidence#MAX_ROWS} by default; 0 means all of them, read again from the result's frame or query when the
 * run is done).
 */
public record AgentConfig(int maxSteps, int maxRepairs, int evidenceRows) {
    public static final int DEFAULT_MAX_STEPS = 12;

    public AgentConfig {
        if (maxSteps < 1 || maxSteps > 100) {
            throw new IllegalArgumentException("max steps must be between 1 and 100, got " + maxSteps);
        }
        if (maxRepairs < 0 || maxRepairs > 5) {
            throw new IllegalArgumentException("max repairs must be between 0 and 5, got " + maxRepairs);
        }
        if (evidenceRows < 0) {
            throw new IllegalArgumentException("max rows must be 0 (all rows) or more, got " + evidenceRows);
        }
    }

    public AgentConfig(int maxSteps, int maxRepairs) {
        this(maxSteps, maxRepairs, Evidence.MAX_ROWS);
    }

    public static AgentConfig defaults() {
        return new AgentConfig(DEFAULT_MAX_STEPS, 1);
    }

    public AgentConfig withMaxSteps(int n) {
        return new AgentConfig(n, maxRepairs, evidenceRows);
    }

    /** Each evidence of the finished run with at most {@code n} rows (0: all rows). */
    public AgentConfig withEvidenceRows(int n) {
        return new AgentConfig(maxSteps, maxRepairs, n);
    }
}
