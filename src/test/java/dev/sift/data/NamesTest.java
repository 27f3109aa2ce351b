package dev.sift.data;

import dev.sift.data.source.PkddSchema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NamesTest {
    private static final List<String> LOAN = List.of("loan_id", "account_id", "date", "amount", "duration", "payments",
            "status");
    private static final List<String> DISTRICT = List.of("A1", "A2", "A3", "A4", "A5", "A10", "A11", "A16");

    @Test
    void suggests_the_closest_name_for_a_typo() {
        assertThat(Names.closest("loans", PkddSchema.TABLES)).contains("loan");
        assertThat(Names.closest("amout", LOAN)).contains("amount");
        assertThat(Names.closest("duraton", LOAN)).contains("duration");
        assertThat(Names.closest("ordr", PkddSchema.TABLES)).contains("order");
        assertThat(Names.closest("transactions", PkddSchema.TABLES)).contains("trans");
    }

    @Test
    void ignores_case_and_returns_the_candidate_as_spelled() {
        assertThat(Names.closest("LOAN", PkddSchema.TABLES)).contains("loan");
        assertThat(Names.closest("Account_ID", LOAN)).contains("account_id");
        assertThat(Names.closest("a10", DISTRICT)).contains("A10");
        assertThat(Names.closest("a12", DISTRICT)).contains("A1"); // A1, A2, A10, A11, A16 all 1 away: first listed
    }

    @Test
    void one_name_inside_the_other_counts() {
        assertThat(Names.closest("loan_status", LOAN)).contains("status");
        assertThat(Names.closest("loan_amount", LOAN)).contains("amount");
        assertThat(Names.closest("acc", List.of("account_id", "amount"))).contains("account_id");
    }

    @Test
    void does_not_suggest_unrelated_names() {
        assertThat(Names.closest("credit", PkddSchema.TABLES)).isEmpty();
        assertThat(Names.closest("customer_age", LOAN)).isEmpty();
        assertThat(Names.closest("xyz", LOAN)).isEmpty();
        assertThat(Names.closest("anything", List.of())).isEmpty();
        // a rewrite of every character is no suggestion, however short the names
        assertThat(Names.closest("id", DISTRICT)).isEmpty();
        assertThat(Names.closest("x", List.of("y"))).isEmpty();
        assertThat(Names.closest("", LOAN)).isEmpty();
        assertThat(Names.closest("", List.of("A1"))).isEmpty();
        // very short names do not count as "inside" another
        assertThat(Names.closest("da", List.of("payments_data"))).isEmpty();
    }

    @Test
    void prefers_the_smallest_distance_and_is_deterministic() {
        assertThat(Names.closest("stat", List.of("state", "status"))).contains("state");
        assertThat(Names.closest("ab", List.of("ax", "ay"))).contains("ax");
        assertThat(Names.closest("ab", List.of("ay", "ax"))).contains("ay");
    }

    @Test
    void did_you_mean_text() {
        assertThat(Names.didYouMean("loans", PkddSchema.TABLES)).isEqualTo(" Did you mean 'loan'?");
        assertThat(Names.didYouMean("limitt", List.of("source", "columns", "limit", "ratio")))
                .isEqualTo(" Did you mean 'limit'?");
        assertThat(Names.didYouMean("credit", PkddSchema.TABLES)).isEmpty();
    }

    @Test
    void distance_is_the_edit_distance() {
        assertThat(Names.distance("", "")).isZero();
        assertThat(Names.distance("", "abc")).isEqualTo(3);
        assertThat(Names.distance("abc", "")).isEqualTo(3);
        assertThat(Names.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Names.distance("flaw", "lawn")).isEqualTo(2);
        assertThat(Names.distance("amout", "amount")).isEqualTo(1);
        assertThat(Names.distance("abc", "abc")).isZero();
        assertThat(Names.distance("ab", "ba")).isEqualTo(2);
    }
}
