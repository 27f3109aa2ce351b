package dev.sift.agent;

/** Bounds of one run. */
public record AgentConfig(int maxSteps, int maxRepairs) {
    public static final int DEFAULT_MAX_STEPS = 12;

    public AgentConfig {
        if (maxSteps < 1 || maxSteps > 100) {
            throw new IllegalArgumentException("max steps must be between 1 and 100, got " + maxSteps);
        }
        if (maxRepairs < 0 || maxRepairs > 5) {
            throw new IllegalArgumentException("max repairs must be between 0 and 5, got " + maxRepairs);
        }
    }

    public static AgentConfig defaults() {
        return new AgentConfig(DEFAULT_MAX_STEPS, 1);
    }

    public AgentConfig withMaxSteps(int n) {
        return new AgentConfig(n, maxRepairs);
    }
}
