package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Answers of the kinds that were once sent back as unsupported though every claim was right, each with evidence
 * of the kind the run had; and the derived numbers that once passed unremarked.
 */
class FalseAlarmsTest {

    private static AnswerCheck.Result check(String answer, Facts facts) {
        return AnswerCheck.check(answer, facts);
    }

    private static void clean(AnswerCheck.Result r) {
        assertThat(r.unsupported()).extracting(Claim::text).isEmpty();
        assertThat(r.unsupportedValues()).extracting(Claim::text).isEmpty();
    }

    @Test
    void a_year_inside_a_feature_name_is_no_claim_and_names_the_feature() {
        Facts f = Facts.builder().text("Trained model m1 (xgboost, target defaulted): AUC 0.781 (baseline 0.5)."
                + " Top features by mean |SHAP|: unemployment_1996 0.412, amount 0.301, duration 0.117").build();
        clean(check("The strongest driver is the 1996 unemployment rate (unemployment_1996, mean |SHAP| 0.41),"
                + " then the amount (0.30); AUC 0.78.", f));
        assertThat(check("The strongest driver is the 1997 unemployment rate.", f).unsupportedText()).isEqualTo("1997");
    }

    @Test
    void a_district_name_in_a_decline_is_a_value_the_knowledge_graph_names() {
        Facts f = Facts.builder().text("How many loans will clients in Prague take next year?")
                .names(() -> "value alias \"Prague\" → district.A2 = 'Hl.m. Praha'\n").build();
        clean(AnswerCheck.check("I cannot forecast next year's loans for 'Hl.m. Praha': the data has no future"
                + " loans.", f, true));
    }

    @Test
    void the_questions_own_words_quoted_back_are_supported() {
        Facts f = Facts.builder().text("How many loans were granted from 1995 to 2000?")
                .table(List.of("n"), List.of(List.of(1204L)), 1).build();
        clean(check("'From 1995 to 2000' the bank granted 1,204 loans.", f));
        clean(check("From 1995 through 2000 the bank granted 1,204 loans.", f));
    }

    @Test
    void a_text_pattern_the_answer_describes_is_no_value_claim() {
        Facts f = Facts.builder().text("SELECT state, count(*) FROM business GROUP BY 1")
                .table(List.of("description"), List.of(List.of("Located at 12 Main St in Philadelphia, PA, 19107")), 1)
                .build();
        clean(check("Addresses end 'in City, PA'; I read the state after 'City, ST,' in each description.", f));
        clean(check("Dates are written 'Mon DD, YYYY' and keys look like 'CL-n'.", f));
    }

    @Test
    void a_users_words_quoted_back_from_an_earlier_turn_are_supported() {
        Facts f = Facts.builder().text("Which clients have a gold card?")
                .text("Earlier in this conversation:\n- Q: how many of them are women → 2,645 (SELECT count(*) …)\n")
                .build();
        clean(check("Of the women counted before ('how many of them are women': 2,645), see below.", f));
    }

    @Test
    void a_row_count_the_prompts_dataset_section_shows_is_supported() {
        Facts f = Facts.builder().text("## Dataset\norders (4000 rows): order_id INTEGER, channel VARCHAR"
                + " [variants 'Web'/'web']").build();
        clean(check("All 4000 orders have a channel; 'Web' and 'web' are counted as one.", f));
    }

    @Test
    void numbers_a_clarifying_question_proposes_are_not_claims_but_its_statements_are() {
        Facts f = Facts.builder().text("Which customers churned?").build();
        String ask = "Which churn window should I use?\n- 12 months without a transaction\n- calendar 2023\n- 2024";
        assertThat(AnswerCheck.check(ask, f, true).claims()).isEmpty();
        assertThat(AnswerCheck.check("Should churn mean no order in 2024, or 12 months without one?", f, true).claims())
                .isEmpty();
        assertThat(AnswerCheck.check("The data has 48,211 customers. Should churn mean no order in 2024?", f, true)
                .unsupportedText()).isEqualTo("48,211");
        assertThat(AnswerCheck.check("I cannot answer that reliably; it is 9,999 loans.", f, true).unsupportedText())
                .isEqualTo("9,999");
    }

    @Test
    void a_sum_of_two_results_is_derived_and_listed_with_its_formula() {
        Facts f = Facts.builder().table(List.of("n"), List.of(List.of(218L)), 1)
                .table(List.of("n"), List.of(List.of(1804L)), 1).build();
        AnswerCheck.Result r = check("218 gold and 1,804 classic cards: 2,022 in all.", f);
        assertThat(r.grounded()).isTrue();
        assertThat(r.derived()).containsExactly(new AnswerCheck.Derived("2,022", "218 + 1804"));
    }

    @Test
    void shares_changes_and_two_step_shares_are_derived() {
        Facts f = Facts.builder().table(List.of("status", "loans"),
                List.of(List.of("A", 203L), List.of("B", 31L), List.of("C", 403L), List.of("D", 45L)), 4).build();
        AnswerCheck.Result r = check("Statuses B (31) and D (45) are bad loans, 76 of 682: 11.1% of all loans; C has"
                + " 403, 98.5% more than A's 203.", f);
        assertThat(r.unsupported()).isEmpty();
        assertThat(r.derived()).extracting(AnswerCheck.Derived::formula)
                .containsExactly("31 + 45", "76 / 682", "(403 - 203) / 203");
    }

    @Test
    void a_rounding_to_trailing_zeros_is_derived_but_a_different_number_is_not() {
        Facts f = Facts.builder().table(List.of("avg_amount"), List.of(List.of(151410.2374)), 1).build();
        assertThat(check("The average loan is 151,000.", f).derived())
                .containsExactly(new AnswerCheck.Derived("151,000", "151410.24 rounded to 1000s"));
        assertThat(check("The average loan is 153,000.", f).unsupportedText()).isEqualTo("153,000");
        assertThat(check("The average loan is 151,470.2.", f).unsupportedText()).isEqualTo("151,470.2");
    }

    @Test
    void a_quoted_value_found_nowhere_is_reported_apart_and_its_numbers_are_still_checked() {
        Facts f = Facts.builder().table(List.of("district", "n"), List.of(List.of("Brno - mesto", 27L)), 1).build();
        AnswerCheck.Result r = check("'Brno - venkov' has 27 loans.", f);
        assertThat(r.grounded()).isTrue();
        assertThat(r.unsupportedValues()).extracting(Claim::text).containsExactly("'Brno - venkov'");
        assertThat(check("The busiest was 'district 4,812'.", f).unsupportedText()).isEqualTo("4,812");
    }

    @Test
    void a_year_of_a_date_the_question_spells_out_supports_the_answer() {
        Facts f = Facts.builder().text("Which business received the highest average rating between January 1, 2016 and"
                + " June 30, 2016?").table(List.of("name", "avg_rating"), List.of(List.of("Pit Stop HQ", 5L)), 1).build();
        clean(check("Among businesses reviewed in 2016, 'Pit Stop HQ' rates highest.", f));
    }

    @Test
    void a_grouped_thousand_that_also_reads_as_a_decimal_is_an_operand_either_way() {
        Facts f = Facts.builder().text("Sample values: rating e.g. 2.0 | useful e.g. 2")
                .table(List.of("reviews", "tips"), List.of(List.of(2000L, 784L)), 1).build();
        AnswerCheck.Result r = check("There are 2,000 reviews and 784 tips, 2,784 pieces of content in all; reviews"
                + " outnumber tips about 2.6 to 1.", f);
        clean(r);
        assertThat(r.derived()).extracting(AnswerCheck.Derived::formula).containsExactly("784 + 2000", "2000 / 784");
    }

    @Test
    void numbers_inside_a_quoted_sql_case_expression_are_no_claims() {
        Facts f = Facts.builder().text("What is the loan default rate?").build();
        clean(AnswerCheck.check("(I read: 'default rate' → metric default_rate = avg(CASE WHEN loan.status IN ('B',"
                + " 'D') THEN 1.0 ELSE 0.0 END).) Which statuses count as a default?", f, true));
    }
}
