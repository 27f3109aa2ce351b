package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResultLabelsTest {
    private static KnowledgeGraph kg;

    @BeforeAll
    static void bank() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            kg = Knowledge.load(ws).graph();
        }
    }

    @Test
    void a_selected_column_is_named_by_its_concept_not_its_code() {
        String sql = "SELECT district.A3 AS A3, avg(loan.amount) AS average_loan_amount FROM loan JOIN account ON"
                + " loan.account_id = account.account_id JOIN district ON account.district_id = district.A1 GROUP BY 1";
        assertThat(new ResultLabels(kg).of(sql, "A3")).isEqualTo("Region");
    }

    @Test
    void a_metric_is_named_in_words_with_its_unit() {
        assertThat(new ResultLabels(kg).of("SELECT avg(loan.amount) AS average_loan_amount FROM loan", "average_loan_amount"))
                .isEqualTo("Average loan amount (CZK)");
        assertThat(new ResultLabels(kg).of("SELECT avg(CASE WHEN loan.status IN ('B', 'D') THEN 1.0 ELSE 0.0 END) AS"
                + " default_rate FROM loan", "default_rate")).isEqualTo("Default rate");
    }

    @Test
    void a_date_part_is_named_by_its_period() {
        assertThat(new ResultLabels(kg).of("SELECT year(loan.date) AS year, count(*) AS n FROM loan GROUP BY 1", "year"))
                .isEqualTo("Year");
        assertThat(new ResultLabels(kg).of("SELECT year(loan.date) AS year, count(*) AS n FROM loan GROUP BY 1", "n"))
                .isEqualTo("Count");
    }

    @Test
    void an_unknown_column_is_its_name_in_words() {
        assertThat(new ResultLabels(kg).of("SELECT 1 AS loans_per_client", "loans_per_client")).isEqualTo("Loans per client");
    }

    @Test
    void tables_name_their_rows_by_their_plural_synonym() {
        assertThat(kg.table("trans").orElseThrow().plural()).isEqualTo("transactions");
        assertThat(kg.table("trans").orElseThrow().singular()).isEqualTo("transaction");
        assertThat(kg.table("loan").orElseThrow().plural()).isEqualTo("loans");
        assertThat(kg.table("order").orElseThrow().singular()).isEqualTo("order");
    }

    @Test
    void a_measure_is_named_with_its_aggregate_label_and_unit() {
        assertThat(ResultLabels.measure(kg, "loan", "amount", "sum")).isEqualTo("total loan amount (CZK)");
        assertThat(ResultLabels.measure(kg, "district", "A11", "avg")).isEqualTo("average salary (CZK per month)");
        assertThat(ResultLabels.measure(kg, "loan", null, "count")).isEqualTo("number of loans");
        assertThat(ResultLabels.measure(kg, "trans", "balance", "max")).startsWith("highest ");
    }

    @Test
    void a_frame_column_named_like_the_column_of_one_table_takes_its_label() {
        assertThat(new ResultLabels(kg).of(null, "A3")).isEqualTo("Region");
        assertThat(new ResultLabels(kg).of(null, "amount")).isEqualTo("Amount"); // in loan, trans and order: no guess
    }
}
