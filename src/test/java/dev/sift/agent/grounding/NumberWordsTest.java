package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Numbers written in words are claims like numbers in digits; vague amounts and words that make no number are not. */
class NumberWordsTest {

    @Test
    void cardinal_phrases_read_as_their_value() {
        assertThat(NumberWords.value("four thousand eight hundred and twelve")).isEqualTo(4812);
        assertThat(NumberWords.value("twenty-five")).isEqualTo(25);
        assertThat(NumberWords.value("two million three hundred thousand")).isEqualTo(2_300_000);
        assertThat(NumberWords.value("twelve hundred")).isEqualTo(1200);
        assertThat(NumberWords.value("one hundred five")).isEqualTo(105);
        assertThat(NumberWords.value("Eleven")).isEqualTo(11);
    }

    @Test
    void words_that_make_no_single_number_read_as_none() {
        assertThat(NumberWords.value("five four")).isEqualTo(-1);
        assertThat(NumberWords.value("twenty thirty")).isEqualTo(-1);
        assertThat(NumberWords.value("twelve five")).isEqualTo(-1);
        assertThat(NumberWords.value("thousand million")).isEqualTo(-1);
        assertThat(NumberWords.value("two thousand three thousand")).isEqualTo(-1);
    }

    @Test
    void a_spelled_out_number_is_a_claim_the_evidence_must_support() {
        Facts f = Facts.builder().table(List.of("n"), List.of(List.of(691L)), 1).build();
        assertThat(AnswerCheck.check("There are six hundred and ninety-one loans.", f).grounded()).isTrue();
        assertThat(AnswerCheck.check("There are four thousand eight hundred and twelve loans.", f).unsupportedText())
                .isEqualTo("four thousand eight hundred and twelve");
        assertThat(AnswerCheck.check("Twenty percent of them defaulted.", f).unsupportedText()).isEqualTo("Twenty%");
    }

    @Test
    void vague_amounts_small_counts_and_words_inside_words_are_no_claims() {
        Facts f = Facts.builder().build();
        assertThat(AnswerCheck.check("Thousands of transactions, hundreds of clients and a hundred times more;"
                + " the three largest of ten; a twentyfold rise; the nineties; seventeenth place.", f).claims()).isEmpty();
    }

    @Test
    void a_number_the_question_spells_out_supports_the_answer_repeating_it() {
        Facts f = Facts.builder().text("Which are the twenty largest districts?").build();
        assertThat(AnswerCheck.check("These are the twenty largest districts.", f).grounded()).isTrue();
    }

    @Test
    void a_hedged_round_number_in_words_matches_within_its_rounding() {
        Facts f = Facts.builder().table(List.of("n"), List.of(List.of(4_012L)), 1).build();
        assertThat(AnswerCheck.check("There are about four thousand loans.", f).grounded()).isTrue();
        assertThat(AnswerCheck.check("There are four thousand loans.", f).grounded()).isFalse();
    }
}
