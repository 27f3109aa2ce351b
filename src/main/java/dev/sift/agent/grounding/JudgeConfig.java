package dev.sift.agent.grounding;

import dev.sift.llm.LlmConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How answers are judged. Build it with {@link #fromEnv(Map, LlmConfig)}; bad settings fail fast with a
 * message naming the variable, like {@link LlmConfig}.
 *
 * @param sampleRate       share of model answers a judge scores (0..1); 0 turns the judge off
 * @param seed             makes sampling repeatable: the same seed, question and answer always sample alike
 * @param maxEvidenceChars how much evidence the judge is shown
 * @param llm              the judge's own model, or null to judge with the planner's
 */
public record JudgeConfig(double sampleRate, long seed, int maxEvidenceChars, LlmConfig llm) {
    public static final double DEFAULT_SAMPLE_RATE = 0.1;
    public static final long DEFAULT_SEED = 13;
    public static final int DEFAULT_MAX_EVIDENCE_CHARS = 6000;
    /** SIFT_JUDGE_X overrides SIFT_LLM_X for the judge's model; unset ones are the planner's. */
    private static final List<String> PROVIDER_SETTINGS = List.of("PROVIDER", "BASE_URL", "MODEL", "API_KEY",
            "TIMEOUT_S", "RETRIES");

    public JudgeConfig {
        if (!(sampleRate >= 0 && sampleRate <= 1)) {
            throw new IllegalArgumentException("judge sample rate " + sampleRate + " is not in 0..1");
        }
        if (maxEvidenceChars < 200) {
            throw new IllegalArgumentException("judge evidence limit " + maxEvidenceChars + " must be at least 200");
        }
    }

    public static JudgeConfig off() {
        return new JudgeConfig(0, DEFAULT_SEED, DEFAULT_MAX_EVIDENCE_CHARS, null);
    }

    /**
     * Reads SIFT_JUDGE_SAMPLE_RATE (default 0.1 with a model, 0 without), SIFT_JUDGE_SEED, and
     * SIFT_JUDGE_PROVIDER / _BASE_URL / _MODEL / _API_KEY / _TIMEOUT_S / _RETRIES, each defaulting to the
     * planner's SIFT_LLM_ setting. Blank values count as unset.
     */
    public static JudgeConfig fromEnv(Map<String, String> env, LlmConfig planner) {
        Map<String, String> merged = new HashMap<>(env);
        boolean own = false;
        for (String s : PROVIDER_SETTINGS) {
            String v = get(env, "SIFT_JUDGE_" + s);
            if (v != null) {
                merged.put("SIFT_LLM_" + s, v);
                own = true;
            }
        }
        LlmConfig llm = null;
        if (own) {
            try {
                llm = LlmConfig.fromEnv(merged);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage().replace("SIFT_LLM_", "SIFT_JUDGE_"));
            }
        }
        boolean anyModel = planner.enabled() || (llm != null && llm.enabled());
        double rate = rate(get(env, "SIFT_JUDGE_SAMPLE_RATE"), anyModel ? DEFAULT_SAMPLE_RATE : 0);
        long seed = seed(get(env, "SIFT_JUDGE_SEED"));
        if (rate > 0 && !anyModel) {
            throw new IllegalArgumentException("SIFT_JUDGE_SAMPLE_RATE=" + get(env, "SIFT_JUDGE_SAMPLE_RATE")
                    + " needs a model to judge with: set SIFT_LLM_PROVIDER (or SIFT_JUDGE_PROVIDER and SIFT_JUDGE_MODEL)");
        }
        return new JudgeConfig(rate, seed, DEFAULT_MAX_EVIDENCE_CHARS, llm);
    }

    /** Whether the answer to {@code question} is judged: a seeded hash, so reruns sample the same answers. */
    public boolean sampled(String question, String answer) {
        if (sampleRate <= 0) {
            return false;
        }
        if (sampleRate >= 1) {
            return true;
        }
        long h = seed * 0x9E3779B97F4A7C15L;
        h = mix(h ^ question.hashCode());
        h = mix(h ^ answer.hashCode());
        return (h >>> 11) * 0x1.0p-53 < sampleRate;
    }

    /** One line for logs; never names a key. */
    public String describe() {
        if (sampleRate == 0) {
            return "judge off";
        }
        return "judge samples " + sampleRate + " of model answers (seed " + seed + ") with "
                + (llm == null ? "the planner's model" : llm.describe());
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static double rate(String raw, double fallback) {
        if (raw == null) {
            return fallback;
        }
        try {
            double r = Double.parseDouble(raw);
            if (r >= 0 && r <= 1) {
                return r;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("SIFT_JUDGE_SAMPLE_RATE='" + raw + "' is not a share from 0 to 1 (e.g. 0.1)");
    }

    private static long seed(String raw) {
        if (raw == null) {
            return DEFAULT_SEED;
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SIFT_JUDGE_SEED='" + raw + "' is not a whole number");
        }
    }

    private static String get(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
