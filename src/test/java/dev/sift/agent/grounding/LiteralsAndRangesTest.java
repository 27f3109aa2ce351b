package dev.sift.agent.grounding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answer check on literals the run itself used (date bounds of its SQL, a year the question gives), dates
 * restated in another format and ranges that round results — once false alarms on real answers — and the values
 * of other runs it must still catch.
 */
class LiteralsAndRangesTest {

    private static void clean(AnswerCheck.Result r) {
        assertThat(r.unsupported()).extracting(Claim::text).isEmpty();
        assertThat(r.unsupportedValues()).extracting(Claim::text).isEmpty();
    }

    private static Facts clientsBornIn(String sql) {
        return Facts.builder().text("How many clients were born between 1983 and 1987?").literal(sql)
                .table(sql, List.of("n"), List.of(List.of(412L)), 1).build();
    }

    @Test
    void a_year_range_of_the_runs_sql_restated_as_its_first_and_last_day_is_supported() {
        Facts f = clientsBornIn("SELECT count(*) AS n FROM client WHERE year(birth_date) BETWEEN 1983 AND 1987");
        clean(AnswerCheck.check("412 clients were born 1983-01-01 to 1987-12-31.", f));
    }

    @Test
    void an_exclusive_date_bound_restated_as_the_day_before_is_supported() {
        Facts f = clientsBornIn("SELECT count(*) AS n FROM client WHERE birth_date >= DATE '1993-01-01'"
                + " AND birth_date < DATE '1998-01-01'");
        clean(AnswerCheck.check("412 clients were born from 1993-01-01 to 1997-12-31.", f));
    }

    @Test
    void the_end_of_a_year_the_question_names_is_supported() {
        Facts f = Facts.builder().text("How many orders are still open at the end of 2024?")
                .literal("How many orders are still open at the end of 2024?")
                .table(List.of("open"), List.of(List.of(1_318L)), 1).build();
        clean(AnswerCheck.check("On 2024-12-31, 1,318 orders were still open.", f));
    }

    @Test
    void a_last_date_the_run_never_queried_is_still_caught_though_its_year_is_in_a_result() {
        Facts f = Facts.builder().text("How many loans were granted each year?")
                .literal("SELECT year(date) AS y, count(*) AS n FROM loan GROUP BY 1")
                .table(List.of("y", "n"), List.of(List.of(1997L, 180L), List.of(1998L, 212L)), 2).build();
        assertThat(AnswerCheck.check("The data runs to 1998-12-31; 212 loans were granted in 1998.", f)
                .unsupportedText()).isEqualTo("1998-12-31");
        assertThat(AnswerCheck.check("The last loan was granted on 1998-12-08.", f).unsupportedText())
                .isEqualTo("1998-12-08");
    }

    @Test
    void a_date_restated_in_another_format_is_supported() {
        Facts f = Facts.builder().text("Note: the price list changed on the 14th of April 2024.")
                .table(List.of("n"), List.of(List.of(37L)), 1).build();
        clean(AnswerCheck.check("Since the price change on 14 April 2024 there were 37 orders.", f));
        clean(AnswerCheck.check("Since the price change (2024-04-14) there were 37 orders.", f));
        clean(AnswerCheck.check("Since April 14, 2024 there were 37 orders.", f));
        assertThat(AnswerCheck.check("Since 15 April 2024 there were 37 orders.", f).unsupportedText())
                .isEqualTo("15 April 2024");
    }

    @Test
    void a_hedged_range_rounding_a_forecasts_results_is_supported_and_a_wrong_one_is_not() {
        Facts f = Facts.builder().table(List.of("month", "forecast"), List.of(List.of("2025-01", 81_412_300.5),
                List.of("2025-02", 82_170_044.0), List.of("2025-03", 82_866_912.7)), 3).build();
        clean(AnswerCheck.check("Monthly volume should stay at about 81–83 million.", f));
        clean(AnswerCheck.check("Monthly volume should stay at about 81-83 million CZK.", f));
        assertThat(AnswerCheck.check("Monthly volume should stay at about 91–93 million.", f).unsupported())
                .isNotEmpty();
    }

    @Test
    void a_zip_code_remembered_from_another_task_is_caught() {
        Facts f = Facts.builder().text("Which city has the most businesses?")
                .literal("SELECT city, count(*) AS n FROM business GROUP BY 1 ORDER BY 2 DESC LIMIT 1")
                .table(List.of("city", "n"), List.of(List.of("Philadelphia", 1_250L)), 1).build();
        clean(AnswerCheck.check("Philadelphia has the most businesses (1,250).", f));
        assertThat(AnswerCheck.check("Philadelphia has the most businesses (1,250), most of them in ZIP 19107.", f)
                .unsupportedText()).isEqualTo("19107");
    }
}
