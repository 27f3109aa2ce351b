package dev.sift.session;

import dev.sift.data.TableInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClarificationReplyTest {
    private static final List<TableInfo> TABLES = List.of(
            new TableInfo("loan", TableInfo.Kind.TABLE, 10, List.of()),
            new TableInfo("district", TableInfo.Kind.TABLE, 10, List.of()));

    private static Turn asked(int i, String q, String answerKind) {
        return new Turn(i, q, q, TurnKind.NEW, List.of(), "rules", null, "r" + i, "'amount' could be loan.amount, …",
                answerKind, "llm_disabled", List.of(), null, "t", 1);
    }

    private static String merged(String clarified, String reply) {
        return ClarificationReply.merge(reply, List.of(asked(1, clarified, "clarification")), TABLES).orElseThrow()
                .question();
    }

    @Test
    void a_table_named_in_the_reply_completes_the_question_with_of() {
        assertThat(merged("What is the total amount?", "loans")).isEqualTo("What is the total amount of loans?");
    }

    @Test
    void a_reply_that_repeats_a_word_of_the_question_replaces_it() {
        assertThat(merged("What is the total amount?", "the loan amount")).isEqualTo("What is the total loan amount?");
        assertThat(merged("What is the total amount?", "I mean loan.amount, please")).isEqualTo("What is the total loan amount?");
    }

    @Test
    void a_reply_that_opens_with_a_phrase_word_is_added_as_said() {
        assertThat(merged("Which district is the biggest?", "by population"))
                .isEqualTo("Which district is the biggest by population?");
    }

    @Test
    void any_other_reply_is_set_beside_the_question() {
        assertThat(merged("Which district is the biggest?", "population"))
                .isEqualTo("Which district is the biggest — population?");
    }

    @Test
    void the_merged_turn_is_a_reply_that_names_the_turn_it_answers() {
        Resolution r = ClarificationReply.merge("loans", List.of(asked(1, "What is the total amount?", "clarification")),
                TABLES).orElseThrow();
        assertThat(r.kind()).isEqualTo(TurnKind.REPLY);
        assertThat(r.references()).containsExactly("'loans' answers the question back of turn 1 (\"What is the total"
                + " amount?\")");
        assertThat(r.resolvedBy()).isEqualTo("rules");
    }

    @Test
    void a_question_of_its_own_after_a_clarification_is_not_a_reply() {
        List<Turn> thread = List.of(asked(1, "What is the total amount?", "clarification"));
        assertThat(ClarificationReply.merge("How many loans are there?", thread, TABLES)).isEmpty();
        assertThat(ClarificationReply.merge("never mind, loans", thread, TABLES)).isEmpty();
        assertThat(ClarificationReply.merge("and what is their largest amount?", thread, TABLES)).isEmpty();
        assertThat(ClarificationReply.merge("and their average?", thread, TABLES)).isEmpty();
        assertThat(ClarificationReply.merge("the amount of money lent to the clients of the bank in 1997", thread,
                TABLES)).isEmpty();
    }

    @Test
    void only_a_clarification_is_completed_by_the_next_line() {
        assertThat(ClarificationReply.merge("loans", List.of(asked(1, "How many loans are there?", "answer")), TABLES))
                .isEmpty();
        assertThat(ClarificationReply.merge("loans", List.of(asked(1, "Show me a chart", "declined")), TABLES)).isEmpty();
        assertThat(ClarificationReply.merge("loans", List.of(), TABLES)).isEmpty();
        Turn setAside = new Turn(1, "never mind", "", TurnKind.ABANDON, List.of(), "rules", null, "r1", "Set aside.",
                "clarification", "llm_disabled", List.of(), null, "t", 1);
        assertThat(ClarificationReply.merge("loans", List.of(setAside), TABLES)).isEmpty();
    }
}
