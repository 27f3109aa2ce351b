package dev.sift.ml;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How an explanation words a driver's value against the column's median. */
class ExplanationsTest {
    private static FeatureEncoder.ColumnPlan numeric(String column, double median) {
        return new FeatureEncoder.ColumnPlan(column, "DOUBLE", FeatureEncoder.Kind.NUMERIC, List.of(), median);
    }

    @Test
    void a_value_close_to_the_median_is_stated_as_it_is_neither_low_nor_high() {
        assertThat(Explanations.comparison(numeric("min_balance", 202.3), "200")).isEqualTo("200 (median 202.3)");
        assertThat(Explanations.comparison(numeric("amount", 3), "3")).isEqualTo("3 (median 3)");
    }

    @Test
    void a_value_far_from_the_median_is_high_or_low() {
        assertThat(Explanations.comparison(numeric("amount", 40100), "12,345")).isEqualTo("low (12,345 vs median 40,100)");
        assertThat(Explanations.comparison(numeric("amount", 40100), "90000")).isEqualTo("high (90000 vs median 40,100)");
        assertThat(Explanations.comparison(numeric("amount", 0.5), "0")).isEqualTo("low (0 vs median 0.5)");
    }

    private static final TrainedModel LOANS = new TrainedModel("m1", TaskType.CLASSIFICATION, "loan_default_history",
            "defaulted", "loan_id", "1", "0", null, null, new byte[0], List.of());

    private static Explanations.Driver driver(String column, String value, double shap, String comparison, int agree,
                                              String group) {
        return new Explanations.Driver(column, value, shap, comparison, agree, 5, group);
    }

    @Test
    void a_reason_the_fold_models_disagree_on_is_left_out_and_named() {
        List<Explanations.Driver> drivers = List.of(
                driver("n_trans_6m", "38", 1.68, "high (38 vs median 33)", 2, null),
                driver("balance_before", "14,340", 1.07, "low (14,340 vs median 22,031)", 5, null),
                driver("amount", "96,000", 0.40, "high (96,000 vs median 80,000)", 4, null),
                driver("duration", "24", -0.30, "24 (median 24)", 5, null));
        String s = Explanations.sentence(LOANS, 5585L, 0.31, 2.85, drivers);
        assertThat(s).isEqualTo("loan 5585: elevated risk of defaulted = 1 (probability 0.31) mainly because"
                + " balance_before is low (14,340 vs median 22,031), which raises the risk by 1.07 log-odds and amount is"
                + " high (96,000 vs median 80,000), which raises the risk by 0.40 log-odds; left out as unstable (fold"
                + " models that agree): n_trans_6m 2/5.");
        List<Explanations.Driver> none = List.of(driver("n_trans_6m", "38", 1.68, "high (38 vs median 33)", 3, null));
        assertThat(Explanations.sentence(LOANS, 5585L, 0.31, 1.68, none)).endsWith("(probability 0.31); no reason holds"
                + " across the fold models; left out as unstable (fold models that agree): n_trans_6m 3/5.");
        // four of five fold models agreeing is a majority that holds
        assertThat(driver("x", "1", 1, "", 4, null).stable()).isTrue();
        assertThat(driver("x", "1", 1, "", 3, null).stable()).isFalse();
        assertThat(new Explanations.Driver("x", "1", 1, "", 0, 0, null).stable()).as("no fold models to ask").isTrue();
    }

    @Test
    void fold_models_agree_when_their_contribution_has_the_same_sign() {
        List<double[][]> folds = List.of(new double[][] {{0.5, -0.1}}, new double[][] {{0.2, 0.3}},
                new double[][] {{-0.1, 0.2}});
        assertThat(Explanations.agreeing(folds, 0, 0, 0.9)).isEqualTo(2);
        assertThat(Explanations.agreeing(folds, 0, 1, 0.4)).isEqualTo(2);
        assertThat(Explanations.agreeing(folds, 0, 1, -0.4)).isEqualTo(1);
    }

    @Test
    void a_column_constant_within_a_group_is_stated_as_a_fact_of_the_group() {
        // three districts joined onto eight loans: salary and unemployment split the loans the same way
        String[][] shown = {
                {"9,189", "6.46", "96,000"}, {"9,189", "6.46", "12,000"}, {"9,189", "6.46", "40,500"},
                {"12,541", "0.43", "80,000"}, {"12,541", "0.43", "30,000"}, {"12,541", "0.43", "55,000"},
                {"8,110", "3.1", "20,000"}, {"8,110", "3.1", "64,000"}};
        MlData data = new MlData(8, 3, new float[24], Entities.of(new java.util.ArrayList<>(java.util.Collections
                .nCopies(8, (Object) null))), new String[8], new long[8], shown);
        String sql = "SELECT loan.loan_id, district.A11 AS avg_salary, TRY_CAST(district.A13 AS DOUBLE) AS"
                + " unemployment_1996, loan.amount FROM loan JOIN district ON …";
        GroupFacts g = GroupFacts.of(data, List.of("avg_salary", "unemployment_1996", "amount"), sql);
        assertThat(g.isGroupFact(0)).isTrue();
        assertThat(g.isGroupFact(1)).isTrue();
        assertThat(g.isGroupFact(2)).as("the loan's own amount").isFalse();
        assertThat(g.group(1)).isEqualTo("district");
        String fact = Explanations.groupFact(g, LOANS, 1, numeric("unemployment_1996", 3.1), shown[0]);
        assertThat(fact).isEqualTo("the district's unemployment_1996 (6.46, the same for all 3 loans of that district)");
        String s = Explanations.sentence(LOANS, 5560L, 0.22, 1.0, List.of(
                driver("unemployment_1996", "6.46", 1.13, "high (6.46 vs median 3.1)", 5, fact)));
        assertThat(s).endsWith("mainly because the district's unemployment_1996 (6.46, the same for all 3 loans of"
                + " that district), which raises the risk by 1.13 log-odds.");
        // twenty districts of four loans, where two districts share a salary and two others an unemployment rate by
        // chance: neither column is a function of the other, yet each determines the other on 95% of the rows
        String[][] many = new String[80][];
        for (int i = 0; i < 80; i++) {
            int d = i % 20;
            many[i] = new String[] {String.valueOf(8000 + (d == 19 ? 0 : d) * 100), String.valueOf(d == 18 ? 1 : d),
                    String.valueOf(1000 + i * 37)};
        }
        GroupFacts g2 = GroupFacts.of(new MlData(80, 3, new float[240], Entities.of(new java.util.ArrayList<>(
                java.util.Collections.nCopies(80, (Object) null))), new String[80], new long[80], many),
                List.of("avg_salary", "unemployment_1996", "amount"), sql);
        assertThat(g2.isGroupFact(0)).isTrue();
        assertThat(g2.isGroupFact(1)).isTrue();
        assertThat(g2.isGroupFact(2)).isFalse();
        assertThat(g2.members(1, many[5])).isEqualTo(4);
        // values missing on the same rows (loans without transactions) make no group of the known ones
        String[][] sparse = new String[40][];
        for (int i = 0; i < 40; i++) {
            sparse[i] = i % 3 == 0 ? new String[] {String.valueOf(100 + i), String.valueOf(900 - i), "1"}
                    : new String[] {null, null, String.valueOf(i % 2)};
        }
        GroupFacts g3 = GroupFacts.of(new MlData(40, 3, new float[120], Entities.of(new java.util.ArrayList<>(
                java.util.Collections.nCopies(40, (Object) null))), new String[40], new long[40], sparse),
                List.of("min_balance_3m", "balance_before", "flag"), null);
        assertThat(g3.isGroupFact(0)).isFalse();
        assertThat(g3.isGroupFact(1)).isFalse();
        // without the SQL the group has no name, and is still a group
        assertThat(Explanations.groupFact(GroupFacts.of(data, List.of("a", "b", "c"), null), LOANS, 0,
                numeric("a", 9000), shown[3])).isEqualTo("a (12,541, shared by all 3 loans of its group: a fact of the group)");
    }
}
