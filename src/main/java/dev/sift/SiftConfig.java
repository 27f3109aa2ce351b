package dev.sift;

import dev.sift.agent.grounding.JudgeConfig;
import dev.sift.data.Workspace;
import dev.sift.data.source.AllowedSources;
import dev.sift.llm.LlmConfig;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sift's configuration, read once at start and passed in: the environment over {@code $SIFT_HOME/sift.yaml}
 * ({@link ConfigFile}, whose table lists every setting). Where Sift keeps its datasets, traces and sessions
 * ({@code SIFT_HOME}, default {@code ~/.sift}), whether knowledge search uses dense embeddings
 * ({@code SIFT_EMBEDDINGS} = on/true/1), the web app's access token ({@code SIFT_TOKEN}, none when unset), which
 * sources a model may connect ({@code SIFT_ALLOWED_SOURCES}: folders and URL prefixes, see
 * {@link AllowedSources}), the planner's model ({@link LlmConfig}, {@code SIFT_LLM_*}) and the judge
 * ({@link JudgeConfig}, {@code SIFT_JUDGE_*}), all validated here; {@code settings} is the environment with
 * the file's values under it, which the sources read their credentials from. Blank values count as unset.
 */
public record SiftConfig(Path home, boolean embeddings, String token, AllowedSources allowedSources, LlmConfig llm,
                         JudgeConfig judging, Map<String, String> settings, long maxJsonBytes,
                         Workspace.Limits limits) {
    /** The largest JSON request body the web app reads ({@code SIFT_MAX_JSON_KB}): far below the upload limit. */
    public static final long DEFAULT_MAX_JSON_BYTES = 1024 * 1024;

    /** The process environment, with the system properties {@code sift.home} and {@code sift.embeddings} over it. */
    public static SiftConfig fromEnv() {
        Map<String, String> env = new HashMap<>(System.getenv());
        override(env, "SIFT_HOME", System.getProperty("sift.home"));
        override(env, "SIFT_EMBEDDINGS", System.getProperty("sift.embeddings"));
        env.putIfAbsent("user.home", System.getProperty("user.home"));
        env.putIfAbsent("user.dir", System.getProperty("user.dir"));
        return fromEnv(env);
    }

    /**
     * Reads the settings from {@code env} over the home's {@code sift.yaml}; {@code user.home} gives the default
     * home when present, {@code user.dir} the working directory (relative allowed folders, default allowed
     * folder). A bad value fails with an {@link IllegalArgumentException} naming the variable, or the file's
     * line when the value came from the file.
     */
    public static SiftConfig fromEnv(Map<String, String> env) {
        String home = get(env, "SIFT_HOME");
        String user = get(env, "user.home");
        Path dir = home != null ? Path.of(home) : Path.of(user == null ? "." : user, ".sift");
        ConfigFile file = ConfigFile.in(dir);
        Map<String, String> settings = Collections.unmodifiableMap(file.under(env));
        String dense = get(settings, "SIFT_EMBEDDINGS");
        boolean embeddings = dense != null && switch (dense.toLowerCase(Locale.ROOT)) {
            case "on", "true", "1" -> true;
            default -> false;
        };
        String cwd = get(settings, "user.dir");
        Path workdir = Path.of(cwd == null ? "" : cwd).toAbsolutePath();
        try {
            LlmConfig llm = LlmConfig.fromEnv(settings);
            return new SiftConfig(dir, embeddings, get(settings, "SIFT_TOKEN"),
                    AllowedSources.of(get(settings, AllowedSources.SETTING), dir, workdir, settings), llm,
                    JudgeConfig.fromEnv(settings, llm), settings, maxJsonBytes(get(settings, "SIFT_MAX_JSON_KB")),
                    limits(settings));
        } catch (IllegalArgumentException e) {
            throw file.explain(e, env);
        }
    }

    /** Records print every component; the settings hold keys and the token, which must never reach a log. */
    @Override
    public String toString() {
        return "SiftConfig[home=" + home + ", embeddings=" + embeddings + ", token=" + (token == null ? "none" : "***")
                + ", llm=" + llm + ", judging=" + judging.describe() + "]";
    }

    /** The workspaces' limits: the defaults with the result's byte budget of the settings. */
    private static Workspace.Limits limits(Map<String, String> settings) {
        long cell = whole(settings, "SIFT_MAX_CELL_BYTES", Workspace.Limits.DEFAULT_CELL_BYTES, 1024, 1L << 30);
        long resultMb = whole(settings, "SIFT_MAX_RESULT_MB", Workspace.Limits.DEFAULT_RESULT_BYTES >> 20, 1, 1L << 20);
        return Workspace.Limits.defaults().withBudget(cell, resultMb << 20);
    }

    private static long whole(Map<String, String> settings, String key, long fallback, long min, long max) {
        String v = get(settings, key);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(key + " must be a whole number from " + min + " to " + max + ", got '" + v + "'");
    }

    private static long maxJsonBytes(String kb) {
        if (kb == null) {
            return DEFAULT_MAX_JSON_BYTES;
        }
        try {
            long n = Long.parseLong(kb);
            if (n >= 1 && n <= 1024 * 1024) {
                return n * 1024;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("SIFT_MAX_JSON_KB must be a whole number of KB from 1 to 1048576, got '" + kb + "'");
    }

    private static void override(Map<String, String> env, String key, String value) {
        if (value != null && !value.isBlank()) {
            env.put(key, value);
        }
    }

    private static String get(Map<String, String> env, String key) {
        String v = env.get(key);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
