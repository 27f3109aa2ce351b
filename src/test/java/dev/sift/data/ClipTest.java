package dev.sift.data;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClipTest {

    @Test
    void a_text_within_the_width_is_unchanged() {
        assertThat(Clip.words("kind of right", 13)).isEqualTo("kind of right");
        assertThat(Clip.words(null, 5)).isNull();
    }

    @Test
    void a_longer_text_ends_at_its_last_whole_word_within_the_width() {
        assertThat(Clip.words("only the owner can issue permanent orders and ask for a loan", 40))
                .isEqualTo("only the owner can issue permanent…");
        assertThat(Clip.words("only the owner can issue permanent orders", 34)).isEqualTo("only the owner can issue permanent…");
    }

    @Test
    void a_text_with_no_space_in_its_first_half_is_cut_at_the_width() {
        assertThat(Clip.words("https://example.com/a/very/long/path", 20)).isEqualTo("https://example.com/…");
        assertThat(Clip.words("ab cdefghijklmnopqrstuvwxyz", 10)).isEqualTo("ab cdefghi…");
    }
}
