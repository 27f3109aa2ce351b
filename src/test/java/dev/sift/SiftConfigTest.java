package dev.sift;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

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
}
