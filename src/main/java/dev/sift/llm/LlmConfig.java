package dev.sift.llm;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which LLM to talk to and how patiently. Build it with {@link #fromEnv(Map)}; bad settings fail fast
 * with an {@link IllegalArgumentException} whose message names the variable, the value and what is allowed.
 *
 * @param provider     openai | anthropic | gemini | none
 * @param baseUrl      API root, e.g. https://api.openai.com/v1 (null when provider is none)
 * @param model        model name (null when provider is none)
 * @param apiKey       API key, or {@link #PLACEHOLDER_API_KEY} for local endpoints that need none
 * @param timeout      wall-clock limit per attempt
 * @param retries      extra attempts after the first one for transient failures
 * @param diskCacheDir optional directory for the on-disk response cache (nullable)
 * @param toolCalling  how the planner's model calls tools: JSON replies or the provider's native tool calling
 */
public record LlmConfig(String provider, String baseUrl, String model, String apiKey, Duration timeout, int retries,
                        Path diskCacheDir, ToolCalling toolCalling) {

    public static final String OPENAI = "openai";
    public static final String ANTHROPIC = "anthropic";
    public static final String GEMINI = "gemini";
    public static final String NONE = "none";

    public static final String DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
    public static final String DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
    public static final String DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";
    public static final String DEFAULT_ANTHROPIC_MODEL = "claude-3-5-haiku-latest";
    public static final String DEFAULT_GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";
    public static final String DEFAULT_GEMINI_MODEL = "gemini-2.5-flash";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_RETRIES = 2;
    public static final int MAX_RETRIES = 10;
    /** Sent when no key is configured: Ollama, vLLM and LM Studio ignore it, and the libraries refuse a blank key. */
    public static final String PLACEHOLDER_API_KEY = "sift-no-key";

    /** Where each hosted provider is by default, and the key variable that selects it, in the order inferred. */
    private record Hosted(String baseUrl, String model, String keyVariable) { }

    private static final Map<String, Hosted> HOSTED = new LinkedHashMap<>();

    static {
        HOSTED.put(OPENAI, new Hosted(DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_MODEL, "OPENAI_API_KEY"));
        HOSTED.put(ANTHROPIC, new Hosted(DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, "ANTHROPIC_API_KEY"));
        HOSTED.put(GEMINI, new Hosted(DEFAULT_GEMINI_BASE_URL, DEFAULT_GEMINI_MODEL, "GEMINI_API_KEY"));
    }

    private static final String PROVIDER_NAMES = String.join("|", HOSTED.keySet()) + "|" + NONE;

    public LlmConfig {
        Objects.requireNonNull(provider, "provider");
        if (!NONE.equals(provider) && !HOSTED.containsKey(provider)) {
            throw new IllegalArgumentException("LLM provider '" + provider + "' is not one of " + PROVIDER_NAMES);
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("LLM timeout " + timeout + " must be > 0");
        }
        if (retries < 0 || retries > MAX_RETRIES) {
            throw new IllegalArgumentException("LLM retries " + retries + " is not in 0.." + MAX_RETRIES);
        }
        toolCalling = toolCalling == null ? ToolCalling.DEFAULT : toolCalling;
        if (!NONE.equals(provider)) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(model, "model");
            if (apiKey == null || apiKey.isBlank()) {
                apiKey = PLACEHOLDER_API_KEY;
            }
        }
    }

    /** With the default tool calling ({@link ToolCalling#DEFAULT}). */
    public LlmConfig(String provider, String baseUrl, String model, String apiKey, Duration timeout, int retries,
                     Path diskCacheDir) {
        this(provider, baseUrl, model, apiKey, timeout, retries, diskCacheDir, ToolCalling.DEFAULT);
    }

    /** The same model with tools called {@code how}. */
    public LlmConfig withToolCalling(ToolCalling how) {
        return new LlmConfig(provider, baseUrl, model, apiKey, timeout, retries, diskCacheDir, how);
    }

    /** A config that disables the LLM. */
    public static LlmConfig none() {
        return new LlmConfig(NONE, null, null, null, DEFAULT_TIMEOUT, DEFAULT_RETRIES, null);
    }

    /**
     * Reads SIFT_LLM_PROVIDER, SIFT_LLM_BASE_URL, SIFT_LLM_MODEL, SIFT_LLM_API_KEY (falling back to
     * OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY), SIFT_LLM_TIMEOUT_S, SIFT_LLM_RETRIES,
     * SIFT_LLM_CACHE_DIR and SIFT_LLM_TOOLS. Blank values count as unset. Without a provider, a base URL or OpenAI
     * key selects openai, else an Anthropic key anthropic, else a Gemini key gemini.
     */
    public static LlmConfig fromEnv(Map<String, String> env) {
        String explicitProvider = get(env, "SIFT_LLM_PROVIDER");
        String baseUrl = get(env, "SIFT_LLM_BASE_URL");

        String provider;
        if (explicitProvider != null) {
            provider = explicitProvider.toLowerCase(Locale.ROOT);
            if (!NONE.equals(provider) && !HOSTED.containsKey(provider)) {
                throw new IllegalArgumentException(
                        "SIFT_LLM_PROVIDER='" + explicitProvider + "' is not one of " + PROVIDER_NAMES);
            }
        } else if (baseUrl != null) {
            provider = OPENAI;
        } else {
            provider = HOSTED.entrySet().stream().filter(h -> get(env, h.getValue().keyVariable()) != null)
                    .map(Map.Entry::getKey).findFirst().orElse(NONE);
        }

        Duration timeout = parseTimeout(get(env, "SIFT_LLM_TIMEOUT_S"));
        int retries = parseRetries(get(env, "SIFT_LLM_RETRIES"));
        Path cacheDir = parseCacheDir(get(env, "SIFT_LLM_CACHE_DIR"));
        ToolCalling tools = ToolCalling.parse(get(env, "SIFT_LLM_TOOLS"));

        if (NONE.equals(provider)) {
            return new LlmConfig(NONE, null, null, null, timeout, retries, cacheDir, tools);
        }

        Hosted hosted = HOSTED.get(provider);
        String url = baseUrl != null ? checkUrl(baseUrl) : hosted.baseUrl();
        String model = orElse(get(env, "SIFT_LLM_MODEL"), hosted.model());
        String key = orElse(get(env, "SIFT_LLM_API_KEY"), get(env, hosted.keyVariable()));
        return new LlmConfig(provider, url, model, key, timeout, retries, cacheDir, tools);
    }

    public boolean enabled() {
        return !NONE.equals(provider);
    }

    public boolean hasRealApiKey() {
        return apiKey != null && !PLACEHOLDER_API_KEY.equals(apiKey);
    }

    /** One line for logs and `--verbose`; never contains the API key. */
    public String describe() {
        if (!enabled()) {
            return "LLM disabled (set SIFT_LLM_PROVIDER, SIFT_LLM_BASE_URL, OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY to enable)";
        }
        return provider + " " + model + " at " + baseUrl
                + " (timeout " + formatSeconds(timeout) + ", retries " + retries
                + ", " + (hasRealApiKey() ? "API key set" : "no API key") + ", tools " + toolCalling.wire()
                + (diskCacheDir != null ? ", disk cache " + diskCacheDir : "") + ")";
    }

    /** Records print every component; the key must never end up in a log. */
    @Override
    public String toString() {
        return "LlmConfig[provider=" + provider + ", baseUrl=" + baseUrl + ", model=" + model
                + ", apiKey=" + (apiKey == null ? "null" : hasRealApiKey() ? "***" : apiKey)
                + ", timeout=" + timeout + ", retries=" + retries + ", diskCacheDir=" + diskCacheDir
                + ", toolCalling=" + toolCalling + "]";
    }

    /** "2 s", "0.5 s": used in user-facing messages. */
    public static String formatSeconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString() + " s";
    }

    private static Duration parseTimeout(String raw) {
        if (raw == null) {
            return DEFAULT_TIMEOUT;
        }
        try {
            BigDecimal seconds = new BigDecimal(raw);
            long millis = seconds.movePointRight(3).longValueExact();
            if (millis > 0) {
                return Duration.ofMillis(millis);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(
                "SIFT_LLM_TIMEOUT_S='" + raw + "' is not a number of seconds > 0 (e.g. 60 or 2.5)");
    }

    private static int parseRetries(String raw) {
        if (raw == null) {
            return DEFAULT_RETRIES;
        }
        try {
            int n = Integer.parseInt(raw);
            if (n >= 0 && n <= MAX_RETRIES) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException(
                "SIFT_LLM_RETRIES='" + raw + "' is not a whole number from 0 to " + MAX_RETRIES);
    }

    private static Path parseCacheDir(String raw) {
        if (raw == null) {
            return null;
        }
        try {
            return Path.of(raw);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("SIFT_LLM_CACHE_DIR='" + raw + "' is not a valid directory path");
        }
    }

    private static String checkUrl(String raw) {
        try {
            URI uri = new URI(raw);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
            }
        } catch (Exception e) {
            // fall through
        }
        throw new IllegalArgumentException("SIFT_LLM_BASE_URL='" + raw
                + "' is not an http:// or https:// URL (e.g. http://localhost:11434/v1)");
    }

    private static String get(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static String orElse(String v, String fallback) {
        return v != null ? v : fallback;
    }
}
