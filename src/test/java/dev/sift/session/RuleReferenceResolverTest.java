package dev.sift.session;

import dev.sift.data.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RuleReferenceResolverTest {
    private static final List<TableInfo> TABLES = List.of(
            new TableInfo("card", TableInfo.Kind.TABLE, 10, List.of()),
            new TableInfo("loan", TableInfo.Kind.TABLE, 10, List.of()),
            new TableInfo("account", TableInfo.Kind.TABLE, 10, List.of()));
    private final RuleReferenceResolver resolver = new RuleReferenceResolver();

    private static Turn turn(int i, String q, String subject) {
        return new Turn(i, q, q, TurnKind.NEW, List.of(), "rules", subject, "r" + i, "a", "answer", "rule_based",
                List.of(), null, "t", 1);
    }

    @Test
    void first_turn_is_new_even_with_a_reference_word() {
        Resolution r = resolver.resolve("How many of those are gold?", List.of(), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.NEW);
        assertThat(r.question()).isEqualTo("How many of those are gold?");
        assertThat(r.references()).isEmpty();
    }

    @Test
    void those_is_resolved_to_the_earlier_question() {
        Resolution r = resolver.resolve("How many of those are gold?",
                List.of(turn(1, "How many cards are there?", "card")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many cards are there that are gold?");
        assertThat(r.references()).containsExactly(
                "'how many of those' → the card rows of turn 1 (\"How many cards are there?\")");
        assertThat(r.resolvedBy()).isEqualTo("rules");
    }

    @Test
    void what_about_a_table_swaps_the_subject() {
        Resolution r = resolver.resolve("What about loans?", List.of(turn(1, "How many cards are there?", "card")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many loans are there?");
    }

    @Test
    void what_about_a_value_narrows_the_earlier_question() {
        Resolution r = resolver.resolve("and what about gold?", List.of(turn(1, "How many cards are there?", "card")), TABLES);
        assertThat(r.question()).isEqualTo("How many cards are there, gold?");
    }

    @Test
    void abandon_runs_what_follows_as_a_new_question() {
        Resolution r = resolver.resolve("Never mind — how many accounts are there?",
                List.of(turn(1, "How many cards are there?", "card")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.ABANDON);
        assertThat(r.question()).isEqualTo("how many accounts are there?");
    }

    @Test
    void unrelated_question_after_others_is_new() {
        Resolution r = resolver.resolve("How many accounts are there?",
                List.of(turn(1, "How many cards are there?", "card")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.NEW);
        assertThat(r.question()).isEqualTo("How many accounts are there?");
    }

    @Test
    void subject_is_the_first_table_named() {
        assertThat(RuleReferenceResolver.subjectOf("How many cards are gold?", TABLES)).isEqualTo("card");
        assertThat(RuleReferenceResolver.subjectOf("What tables are there?", TABLES)).isNull();
    }
}
