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
        assertThat(v.has("does", "stop")).isTrue();
        assertThat(v.has("loan", "stop", "function")).isFalse();
        assertThat(v.map("aggregates")).containsEntry("average", "avg").containsEntry("largest", "max");
        assertThat(v.has("monthly", "grains")).isTrue();
        assertThat(Phrases.stop()).contains("the", "of", "on", "no");
    }

    @Test
    void an_unknown_list_names_the_lists_there_are() {
        assertThatThrownBy(() -> v.list("stopwords")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("vocabulary has no list 'stopwords' (lists: [stop, function,");
    }
}
