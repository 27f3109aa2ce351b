package dev.sift.llm;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LlmConfigTest {

    @Test
    void empty_env_disables_the_llm() {
        LlmConfig c = LlmConfig.fromEnv(Map.of());

        assertThat(c.provider()).isEqualTo("none");
        assertThat(c.enabled()).isFalse();
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.retries()).isEqualTo(2);
        assertThat(c.diskCacheDir()).isNull();
        assertThat(c.describe()).startsWith("LLM disabled");
    }

    @Test
    void open_ai_key_infers_open_ai_with_defaults() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("OPENAI_API_KEY", "sk-abc"));

        assertThat(c.provider()).isEqualTo("openai");
        assertThat(c.baseUrl()).isEqualTo("https://api.openai.com/v1");
        assertThat(c.model()).isEqualTo("gpt-4o-mini");
        assertThat(c.apiKey()).isEqualTo("sk-abc");
        assertThat(c.enabled()).isTrue();
        assertThat(c.describe()).isEqualTo(
                "openai gpt-4o-mini at https://api.openai.com/v1 (timeout 60 s, retries 2, API key set, tools json)");
    }

    @Test
    void anthropic_key_infers_anthropic_with_defaults() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("ANTHROPIC_API_KEY", "sk-ant"));

        assertThat(c.provider()).isEqualTo("anthropic");
        assertThat(c.baseUrl()).isEqualTo("https://api.anthropic.com/v1");
        assertThat(c.model()).isEqualTo("claude-3-5-haiku-latest");
        assertThat(c.apiKey()).isEqualTo("sk-ant");
    }

    @Test
    void base_url_alone_means_local_open_ai_compatible_server_with_placeholder_key() {
        LlmConfig c = LlmConfig.fromEnv(Map.of(
                "SIFT_LLM_BASE_URL", "http://localhost:11434/v1/",
                "SIFT_LLM_MODEL", "llama3.1"));

        assertThat(c.provider()).isEqualTo("openai");
        assertThat(c.baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(c.model()).isEqualTo("llama3.1");
        assertThat(c.apiKey()).isEqualTo(LlmConfig.PLACEHOLDER_API_KEY);
        assertThat(c.hasRealApiKey()).isFalse();
        assertThat(c.describe()).contains("no API key");
    }

    @Test
    void base_url_wins_over_anthropic_key_for_inference() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("SIFT_LLM_BASE_URL", "http://h:1/v1", "ANTHROPIC_API_KEY", "a"));
        assertThat(c.provider()).isEqualTo("openai");
        assertThat(c.apiKey()).isEqualTo(LlmConfig.PLACEHOLDER_API_KEY); // anthropic key is not sent to openai
    }

    @Test
    void explicit_provider_wins_and_key_falls_back_per_provider() {
        Map<String, String> env = Map.of(
                "SIFT_LLM_PROVIDER", "Anthropic",
                "OPENAI_API_KEY", "sk-openai",
                "ANTHROPIC_API_KEY", "sk-ant");

        LlmConfig c = LlmConfig.fromEnv(env);

        assertThat(c.provider()).isEqualTo("anthropic");
        assertThat(c.apiKey()).isEqualTo("sk-ant");
    }

    @Test
    void sift_key_overrides_provider_key() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("OPENAI_API_KEY", "sk-openai", "SIFT_LLM_API_KEY", "sk-sift"));
        assertThat(c.apiKey()).isEqualTo("sk-sift");
    }

    @Test
    void explicit_none_disables_even_with_keys() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("SIFT_LLM_PROVIDER", "none", "OPENAI_API_KEY", "sk"));
        assertThat(c.enabled()).isFalse();
    }

    @Test
    void timeout_retries_and_cache_dir_are_read() {
        LlmConfig c = LlmConfig.fromEnv(Map.of(
                "OPENAI_API_KEY", "k",
                "SIFT_LLM_TIMEOUT_S", "2.5",
                "SIFT_LLM_RETRIES", "0",
                "SIFT_LLM_CACHE_DIR", "/tmp/sift-cache"));

        assertThat(c.timeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(c.retries()).isZero();
        assertThat(c.diskCacheDir()).isEqualTo(Path.of("/tmp/sift-cache"));
        assertThat(c.describe()).contains("timeout 2.5 s, retries 0").contains("disk cache /tmp/sift-cache");
    }

    @Test
    void blank_values_count_as_unset() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("SIFT_LLM_PROVIDER", " ", "SIFT_LLM_TIMEOUT_S", ""));
        assertThat(c.provider()).isEqualTo("none");
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void bad_provider_is_explained() {
        assertThatThrownBy(() -> LlmConfig.fromEnv(Map.of("SIFT_LLM_PROVIDER", "gemni")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SIFT_LLM_PROVIDER='gemni' is not one of openai|anthropic|gemini|none");
    }

    @Test
    void bad_timeout_is_explained() {
        for (String bad : new String[] {"abc", "0", "-5", "1e999999"}) {
            assertThatThrownBy(() -> LlmConfig.fromEnv(Map.of("SIFT_LLM_TIMEOUT_S", bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("SIFT_LLM_TIMEOUT_S='" + bad + "' is not a number of seconds > 0 (e.g. 60 or 2.5)");
        }
    }

    @Test
    void bad_retries_is_explained() {
        assertThatThrownBy(() -> LlmConfig.fromEnv(Map.of("SIFT_LLM_RETRIES", "many")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SIFT_LLM_RETRIES='many' is not a whole number from 0 to 10");
        assertThatThrownBy(() -> LlmConfig.fromEnv(Map.of("SIFT_LLM_RETRIES", "11")))
                .hasMessage("SIFT_LLM_RETRIES='11' is not a whole number from 0 to 10");
    }

    @Test
    void bad_base_url_is_explained() {
        assertThatThrownBy(() -> LlmConfig.fromEnv(Map.of("SIFT_LLM_BASE_URL", "localhost:11434")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SIFT_LLM_BASE_URL='localhost:11434' is not an http:// or https:// URL"
                        + " (e.g. http://localhost:11434/v1)");
    }

    @Test
    void to_string_never_leaks_the_key() {
        LlmConfig c = LlmConfig.fromEnv(Map.of("OPENAI_API_KEY", "sk-secret-123"));
        assertThat(c.toString()).doesNotContain("sk-secret-123").contains("apiKey=***");
        assertThat(c.describe()).doesNotContain("sk-secret-123");
    }
}
