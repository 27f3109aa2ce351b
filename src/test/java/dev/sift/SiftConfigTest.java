package dev.sift;

import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SiftConfigTest {

    @Test
    void reads_home_embeddings_and_token_from_the_given_environment() {
        SiftConfig c = SiftConfig.fromEnv(Map.of("SIFT_HOME", "/data/sift", "SIFT_EMBEDDINGS", "ON",
                "SIFT_TOKEN", " s3cret "));
        assertThat(c.home()).isEqualTo(Path.of("/data/sift"));
        assertThat(c.embeddings()).isTrue();
        assertThat(c.token()).isEqualTo("s3cret");
    }

    @Test
    void blank_values_count_as_unset_and_the_home_defaults_under_the_users_home() {
        SiftConfig c = SiftConfig.fromEnv(Map.of("SIFT_HOME", "  ", "SIFT_EMBEDDINGS", "yes please", "SIFT_TOKEN", "",
                "user.home", "/home/ana"));
        assertThat(c.home()).isEqualTo(Path.of("/home/ana", ".sift"));
        assertThat(c.embeddings()).isFalse();
        assertThat(c.token()).isNull();
    }

    @Test
    void allowed_sources_default_to_the_home_and_working_directory_and_the_setting_replaces_them(
            @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path home = java.nio.file.Files.createDirectories(tmp.resolve("home"));
        Path work = java.nio.file.Files.createDirectories(tmp.resolve("work"));
        Path lake = java.nio.file.Files.createDirectories(tmp.resolve("lake"));
        for (Path dir : List.of(home, work, lake)) {
            java.nio.file.Files.writeString(dir.resolve("a.csv"), "x\n1\n");
        }
        SiftConfig plain = SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "user.dir", work.toString()));
        assertThat(plain.allowedSources().check("a.csv")).isEqualTo(work.resolve("a.csv").toRealPath().toString());
        assertThat(plain.allowedSources().check(home.resolve("a.csv").toString())).endsWith("a.csv");
        assertThatThrownBy(() -> plain.allowedSources().check(lake.resolve("a.csv").toString()))
                .hasMessageContaining("SIFT_ALLOWED_SOURCES");

        SiftConfig set = SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "user.dir", work.toString(),
                "SIFT_ALLOWED_SOURCES", "../lake, postgresql://db.internal/shop"));
        assertThat(set.allowedSources().check(lake.resolve("a.csv").toString())).endsWith("a.csv");
        assertThat(set.allowedSources().check("postgresql://db.internal/shop")).isEqualTo("postgresql://db.internal/shop");
        assertThatThrownBy(() -> set.allowedSources().check("a.csv")).hasMessageContaining("is outside the folders Sift may read ("
                + lake + ")");
    }

    @Test
    void the_home_file_sets_what_the_environment_leaves_unset_and_the_environment_wins(@TempDir Path home) throws Exception {
        Files.writeString(home.resolve("sift.yaml"), """
                token: from-file
                embeddings: on
                llm:
                  provider: openai
                  base_url: http://localhost:11434/v1
                  model: file-model
                  timeout_s: 2.5
                judge:
                  sample_rate: 0
                allowed_sources:
                  - postgresql://db.internal/shop
                """);
        SiftConfig c = SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "SIFT_LLM_MODEL", "env-model",
                "SIFT_TOKEN", " "));

        assertThat(c.llm().model()).isEqualTo("env-model");
        assertThat(c.llm().baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(c.llm().timeout()).isEqualTo(java.time.Duration.ofMillis(2500));
        assertThat(c.embeddings()).isTrue();
        assertThat(c.token()).as("a blank variable is unset, so the file's value applies").isEqualTo("from-file");
        assertThat(c.judging().sampleRate()).isZero();
        assertThat(c.allowedSources().check("postgresql://db.internal/shop")).isEqualTo("postgresql://db.internal/shop");
        assertThat(c.settings()).containsEntry("SIFT_LLM_PROVIDER", "openai").containsEntry("SIFT_LLM_MODEL", "env-model");
        assertThat(c.toString()).doesNotContain("from-file");
    }

    @Test
    void an_unknown_key_names_the_file_the_line_and_the_closest_setting(@TempDir Path home) throws Exception {
        assertThatReading(home, "llm:\n  provider: none\n  modle: x\n")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(home.resolve("sift.yaml") + " line 3: unknown setting 'llm.modle' (did you mean"
                        + " 'llm.model'?); the settings are: token, embeddings, allowed_sources, llm.provider");
    }

    @Test
    void a_section_given_a_value_says_its_settings_go_under_it(@TempDir Path home) throws Exception {
        assertThatReading(home, "token: t\nllm: gpt-4o\n")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(home.resolve("sift.yaml") + " line 2: 'llm' is a section, not a value: put its settings on"
                        + " the lines under it, indented (e.g. '  provider: …'); its settings are: llm.provider,"
                        + " llm.base_url, llm.model, llm.api_key, llm.timeout_s, llm.retries, llm.tools, llm.cache_dir");
        assertThatReading(home, "judge: [unclosed\n")
                .hasMessageContaining("line 1: 'judge' is a section, not a value");
    }

    @Test
    void a_bad_value_from_the_file_points_at_its_line_and_one_from_the_environment_at_the_variable(@TempDir Path home)
            throws Exception {
        assertThatReading(home, "# model settings\nllm:\n  timeout_s: soon\n")
                .hasMessage(home.resolve("sift.yaml") + " line 3: SIFT_LLM_TIMEOUT_S='soon' is not a number of seconds > 0"
                        + " (e.g. 60 or 2.5); fix 'llm.timeout_s' there (the environment variable SIFT_LLM_TIMEOUT_S"
                        + " overrides it)");
        assertThatThrownBy(() -> SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "SIFT_LLM_TIMEOUT_S", "later")))
                .hasMessage("SIFT_LLM_TIMEOUT_S='later' is not a number of seconds > 0 (e.g. 60 or 2.5)");
    }

    @Test
    void tool_calling_is_json_unless_the_file_or_the_environment_says_native(@TempDir Path home) throws Exception {
        assertThat(SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "SIFT_LLM_BASE_URL", "http://localhost:1/v1"))
                .llm().toolCalling()).isEqualTo(dev.sift.llm.ToolCalling.JSON);
        Files.writeString(home.resolve("sift.yaml"), "llm:\n  base_url: http://localhost:1/v1\n  tools: native\n");
        assertThat(SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString())).llm().toolCalling())
                .isEqualTo(dev.sift.llm.ToolCalling.NATIVE);
        assertThat(SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString(), "SIFT_LLM_TOOLS", "JSON")).llm().toolCalling())
                .isEqualTo(dev.sift.llm.ToolCalling.JSON);
        assertThatReading(home, "llm:\n  tools: functions\n")
                .hasMessage(home.resolve("sift.yaml") + " line 2: SIFT_LLM_TOOLS='functions' is not one of native|json;"
                        + " fix 'llm.tools' there (the environment variable SIFT_LLM_TOOLS overrides it)");
    }

    @Test
    void broken_yaml_a_repeated_key_a_list_for_one_value_and_the_home_itself_are_refused(@TempDir Path home)
            throws Exception {
        Path file = home.resolve("sift.yaml");
        Map<String, String> env = Map.of("SIFT_HOME", home.toString());
        Files.writeString(file, "llm:\n  model: [a\n");
        assertThatThrownBy(() -> SiftConfig.fromEnv(env)).hasMessageStartingWith(file + " line ")
                .hasMessageContaining(": not valid YAML (").hasMessageEndingWith("fix the syntax (settings are 'key: value',"
                        + " sections indented under 'llm:', 'judge:', 'launcher:')");
        Files.writeString(file, "token: a\nembeddings: on\ntoken: b\n");
        assertThatThrownBy(() -> SiftConfig.fromEnv(env))
                .hasMessage(file + " line 3: 'token' is set twice (first on line 1); keep one");
        Files.writeString(file, "llm:\n  model:\n    - a\n    - b\n");
        assertThatThrownBy(() -> SiftConfig.fromEnv(env)).hasMessage(file + " line 2: 'llm.model' takes one value, not a list");
        Files.writeString(file, "home: /elsewhere\n");
        assertThatThrownBy(() -> SiftConfig.fromEnv(env))
                .hasMessage(file + " line 1: the home cannot be set in the file that lives in it; set SIFT_HOME instead");
        Files.writeString(file, "- token\n");
        assertThatThrownBy(() -> SiftConfig.fromEnv(env))
                .hasMessage(file + " line 1: the file must hold settings as 'key: value' lines");
    }

    @Test
    void every_variable_the_code_reads_is_a_setting_and_every_setting_is_in_the_configuration_table() throws Exception {
        java.util.Set<String> read = new java.util.TreeSet<>();
        java.util.regex.Pattern name = java.util.regex.Pattern.compile("\"(SIFT_[A-Z_]+[A-Z])\"");
        try (var files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                name.matcher(Files.readString(f)).results().map(m -> m.group(1)).forEach(read::add);
            }
        }
        java.util.regex.Matcher launcher = java.util.regex.Pattern.compile("\\$\\{((?:SIFT|OMP)_[A-Z_]+)")
                .matcher(Files.readString(Path.of("sift")));
        launcher.results().map(m -> m.group(1)).forEach(read::add);
        List<String> envs = ConfigFile.SETTINGS.stream().map(ConfigFile.Setting::env).toList();
        assertThat(envs).containsAll(read);

        String settings = Files.readString(Path.of("docs/configuration.md"));
        for (ConfigFile.Setting s : ConfigFile.SETTINGS) {
            assertThat(settings).contains("| `" + s.env() + "` | " + (s.key() == null ? "—" : "`" + s.key() + "`") + " | ");
        }
    }

    /** The refusal of a home whose sift.yaml holds {@code yaml}. */
    private static AbstractThrowableAssert<?, ? extends Throwable> assertThatReading(Path home, String yaml)
            throws Exception {
        Files.writeString(home.resolve("sift.yaml"), yaml);
        return assertThatThrownBy(() -> SiftConfig.fromEnv(Map.of("SIFT_HOME", home.toString())));
    }
}
