package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A prompt's reference texts are indexed once for the checks of its run, by the index its owner passes them. */
class ReferenceIndexTest {
    private static final String SECTION = "## Dataset\ntable account (4500 rows): account_id INTEGER e.g. 1\n";

    @Test
    void the_texts_are_indexed_once_for_every_check_that_reads_them() {
        ReferenceIndex index = new ReferenceIndex(List.of(SECTION));
        List<Facts> first = index.facts();
        assertThat(index.facts()).isSameAs(first);
        assertThat(first.get(0).supports(new Claim.Reading(4500, 0.5))).isTrue();
    }

    @Test
    void a_check_after_prepare_reads_the_index_the_background_scan_made() {
        ReferenceIndex index = new ReferenceIndex(List.of(SECTION)).prepare();
        Facts facts = Facts.builder().text("How many accounts are there?").later(index).build();
        assertThat(AnswerCheck.check("The bank has 4500 accounts.", facts).grounded()).isTrue();
        assertThat(index.facts()).hasSize(1);
    }

    @Test
    void two_owners_of_the_same_text_keep_indexes_of_their_own() {
        assertThat(new ReferenceIndex(List.of(SECTION)).facts().get(0))
                .isNotSameAs(new ReferenceIndex(List.of(SECTION)).facts().get(0));
        assertThat(ReferenceIndex.NONE.facts()).isEmpty();
    }

    @Test
    void a_claim_found_only_in_the_reference_is_supported_through_the_index() {
        Facts facts = Facts.builder().text("How many accounts are there?").later(new ReferenceIndex(List.of(SECTION)))
                .build();
        assertThat(AnswerCheck.check("The bank has 4500 accounts.", facts).grounded()).isTrue();
        assertThat(AnswerCheck.check("The bank has 4600 accounts.", facts).unsupportedText()).isEqualTo("4600");
    }
}
