package dev.sift;

import org.junit.jupiter.api.Test;

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
}
