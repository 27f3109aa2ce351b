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

    private static Turn refused(int i, String q) {
        return new Turn(i, q, q, TurnKind.NEW, List.of(), "rules", null, "r" + i, "I could not tell", "clarification",
                "llm_disabled", List.of(), null, "t", 1);
    }

    @Test
    void a_refused_turn_is_never_the_context_of_the_next() {
        Resolution r = resolver.resolve("what about defaulted ones?", List.of(turn(1, "How many loans are there?", "loan"),
                refused(2, "show that as a chart")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many defaulted loans are there?");
    }

    @Test
    void a_follow_up_after_only_refused_turns_is_a_new_question() {
        Resolution r = resolver.resolve("How many of those are gold?", List.of(refused(1, "show that as a chart")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.NEW);
        assertThat(r.question()).isEqualTo("How many of those are gold?");
    }

    @Test
    void a_new_year_replaces_the_year_of_the_last_answered_turn() {
        Resolution r = resolver.resolve("in 1997?", List.of(turn(1, "How many loans were granted in 1996?", "loan")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many loans were granted in 1997?");
        assertThat(r.references()).containsExactly("'in 1997' → the question of turn 1 (\"How many loans were granted in"
                + " 1996?\") for 1997 instead of 1996");
        assertThat(resolver.resolve("in 1997?", List.of(turn(1, "How many loans are there?", "loan")), TABLES).question())
                .isEqualTo("How many loans are there in 1997?");
    }

    @Test
    void what_about_a_year_replaces_the_year() {
        Resolution r = resolver.resolve("what about 1997?", List.of(turn(1, "How many loans were granted in 1996?", "loan")), TABLES);
        assertThat(r.question()).isEqualTo("How many loans were granted in 1997?");
    }

    @Test
    void how_many_of_a_listing_counts_the_rows_listed_with_the_new_condition() {
        List<Turn> listed = List.of(turn(1, "List the loans of more than 100000, with their status.", "loan"));
        Resolution r = resolver.resolve("of those, how many were granted in 1997?", listed, TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many loans of more than 100000 were granted in 1997?");
        assertThat(resolver.resolve("Of those, how many also have gold cards?", List.of(turn(1, "Which clients live in Prague?",
                "client")), TABLES).question()).isEqualTo("How many clients live in Prague have gold cards?");
        assertThat(resolver.resolve("Of those, how many are gold?", List.of(turn(1, "How many cards are there?", "card")), TABLES)
                .question()).isEqualTo("How many cards are there, how many are gold?"); // a count before: as it was
    }

    @Test
    void another_measure_of_the_same_rows_asks_it_of_them() {
        Resolution r = resolver.resolve("what is their average amount?",
                List.of(turn(1, "How many loans were granted in 1997?", "loan")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("What is the average amount of loans granted in 1997?");
        assertThat(resolver.resolve("and their average amount?", List.of(turn(1, "How many loans are there?", "loan")),
                TABLES).question()).isEqualTo("What is the average amount of loans?");
    }

    @Test
    void a_new_grouping_replaces_the_old_one_or_is_added() {
        assertThat(resolver.resolve("by region?", List.of(turn(1, "average loan amount by status", "loan")), TABLES)
                .question()).isEqualTo("average loan amount by region?");
        assertThat(resolver.resolve("per year", List.of(turn(1, "How many loans are there?", "loan")), TABLES)
                .question()).isEqualTo("How many loans are there per year?");
    }

    @Test
    void which_ones_after_a_count_lists_what_was_counted_and_another_noun_is_a_new_question() {
        List<Turn> thread = List.of(turn(1, "In how many years were more than 50 loans granted?", "loan"));
        Resolution r = resolver.resolve("which years?", thread, TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("In which years were more than 50 loans granted?");
        assertThat(r.references()).containsExactly("'which years' → the years counted of turn 1 (\"In how many years were"
                + " more than 50 loans granted?\"), listed");
        assertThat(resolver.resolve("Which ones are they?", List.of(turn(1, "How many loans are there?", "loan")), TABLES)
                .question()).isEqualTo("which loans are there?");
        assertThat(resolver.resolve("which districts?", thread, TABLES).kind()).isEqualTo(TurnKind.NEW);
    }

    @Test
    void a_short_filter_narrows_the_last_answered_turn() {
        Resolution r = resolver.resolve("for Prague?", List.of(turn(1, "How many clients are there?", "client")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("How many clients are there for Prague?");
    }

    @Test
    void what_about_some_ones_narrows_the_rows_of_the_last_answered_turn() {
        List<Turn> thread = List.of(turn(1, "How many loans were granted in 1997?", "loan"));
        assertThat(resolver.resolve("what about defaulted ones?", thread, TABLES).question())
                .isEqualTo("How many defaulted loans were granted in 1997?");
        assertThat(resolver.resolve("And what about the running loans?", thread, TABLES).question())
                .isEqualTo("How many running loans were granted in 1997?");
        assertThat(resolver.resolve("what about defaulted ones?", thread, TABLES).references()).containsExactly(
                "'what about defaulted ones' → the loan rows of turn 1 (\"How many loans were granted in 1997?\") that are"
                        + " defaulted");
    }

    @Test
    void instead_is_dropped_from_a_new_grouping() {
        List<Turn> thread = List.of(turn(1, "How many loans are there by status?", "loan"));
        assertThat(resolver.resolve("by region instead", thread, TABLES).question())
                .isEqualTo("How many loans are there by region?");
        assertThat(resolver.resolve("instead, by year?", thread, TABLES).question())
                .isEqualTo("How many loans are there by year?");
        assertThat(resolver.resolve("per year instead?", List.of(turn(1, "How many gold cards are there issued in 1997?",
                "card")), TABLES).question()).isEqualTo("How many gold cards are there issued per year?");
        assertThat(resolver.resolve("by month?", List.of(turn(1, "How many loans were granted in 1997?", "loan")), TABLES)
                .question()).isEqualTo("How many loans were granted in 1997 by month?");
    }

    @Test
    void a_chart_of_that_draws_the_last_answered_question() {
        List<Turn> thread = List.of(turn(1, "How many loans were granted per year?", "loan"));
        Resolution r = resolver.resolve("show that as a chart", thread, TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("Show how many loans were granted per year as a chart.");
        assertThat(resolver.resolve("Can you plot it?", thread, TABLES).question())
                .isEqualTo("Show how many loans were granted per year as a chart.");
        assertThat(resolver.resolve("as a bar chart?", thread, TABLES).question())
                .isEqualTo("Show how many loans were granted per year as a bar chart.");
        assertThat(resolver.resolve("show it as a line chart", List.of(turn(1, "What was the total loan amount granted per"
                + " year?", "loan")), TABLES).question()).isEqualTo("Show the total loan amount granted per year as a line chart.");
        assertThat(resolver.resolve("show that as a chart", List.of(turn(1, "How many loans are there by status in 1997?",
                "loan")), TABLES).question()).isEqualTo("Show the number of loans by status in 1997 as a chart.");
    }

    @Test
    void the_other_end_of_a_measure_replaces_it() {
        List<Turn> thread = List.of(turn(1, "What is the largest loan amount?", "loan"));
        Resolution r = resolver.resolve("and the smallest?", thread, TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(r.question()).isEqualTo("What is the smallest loan amount?");
        assertThat(resolver.resolve("the average?", thread, TABLES).question()).isEqualTo("What is the average loan amount?");
        assertThat(resolver.resolve("and what is their lowest amount?", thread, TABLES).question())
                .isEqualTo("What is the lowest loan amount?");
    }

    @Test
    void a_short_phrase_with_a_time_narrows_or_moves_the_time_of_the_last_answered_turn() {
        assertThat(resolver.resolve("issued in 1997?", List.of(turn(1, "How many gold cards are there?", "card")), TABLES)
                .question()).isEqualTo("How many gold cards are there issued in 1997?");
        assertThat(resolver.resolve("granted in 1998?", List.of(turn(1, "How many loans were granted in 1997?", "loan")),
                TABLES).question()).isEqualTo("How many loans were granted in 1998?");
    }

    @Test
    void a_request_to_change_data_never_merges_into_the_question_before() {
        Resolution r = resolver.resolve("Set the status of all those loans to A.",
                List.of(turn(1, "What is the largest loan amount?", "loan")), TABLES);
        assertThat(r.kind()).isEqualTo(TurnKind.NEW);
        assertThat(r.question()).isEqualTo("Set the status of all those loans to A.");
        // the offline planner's guard decides what a change request is, wherever its verb stands
        for (String change : List.of("Delete them.", "And remove the defaulted ones.", "Export those to a CSV file.")) {
            assertThat(resolver.resolve(change, List.of(turn(1, "How many loans are there?", "loan")), TABLES).kind())
                    .as(change).isEqualTo(TurnKind.NEW);
        }
        assertThat(resolver.resolve("And how did their amount change?", List.of(turn(1, "How many loans are there?",
                "loan")), TABLES).kind()).isEqualTo(TurnKind.REFINE);
    }

    /** A table of a real export's cars: number columns named as exports write them, and a text column. */
    private static final List<TableInfo> CARS = List.of(new TableInfo("cars", TableInfo.Kind.TABLE, 406, List.of(
            new dev.sift.data.ColumnInfo("Name", "VARCHAR", "ford torino"),
            new dev.sift.data.ColumnInfo("Miles_per_Gallon", "DOUBLE", "18"),
            new dev.sift.data.ColumnInfo("Horsepower", "BIGINT", "130"),
            new dev.sift.data.ColumnInfo("Weight_in_lbs", "BIGINT", "3504"),
            new dev.sift.data.ColumnInfo("Acceleration", "DOUBLE", "12"),
            new dev.sift.data.ColumnInfo("Origin", "VARCHAR", "USA"))));

    @Test
    void a_follow_up_naming_another_number_column_measures_it_instead() {
        List<Turn> thread = List.of(turn(1, "What is the average horsepower by origin?", "cars"));
        Resolution instead = resolver.resolve("the average weight instead", thread, CARS);
        assertThat(instead.kind()).isEqualTo(TurnKind.REFINE);
        assertThat(instead.question()).isEqualTo("What is the average weight by origin?");
        assertThat(instead.references()).containsExactly("'the average weight' → the question of turn 1 (\"What is the average"
                + " horsepower by origin?\") measuring the average weight instead");
        assertThat(resolver.resolve("what about acceleration?", thread, CARS).question())
                .isEqualTo("What is the average acceleration by origin?");
        assertThat(resolver.resolve("and the maximum mpg?", thread, CARS).question()).isEqualTo("What is the maximum mpg by origin?");
        assertThat(resolver.resolve("and the maximum?", thread, CARS).question()).isEqualTo("What is the maximum horsepower by origin?");
        assertThat(resolver.resolve("Which origin has the highest average horsepower?", thread, CARS).kind()).isEqualTo(TurnKind.NEW);
    }

    @Test
    void a_follow_up_that_names_no_number_column_or_a_question_of_two_is_merged_for_the_parser() {
        List<Turn> thread = List.of(turn(1, "What is the average horsepower by origin?", "cars"));
        assertThat(resolver.resolve("what about Japan?", thread, CARS).question())
                .isEqualTo("What is the average horsepower by origin, Japan?");
        // two columns named before: which one the follow-up replaces is left to the parser, with the person's own words
        List<Turn> two = List.of(turn(1, "What is the average horsepower of cars heavier than weight 3000?", "cars"));
        assertThat(resolver.resolve("the average acceleration instead", two, CARS).question())
                .isEqualTo("What is the average horsepower of cars heavier than weight 3000, the average acceleration?");
    }
}
