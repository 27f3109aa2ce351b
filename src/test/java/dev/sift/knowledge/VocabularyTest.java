package dev.sift.knowledge;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one vocabulary resource: lists and maps by name, compared in comparable form. */
class VocabularyTest {
    private final Vocabulary v = Vocabulary.WORDS;

    @Test
    void compares_words_in_their_comparable_form() {
        assertThat(v.has("Predictions", "intents.predictive")).isTrue();
        assertThat(v.has("does", "filler.stop")).isTrue();
        assertThat(v.has("loan", "filler.stop", "filler.function")).isFalse();
        assertThat(v.map("aggregates")).containsEntry("average", "avg").containsEntry("largest", "max");
        assertThat(v.has("monthly", "grains")).isTrue();
        assertThat(Phrases.stop()).contains("the", "of", "on", "no");
    }

    @Test
    void each_filler_list_is_the_base_plus_its_own_words() {
        assertThat(v.list("filler.base")).contains("the", "which", "show");
        for (String list : new String[] {"filler.stop", "filler.function", "filler.analysis", "filler.prediction"}) {
            assertThat(v.list(list)).as(list).containsAll(v.list("filler.base"));
        }
        assertThat(v.has("likely", "filler.prediction")).isTrue();
        assertThat(v.has("likely", "filler.stop", "filler.function", "filler.analysis")).isFalse();
        assertThat(v.has("profile", "filler.analysis")).isTrue();
        assertThat(v.has("profile", "filler.prediction")).isFalse();
    }

    @Test
    void an_unknown_list_names_the_lists_there_are() {
        assertThatThrownBy(() -> v.list("stopwords")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("vocabulary has no list 'stopwords' (lists: [filler.base, filler.stop,");
    }
}
