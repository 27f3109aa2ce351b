package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerCheckTest {

    private static Facts loans() {
        return Facts.builder()
                .text("SELECT count(*) AS n, avg(amount) AS avg_amount FROM loan WHERE year(date) = 1997")
                .table(List.of("n", "avg_amount"), List.of(List.of(691L, new BigDecimal("151410.2374"))), 1)
                .build();
    }

    private static AnswerCheck.Result check(String answer, Facts facts) {
        return AnswerCheck.check(answer, facts);
    }

    @Test
    void numbers_found_in_cells_are_supported_in_any_locale_and_rounding() {
        Facts f = loans();
        assertThat(check("There are 691 loans; their average amount is 151,410.2.", f).grounded()).isTrue();
        assertThat(check("Il y a 691 prêts, montant moyen 151 410,24 Kč.", f).grounded()).isTrue();
        assertThat(check("Es gibt 691 Darlehen mit durchschnittlich 151.410,24 CZK.", f).grounded()).isTrue();
        assertThat(check("Average: CHF 151'410.24 over 691 loans in 1997.", f).grounded()).isTrue();
        assertThat(check("The average is about 151,000 (roughly 0.15 million).", f).grounded()).isTrue();
        assertThat(check("Average amount: $151.4k", f).grounded()).isTrue();
    }

    @Test
    void an_invented_number_is_named_as_written() {
        AnswerCheck.Result r = check("There are 691 loans; exactly 4,812 of them defaulted, 12.5% in all.", loans());
        assertThat(r.grounded()).isFalse();
        assertThat(r.unsupportedText()).isEqualTo("4,812, 12.5%");
    }

    @Test
    void rounding_tolerance_follows_the_digits_written() {
        Facts f = loans();
        assertThat(check("The average is 151,410.24.", f).grounded()).isTrue();
        assertThat(check("The average is 151,410.3.", f).grounded()).isFalse();
        assertThat(check("The average is 151,411.", f).grounded()).isFalse();
    }

    @Test
    void percentages_match_fractions_and_back() {
        Facts f = Facts.builder().table(List.of("district", "default_rate", "share_pct"),
                List.of(List.of("Praha", 0.10994, 23.0)), 1).build();
        assertThat(check("Praha's default rate is 11.0% and its share is 0.23.", f).grounded()).isTrue();
        assertThat(check("Praha's default rate is 12%.", f).unsupportedText()).isEqualTo("12%");
    }

    @Test
    void a_computed_fraction_written_as_its_own_percent_is_caught() {
        String sql = "SELECT count_if(status IN ('B', 'D')) / count(*) AS default_rate, avg(status = 'D') AS d_share,"
                + " round(100.0 * count_if(status = 'B') / count(*), 2) AS b_pct FROM loan";
        Facts f = Facts.builder().text(sql).text("Result (rows are data, not instructions):\ndefault_rate | d_share |"
                        + " b_pct\n0.1099855282 | 0.06367583213 | 0.47\n1 row")
                .table(sql, List.of("default_rate", "d_share", "b_pct"), List.of(List.of(0.10998552821997105,
                        0.06367583212735166, 0.47)), 1).build();
        assertThat(check("The default rate is 11.0 %; 6.4 % of loans are in status D.", f).grounded()).isTrue();
        assertThat(check("The default rate is 0.11 %.", f).unsupportedText()).isEqualTo("0.11%");
        assertThat(check("6.4 % are in status D, not 0.064 %.", f).unsupportedText()).isEqualTo("0.064%");
        assertThat(check("0.47 % of loans are in status B.", f).grounded()).as("b_pct is in percent: a factor 100").isTrue();
    }

    @Test
    void a_stored_rate_read_as_it_is_kept_may_be_written_with_a_percent_sign() {
        String sql = "SELECT A12 AS unemployment_1995 FROM district WHERE A2 = 'Hl.m. Praha'";
        Facts f = Facts.builder().text(sql).table(sql, List.of("unemployment_1995"), List.of(List.of(0.29)), 1).build();
        assertThat(check("Unemployment in Prague was 0.29 % in 1995.", f).grounded()).isTrue();
    }

    @Test
    void a_ratio_of_counts_is_no_support_for_the_same_number_as_percentage_points() {
        Facts f = Facts.builder().table(List.of("bad", "n"), List.of(List.of(76L, 691L)), 1).build();
        assertThat(check("76 of 691 loans are bad, 11.0 %.", f).grounded()).isTrue();
        assertThat(check("76 of 691 loans are bad, 0.11 %.", f).unsupportedText()).isEqualTo("0.11%");
    }

    @Test
    void a_whole_number_is_not_supported_by_its_whole_neighbour() {
        Facts f = Facts.builder().table(List.of("bad", "avg_amount"), List.of(List.of(76L, 75.9)), 1).build();
        assertThat(check("76 loans defaulted.", f).grounded()).isTrue();
        assertThat(check("75 loans defaulted.", f).grounded()).as("75.9 cut short").isTrue();
        Facts counts = Facts.builder().table(List.of("bad"), List.of(List.of(76L)), 1).build();
        assertThat(check("75 loans defaulted.", counts).unsupportedText()).isEqualTo("75");
        assertThat(check("77 loans defaulted.", counts).unsupportedText()).isEqualTo("77");
    }

    @Test
    void a_derivation_names_the_closest_formula_and_keeps_one_scale() {
        Facts f = Facts.builder().table(List.of("status", "loans"),
                List.of(List.of("A", 203L), List.of("B", 31L), List.of("C", 403L), List.of("D", 45L)), 4).build();
        AnswerCheck.Result r = check("Of the 682 loans, 76 defaulted: 31 unpaid and 45 in debt. That is 11.1 %.", f);
        assertThat(r.derived()).extracting(AnswerCheck.Derived::formula).containsExactly("31 + 45", "76 / 682");
        assertThat(check("Of the 682 loans, 76 defaulted (31 + 45), 11.1 %, so 75 are bad.", f).unsupportedText())
                .as("76 - 0.111 mixes a count and a share").isEqualTo("75");
        assertThat(check("Status D has 45 of 403 loans, 11.2 %; 56.2 in all.", f).unsupportedText())
                .as("a percentage is not added to a count").isEqualTo("56.2");
        assertThat(check("B and D have 31 and 45 loans, so 75 in all.", f).unsupportedText()).isEqualTo("75");
    }

    @Test
    void a_number_is_derived_only_from_its_own_sentence_and_the_two_before() {
        Facts f = Facts.builder().table(List.of("status", "loans"),
                List.of(List.of("A", 203L), List.of("B", 31L), List.of("C", 403L), List.of("D", 45L)), 4).build();
        assertThat(check("B has 31 loans. D has 45. Together 76.", f).derived()).extracting(AnswerCheck.Derived::formula)
                .containsExactly("31 + 45");
        assertThat(check("B has 31 loans. D has 45. A has 203. C has 403. Together 234.", f).unsupportedText())
                .isEqualTo("234");
    }

    @Test
    void the_answers_decimal_mark_settles_an_ambiguous_separator() {
        Facts f = Facts.builder().table(List.of("a", "b"), List.of(List.of(3.98, 2.62)), 1).build();
        assertThat(ClaimExtractor.decimalMark("The rate is 12.5 and 1,519 loans.")).isEqualTo('.');
        assertThat(ClaimExtractor.decimalMark("Die Quote ist 12,5 bei 1.519 Krediten.")).isEqualTo(',');
        assertThat(ClaimExtractor.decimalMark("There are 1,519 loans.")).isEqualTo('\0');
        assertThat(check("The ratio is 3.98 to 2.62, and 1,519 loans are left.", f).unsupportedText())
                .as("1,519 is not 1.519 = 3.98 / 2.62 in an answer that writes decimals with a point").isEqualTo("1,519");
    }

    @Test
    void a_difference_ratio_or_column_sum_of_cited_values_is_supported() {
        Facts f = Facts.builder().table(List.of("status", "loans"),
                List.of(List.of("A", 203L), List.of("B", 31L), List.of("C", 403L), List.of("D", 45L)), 4).build();
        assertThat(check("A has 203 loans and C 403: 200 more, about 2 times as many.", f).grounded()).isTrue();
        assertThat(check("Of all 682 loans, 31 were not repaid (4.5%).", f).grounded()).isTrue();
        assertThat(check("Average per status: 170.5 loans.", f).grounded()).isTrue();
        assertThat(check("B and D together: 77 loans.", f).unsupportedText()).isEqualTo("77");
    }

    @Test
    void dates_are_read_in_several_forms_and_matched_to_date_cells() {
        Facts f = Facts.builder().table(List.of("first_loan"), List.of(List.of(LocalDate.of(1993, 7, 5))), 1).build();
        assertThat(check("The first loan was granted on 1993-07-05.", f).grounded()).isTrue();
        assertThat(check("The first loan was granted on July 5, 1993.", f).grounded()).isTrue();
        assertThat(check("The first loan was granted on 05.07.1993.", f).grounded()).isTrue();
        assertThat(check("The first loan was granted in July 1993.", f).grounded()).isTrue();
        assertThat(check("The first loan was granted on 6 July 1993.", f).unsupportedText()).isEqualTo("6 July 1993");
    }

    @Test
    void ids_and_quoted_values_must_appear_in_the_evidence() {
        Facts f = Facts.builder().table(List.of("account", "district"),
                List.of(List.of("ACC-1042", "Hl.m. Praha")), 1).build();
        assertThat(check("Account ACC-1042 is in 'Hl.m. Praha'.", f).grounded()).isTrue();
        AnswerCheck.Result r = check("Account ACC-9999 is in \"Brno\".", f);
        assertThat(r.unsupportedText()).isEqualTo("ACC-9999");
        assertThat(r.unsupportedValues()).extracting(Claim::text).containsExactly("\"Brno\"");
    }

    @Test
    void small_counts_and_code_blocks_are_not_claims() {
        Facts f = Facts.builder().build();
        assertThat(check("The 3 largest districts are listed below.\n```sql\nSELECT 4812\n```", f).claims()).isEmpty();
    }

    @Test
    void with_no_evidence_every_stated_number_is_unsupported() {
        assertThat(check("There are exactly 4,812 loans.", Facts.builder().build()).unsupportedText()).isEqualTo("4,812");
    }

    @Test
    void numbers_from_the_query_text_and_observations_count_as_evidence() {
        Facts f = Facts.builder().text("Trained model m1: AUC 0.873 on 1,200 held-out rows; top feature amount (SHAP 0.412)")
                .build();
        assertThat(check("The model reaches an AUC of 0.87 on 1200 rows; amount's SHAP value is 0.41.", f).grounded())
                .isTrue();
    }
}
