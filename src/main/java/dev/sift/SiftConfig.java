package dev.sift;

import dev.sift.data.source.AllowedSources;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sift's configuration, read from the environment once at start and passed in: where Sift keeps its
 * datasets, traces and sessions ({@code SIFT_HOME}, default {@code ~/.sift}), whether knowledge search uses
 * dense embeddings ({@code SIFT_EMBEDDINGS} = on/true/1), the web app's access token ({@code SIFT_TOKEN},
 * none when unset), which sources a model may connect ({@code SIFT_ALLOWED_SOURCES}: folders and URL prefixes,
 * see {@link AllowedSources}; the environment is kept there for the sources' credentials). The model has its own configuration ({@link dev.sift.llm.LlmConfig}, {@code SIFT_LLM_*}), read from the
 * same environment. Blank values count as unset.
 */
public record SiftConfig(Path home, boolean embeddings, String token, AllowedSources allowedSources) {

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
     * Reads the variables above from {@code env}; {@code user.home} gives the default home when present,
     * {@code user.dir} the working directory (relative allowed folders, default allowed folder).
     */
    public static SiftConfig fromEnv(Map<String, String> env) {
        String home = get(env, "SIFT_HOME");
        String user = get(env, "user.home");
        Path dir = home != null ? Path.of(home) : Path.of(user == null ? "." : user, ".sift");
        String dense = get(env, "SIFT_EMBEDDINGS");
        boolean embeddings = dense != null && switch (dense.toLowerCase(Locale.ROOT)) {
            case "on", "true", "1" -> true;
            default -> false;
        };
        String cwd = get(env, "user.dir");
        Path workdir = Path.of(cwd == null ? "" : cwd).toAbsolutePath();
        return new SiftConfig(dir, embeddings, get(env, "SIFT_TOKEN"),
                AllowedSources.of(get(env, AllowedSources.SETTING), dir, workdir, env));
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
