package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The prompt's reference sections are indexed once per process, by content, within a bound. */
class ReferenceIndexTest {
    private static final String SECTION = "## Dataset\ntable account (4500 rows): account_id INTEGER e.g. 1\n";

    @Test
    void the_same_text_is_indexed_once_whatever_string_holds_it() {
        Facts first = ReferenceIndex.of(SECTION);
        Facts again = ReferenceIndex.of(new String(SECTION.toCharArray()));
        assertThat(again).isSameAs(first);
        assertThat(first.supports(new Claim.Reading(4500, 0.5))).isTrue();
    }

    @Test
    void a_text_over_the_size_bound_is_indexed_each_time_and_not_kept() {
        String big = SECTION + "x".repeat(ReferenceIndex.MAX_CHARS);
        Facts one = ReferenceIndex.of(big);
        assertThat(ReferenceIndex.of(big)).isNotSameAs(one);
        assertThat(one.supports(new Claim.Reading(4500, 0.5))).isTrue();
    }

    @Test
    void the_least_recently_used_text_is_dropped_past_the_bound() {
        Facts kept = ReferenceIndex.of("kept 1234");
        Facts dropped = ReferenceIndex.of("dropped 5678");
        for (int i = 0; i < ReferenceIndex.ENTRIES - 1; i++) {
            assertThat(ReferenceIndex.of("kept 1234")).isSameAs(kept);
            ReferenceIndex.of("filler " + i);
        }
        assertThat(ReferenceIndex.of("kept 1234")).isSameAs(kept);
        assertThat(ReferenceIndex.of("dropped 5678")).isNotSameAs(dropped);
    }

    @Test
    void a_claim_found_only_in_the_reference_is_supported_through_the_kept_index() {
        Facts facts = Facts.builder().text("How many accounts are there?").later(List.of(SECTION)).build();
        assertThat(AnswerCheck.check("The bank has 4500 accounts.", facts).grounded()).isTrue();
        assertThat(AnswerCheck.check("The bank has 4600 accounts.", facts).unsupportedText()).isEqualTo("4600");
    }
}
