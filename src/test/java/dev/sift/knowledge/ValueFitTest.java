package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Values a question names are shown only where its other words agree: a year is a date first, a named column wins. */
class ValueFitTest {
    private static Workspace ws;
    private static Knowledge k;

    @BeforeAll
    static void open() throws Exception {
        StringBuilder reviews = new StringBuilder("review_id,user_id,rating,date\n");
        for (int i = 1; i <= 40; i++) {
            reviews.append(i).append(',').append(i % 6 + 1).append(',').append(i % 5 + 1).append(',')
                    .append(i % 2 == 0 ? "\"April 0" + (i % 9 + 1) + ", 2018 at 12:15 PM\"" : "2017-03-0" + (i % 9 + 1) + " 10:00")
                    .append('\n');
        }
        String users = "user_id,name,city,elite\n1,Jordan,Paris,2018\n2,Ann,Jordan,\"2017,2018\"\n3,Bob,Paris,2018\n"
                + "4,Jordan,Lyon,\n5,Ann,Jordan,2016\n6,Eve,Lyon,2018\n";
        ws = Workspace.open(TestDatasets.csv("valuefit", Map.of("review.csv", reviews.toString(), "user.csv", users)),
                Workspace.Limits.defaults());
        k = Knowledge.load(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    private static String context(String question) {
        return KgContext.forQuestion(k, question).render(4000);
    }

    @Test
    void a_bare_year_is_a_date_of_the_tables_the_question_names_not_a_text_value_that_holds_it() {
        assertThat(context("What is the average rating of reviews in 2018?"))
                .doesNotContain("value in the data: '2018'")
                .contains("- '2018' is a year: compare it with a date of the tables the question names (review.date),"
                        + " not with the stored text user.elite = '2018'");
    }

    @Test
    void a_year_in_a_question_whose_tables_hold_no_date_is_a_date_of_the_dataset_not_a_text_value() {
        assertThat(context("How many users joined in 2018?"))
                .doesNotContain("value in the data: '2018'")
                .contains("- '2018' is a year: compare it with a date of the dataset (review.date), not with the stored"
                        + " text user.elite = '2018'");
    }

    @Test
    void a_year_stays_the_text_value_when_nothing_in_the_data_is_date_like() throws Exception {
        String users = "user_id,name,elite\n1,Jordan,2018\n2,Ann,\"2017,2018\"\n3,Bob,2018\n4,Eve,2016\n";
        try (Workspace only = Workspace.open(TestDatasets.csv("valuefit_nodates", Map.of("user.csv", users)),
                Workspace.Limits.defaults())) {
            assertThat(KgContext.forQuestion(Knowledge.load(only), "How many users joined in 2018?").render(4000))
                    .contains("value in the data: '2018' is user.elite = '2018'").doesNotContain("is a year");
        }
    }

    @Test
    void a_year_stays_the_text_value_when_the_question_names_its_column() {
        assertThat(context("How many users were elite in 2018?")).contains("value in the data: '2018' is user.elite = '2018'")
                .doesNotContain("is a year");
    }

    @Test
    void a_value_beside_the_name_of_another_column_is_contradicted_and_not_shown() {
        assertThat(context("How many users live in the city Jordan?")).contains("'Jordan' is user.city = 'Jordan'")
                .doesNotContain("user.name = 'Jordan'");
        // with no column named beside it, both readings stay: the planner asks or says which it took
        assertThat(context("How many users are there for Jordan?")).contains("user.city = 'Jordan'")
                .contains("user.name = 'Jordan'");
    }

    @Test
    void a_year_read_as_a_date_leaves_no_value_for_the_schema_linker_to_rank() {
        ValueFit.Fitted fitted = ValueFit.of(k.graph(), "What is the average rating of reviews in 2018?",
                k.values().mentions("What is the average rating of reviews in 2018?"));
        assertThat(fitted.mentions()).isEmpty();
        assertThat(fitted.readings()).hasSize(1);
    }
}
