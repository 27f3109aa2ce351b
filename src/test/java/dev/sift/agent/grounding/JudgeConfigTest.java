package dev.sift.agent.grounding;

import dev.sift.llm.LlmConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JudgeConfigTest {
    private static final Map<String, String> PLANNER = Map.of("SIFT_LLM_PROVIDER", "openai",
            "SIFT_LLM_BASE_URL", "http://localhost:8000/v1", "SIFT_LLM_MODEL", "planner-model");

    @Test
    void samples_a_tenth_with_a_model_and_nothing_without() {
        assertThat(JudgeConfig.fromEnv(PLANNER, LlmConfig.fromEnv(PLANNER)).sampleRate()).isEqualTo(0.1);
        assertThat(JudgeConfig.fromEnv(Map.of(), LlmConfig.none()).sampleRate()).isZero();
    }

    @Test
    void the_judge_may_use_another_model_with_the_planners_other_settings() {
        Map<String, String> env = new java.util.HashMap<>(PLANNER);
        env.put("SIFT_JUDGE_MODEL", "judge-model");
        env.put("SIFT_JUDGE_SAMPLE_RATE", "0.5");
        JudgeConfig c = JudgeConfig.fromEnv(env, LlmConfig.fromEnv(PLANNER));
        assertThat(c.llm().model()).isEqualTo("judge-model");
        assertThat(c.llm().baseUrl()).isEqualTo("http://localhost:8000/v1");
        assertThat(c.sampleRate()).isEqualTo(0.5);
        assertThat(JudgeConfig.fromEnv(PLANNER, LlmConfig.fromEnv(PLANNER)).llm()).isNull();
    }

    @Test
    void bad_settings_fail_with_the_variable_named() {
        assertThatThrownBy(() -> JudgeConfig.fromEnv(Map.of("SIFT_JUDGE_SAMPLE_RATE", "10%"), LlmConfig.none()))
                .hasMessage("SIFT_JUDGE_SAMPLE_RATE='10%' is not a share from 0 to 1 (e.g. 0.1)");
        assertThatThrownBy(() -> JudgeConfig.fromEnv(Map.of("SIFT_JUDGE_SAMPLE_RATE", "0.5"), LlmConfig.none()))
                .hasMessage("SIFT_JUDGE_SAMPLE_RATE=0.5 needs a model to judge with: set SIFT_LLM_PROVIDER (or"
                        + " SIFT_JUDGE_PROVIDER and SIFT_JUDGE_MODEL)");
        Map<String, String> env = new java.util.HashMap<>(PLANNER);
        env.put("SIFT_JUDGE_TIMEOUT_S", "soon");
        assertThatThrownBy(() -> JudgeConfig.fromEnv(env, LlmConfig.fromEnv(PLANNER)))
                .hasMessage("SIFT_JUDGE_TIMEOUT_S='soon' is not a number of seconds > 0 (e.g. 60 or 2.5)");
    }

    @Test
    void sampling_is_deterministic_under_a_seed_and_near_the_rate() {
        JudgeConfig a = new JudgeConfig(0.3, 7, 6000, null);
        JudgeConfig b = new JudgeConfig(0.3, 7, 6000, null);
        JudgeConfig other = new JudgeConfig(0.3, 8, 6000, null);
        long sampled = IntStream.range(0, 2000).filter(i -> a.sampled("q" + i, "answer")).count();
        assertThat(sampled).isBetween(540L, 660L);
        assertThat(IntStream.range(0, 2000).allMatch(i -> a.sampled("q" + i, "a") == b.sampled("q" + i, "a"))).isTrue();
        assertThat(IntStream.range(0, 2000).anyMatch(i -> a.sampled("q" + i, "a") != other.sampled("q" + i, "a"))).isTrue();
        assertThat(new JudgeConfig(0, 7, 6000, null).sampled("q", "a")).isFalse();
        assertThat(new JudgeConfig(1, 7, 6000, null).sampled("q", "a")).isTrue();
    }
}
