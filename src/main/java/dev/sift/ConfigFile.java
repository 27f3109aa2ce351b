package dev.sift;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sift.data.Names;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code $SIFT_HOME/sift.yaml}: every setting Sift reads from an environment variable, under a YAML key
 * ({@link #SETTINGS} is the one table; docs/configuration.md prints it). The environment wins over the file. A file
 * that does not exist is no error; anything else wrong with it (YAML syntax, an unknown key, a list where one
 * value belongs, a key set twice) fails at start with the file, the line and what to do.
 */
public final class ConfigFile {
    public static final String NAME = "sift.yaml";

    /** One setting: its environment variable, its key in the file, its default, and what it does. */
    public record Setting(String env, String key, String defaultValue, String meaning) {
        boolean list() {
            return env.equals("SIFT_ALLOWED_SOURCES");
        }
    }

    public static final List<Setting> SETTINGS = List.of(
            new Setting("SIFT_HOME", null, "~/.sift", "where datasets, traces, sessions and this file live (so only the environment or -Dsift.home sets it)"),
            new Setting("SIFT_TOKEN", "token", "none", "the web app's access token; `serve` beyond loopback requires it"),
            new Setting("SIFT_EMBEDDINGS", "embeddings", "off", "dense retrieval (MiniLM) next to BM25: on/true/1 (needs a jar built with -Pembeddings)"),
            new Setting("SIFT_ALLOWED_SOURCES", "allowed_sources", "the home and the working directory", "folders and URL prefixes a model may connect (comma-separated, or a YAML list)"),
            new Setting("SIFT_LLM_PROVIDER", "llm.provider", "openai when a base URL or OpenAI key is set, anthropic with an Anthropic key, gemini with a Gemini key, else none", "openai, anthropic, gemini or none"),
            new Setting("SIFT_LLM_BASE_URL", "llm.base_url", "the provider's API", "an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1"),
            new Setting("SIFT_LLM_MODEL", "llm.model", "gpt-4o-mini / claude-3-5-haiku-latest / gemini-2.5-flash", "the planner's model"),
            new Setting("SIFT_LLM_API_KEY", "llm.api_key", "OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY", "the planner's API key"),
            new Setting("OPENAI_API_KEY", "openai.api_key", "none", "OpenAI's key (also selects the openai provider)"),
            new Setting("ANTHROPIC_API_KEY", "anthropic.api_key", "none", "Anthropic's key (also selects the anthropic provider)"),
            new Setting("GEMINI_API_KEY", "gemini.api_key", "none", "Google Gemini's key (also selects the gemini provider)"),
            new Setting("SIFT_LLM_TIMEOUT_S", "llm.timeout_s", "60", "seconds per model call before it is retried"),
            new Setting("SIFT_LLM_RETRIES", "llm.retries", "2", "extra attempts after a transient failure (0–10)"),
            new Setting("SIFT_LLM_TOOLS", "llm.tools", "json", "how the planner's model calls tools: json (one JSON object per reply, any chat endpoint) or native (the provider's tool calling: OpenAI-compatible tools, Anthropic tool_use, Gemini functionDeclarations)"),
            new Setting("SIFT_LLM_CACHE_DIR", "llm.cache_dir", "none", "an on-disk cache of model replies (benchmark replays)"),
            new Setting("SIFT_JUDGE_SAMPLE_RATE", "judge.sample_rate", "0.1 with a model, else 0", "share of model answers a judge scores"),
            new Setting("SIFT_JUDGE_SEED", "judge.seed", "13", "makes the judge's sample repeatable"),
            new Setting("SIFT_JUDGE_PROVIDER", "judge.provider", "the planner's", "the judge's own provider"),
            new Setting("SIFT_JUDGE_BASE_URL", "judge.base_url", "the planner's", "the judge's endpoint"),
            new Setting("SIFT_JUDGE_MODEL", "judge.model", "the planner's", "the judge's model"),
            new Setting("SIFT_JUDGE_API_KEY", "judge.api_key", "the planner's", "the judge's API key"),
            new Setting("SIFT_JUDGE_TIMEOUT_S", "judge.timeout_s", "the planner's", "seconds per judge call"),
            new Setting("SIFT_JUDGE_RETRIES", "judge.retries", "the planner's", "the judge's extra attempts"),
            new Setting("SIFT_MAX_JSON_KB", "serve.max_json_kb", "1024", "the largest JSON request body `serve` reads, in KB (413 beyond it; uploads have --max-upload-mb)"),
            new Setting("SIFT_MAX_CELL_BYTES", "query.max_cell_bytes", "65536", "the most bytes one cell of a result brings into memory; a longer text or BLOB keeps its first bytes, and the result says so (1024 to 1073741824)"),
            new Setting("SIFT_MAX_RESULT_MB", "query.max_result_mb", "128", "the most one result's rows hold in memory, in MB; rows past it stay unread, and the result says so"),
            new Setting("SIFT_HEAP", "launcher.heap", "2g", "./sift's Java heap bound (-Xmx; an -Xmx in SIFT_JAVA_OPTS wins), beside DuckDB's 2 GB memory_limit: one memory budget (docs/security.md)"),
            new Setting("SIFT_CDS", "launcher.cds", "on", "./sift's class-data-sharing archive (off skips it)"),
            new Setting("SIFT_JAVA_OPTS", "launcher.java_opts", "none", "extra JVM options for ./sift, e.g. -Xmx8g"),
            new Setting("SIFT_BUILD_ARGS", "launcher.build_args", "none", "extra Maven arguments when ./sift builds the jar, e.g. -Pembeddings"),
            new Setting("OMP_WAIT_POLICY", "launcher.omp_wait_policy", "PASSIVE", "how XGBoost's OpenMP threads wait (./sift sets it)"));

    /** A value from the file and the line it is on. */
    public record Value(String value, int line) { }

    private final Path file;
    private final Map<String, Value> values;

    private ConfigFile(Path file, Map<String, Value> values) {
        this.file = file;
        this.values = values;
    }

    /** The file in {@code home}, read and checked; empty when there is none. */
    public static ConfigFile in(Path home) {
        Path file = home.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            return new ConfigFile(file, Map.of());
        }
        try (JsonParser p = new YAMLFactory().createParser(file.toFile())) {
            return new ConfigFile(file, new Reader(file, p).read());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " line " + e.getLocation().getLineNr() + ": not valid YAML ("
                    + e.getOriginalMessage() + "); fix the syntax (settings are 'key: value', sections indented under"
                    + " 'llm:', 'judge:', 'launcher:')");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " could not be read: " + e.getMessage());
        }
    }

    public Path file() {
        return file;
    }

    /** The file's settings by environment variable name. */
    public Map<String, Value> values() {
        return values;
    }

    /**
     * {@code env} over the file: the settings as environment variables, the environment's own value where it
     * has one (a blank variable counts as unset, so the file's value applies).
     */
    public Map<String, String> under(Map<String, String> env) {
        Map<String, String> merged = new LinkedHashMap<>();
        values.forEach((k, v) -> merged.put(k, v.value()));
        env.forEach((k, v) -> {
            if (v != null && (!v.isBlank() || !merged.containsKey(k))) {
                merged.put(k, v);
            }
        });
        return merged;
    }

    /**
     * A bad value's error, pointed at the file's line when the file set it (and the environment did not):
     * {@code message} names the variable, as {@link dev.sift.llm.LlmConfig}'s messages do.
     */
    public IllegalArgumentException explain(IllegalArgumentException e, Map<String, String> env) {
        String message = String.valueOf(e.getMessage());
        for (Setting s : SETTINGS) {
            Value v = values.get(s.env());
            String fromEnv = env.get(s.env());
            if (v != null && (fromEnv == null || fromEnv.isBlank()) && message.contains(s.env())) {
                return new IllegalArgumentException(file + " line " + v.line() + ": " + message + "; fix '" + s.key()
                        + "' there (the environment variable " + s.env() + " overrides it)", e);
            }
        }
        return e;
    }

    private static Optional<Setting> byKey(String key) {
        return SETTINGS.stream().filter(s -> key.equals(s.key())).findFirst();
    }

    /** Walks the YAML tokens: top-level keys and one level of sections, remembering each key's line. */
    private record Reader(Path file, JsonParser p) {
        Map<String, Value> read() throws IOException {
            Map<String, Value> out = new LinkedHashMap<>();
            JsonToken first = p.nextToken();
            if (first == null) {
                return out;
            }
            if (first != JsonToken.START_OBJECT) {
                throw error(line(), "the file must hold settings as 'key: value' lines");
            }
            readObject("", out);
            return out;
        }

        private void readObject(String prefix, Map<String, Value> out) throws IOException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = prefix + p.currentName();
                int line = line();
                JsonToken t = p.nextToken();
                List<String> section = prefix.isEmpty() ? SETTINGS.stream().map(Setting::key)
                        .filter(k -> k != null && k.startsWith(key + ".")).toList() : List.of();
                if (!section.isEmpty() && t == JsonToken.START_OBJECT) {
                    readObject(key + ".", out);
                    continue;
                }
                if (!section.isEmpty()) {
                    throw error(line, "'" + key + "' is a section, not a value: put its settings on the lines under it,"
                            + " indented (e.g. '  " + section.get(0).substring(key.length() + 1) + ": …'); its settings"
                            + " are: " + String.join(", ", section));
                }
                Setting s = setting(key, line);
                String value = value(s, t, line);
                Value earlier = out.get(s.env());
                if (earlier != null) {
                    throw error(line, "'" + key + "' is set twice (first on line " + earlier.line() + "); keep one");
                }
                if (value != null) {
                    out.put(s.env(), new Value(value, line));
                }
            }
        }

        private Setting setting(String key, int line) {
            if (key.equals("home")) {
                throw error(line, "the home cannot be set in the file that lives in it; set SIFT_HOME instead");
            }
            return byKey(key).orElseThrow(() -> {
                List<String> keys = SETTINGS.stream().map(Setting::key).filter(k -> k != null).toList();
                String hint = Names.closest(key, keys).map(k -> " (did you mean '" + k + "'?)").orElse("");
                return error(line, "unknown setting '" + key + "'" + hint + "; the settings are: " + String.join(", ", keys));
            });
        }

        /** A scalar as its text; a list (where a list is allowed) joined by commas; null for an empty value. */
        private String value(Setting s, JsonToken t, int line) throws IOException {
            if (t == JsonToken.VALUE_NULL) {
                return null;
            }
            if (t == JsonToken.START_ARRAY && s.list()) {
                List<String> items = new ArrayList<>();
                for (JsonToken i = p.nextToken(); i != JsonToken.END_ARRAY; i = p.nextToken()) {
                    if (!i.isScalarValue()) {
                        throw error(line(), "'" + s.key() + "' holds folders and URL prefixes, one per list item");
                    }
                    items.add(p.getText());
                }
                return String.join(", ", items);
            }
            if (!t.isScalarValue()) {
                p.skipChildren();
                throw error(line, "'" + s.key() + "' takes one value, not a " + (t == JsonToken.START_ARRAY ? "list" : "section"));
            }
            return p.getText();
        }

        private int line() {
            return p.currentTokenLocation().getLineNr();
        }

        private IllegalArgumentException error(int line, String message) {
            return new IllegalArgumentException(file + " line " + line + ": " + message);
        }
    }
}
