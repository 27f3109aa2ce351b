package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on wordings of the eighth round, on a census table of counts of people that also carries each row's
 * share of its year's workforce ({@code perc}): a column named "count" said as a number ("the median count", "a count of
 * 0"), "non-zero", "the average count per job", the row a ranking picks stated by three columns, "the most common job",
 * "the biggest share of the workforce", "headcount", "no women at all", "what %", "when" in a table of years, "compare …
 * with …"; and on a table of countries by year: "in this dataset", "across all countries", "the biggest gain", "anywhere in
 * the data", "at its peak"; and words that only frame a question ("reached", "summed", "values"). Each answer is checked
 * against independent SQL, row by row and in order.
 */
class EighthRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace census;

    @BeforeAll
    static void open() throws Exception {
        // perc: each row's count over its year's total, as the real export has it; Farmer's women in 1900 are 0
        census = Workspace.open(TestDatasets.csv("shares", Map.of("jobs.csv", """
                job,sex,year,count,perc
                Farmer,men,1900,500,0.5
                Farmer,women,1900,0,0.0
                Teacher,men,1900,100,0.1
                Teacher,women,1900,300,0.3
                Nurse,men,1900,20,0.02
                Nurse,women,1900,80,0.08
                Farmer,men,1920,400,0.25
                Farmer,women,1920,50,0.03125
                Teacher,men,1920,150,0.09375
                Teacher,women,1920,600,0.375
                Nurse,men,1920,40,0.025
                Nurse,women,1920,360,0.225
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        census.close();
    }

    @Test
    void a_column_named_count_is_the_number_after_an_aggregate_or_before_a_value() throws Exception {
        OFFLINE.answers(census, "What's the median count for women across occupations in 1920?",
                "SELECT median(count) FROM jobs WHERE sex = 'women' AND year = 1920");
        OFFLINE.answers(census, "lowest count of male farmers in any census", "SELECT min(count) FROM jobs WHERE job = 'Farmer' AND sex = 'men'");
        OFFLINE.answers(census, "How many rows have a count of 0?", "SELECT count(*) FROM jobs WHERE count = 0");
        OFFLINE.answers(census, "What is the single largest count in the data, and which job, sex and year is it?",
                "SELECT job, sex, year, count FROM jobs ORDER BY count DESC LIMIT 1");
        // elsewhere "count" stays a count: of the people the rows stand for
        OFFLINE.answers(census, "What is the count of women in 1920?", "SELECT sum(count) FROM jobs WHERE sex = 'women' AND year = 1920");
    }

    @Test
    void non_zero_and_the_average_per_job_of_a_tally() throws Exception {
        OFFLINE.answers(census, "What's the smallest non-zero count in the data, and which job, sex and year is it?",
                "SELECT job, sex, year, count FROM jobs WHERE count > 0 ORDER BY count LIMIT 1");
        OFFLINE.answers(census, "Which job had the smallest non-zero number of women in 1900?",
                "SELECT job, count FROM jobs WHERE sex = 'women' AND year = 1900 AND count > 0 ORDER BY count LIMIT 1");
        var averaged = OFFLINE.answers(census, "average count per occupation for women in 1920?",
                "SELECT avg(count) FROM jobs WHERE sex = 'women' AND year = 1920");
        assertThat(averaged.answer()).contains("one figure over the per-job totals");
    }

    @Test
    void the_most_common_job_has_the_most_people_and_headcount_is_their_number() throws Exception {
        OFFLINE.answers(census, "most common job for women in 1920?",
                "SELECT job, count FROM jobs WHERE sex = 'women' AND year = 1920 ORDER BY count DESC LIMIT 1");
        OFFLINE.answers(census, "which occupation grew the most in headcount between 1900 and 1920?",
                "SELECT job, sum(count) FILTER (WHERE year = 1920) - sum(count) FILTER (WHERE year = 1900) AS d FROM jobs"
                        + " GROUP BY job ORDER BY d DESC LIMIT 1");
    }

    @Test
    void a_share_of_the_workforce_is_the_share_column_added_up_within_one_year() throws Exception {
        OFFLINE.answers(census, "Which job made up the biggest share of the workforce in 1920?", // Teacher: 0.46875, Farmer 0.28
                "SELECT job, sum(perc) FROM jobs WHERE year = 1920 GROUP BY job ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(census, "which 2 jobs had the smallest share of the workforce in 1900",
                "SELECT job, sum(perc) FROM jobs WHERE year = 1900 GROUP BY job ORDER BY 2 LIMIT 2");
        // over all years a row's own share is ranked: shares of two years' wholes do not add up
        OFFLINE.answers(census, "Which occupation, sex and year has the single biggest share of its year's total workforce?",
                "SELECT job, sex, year, perc FROM jobs ORDER BY perc DESC LIMIT 1");
    }

    @Test
    void no_people_of_a_value_a_percent_sign_when_in_a_table_of_years_and_compare_gives_each() throws Exception {
        OFFLINE.answers(census, "how many jobs had no women at all in 1900?",
                "SELECT count(*) FROM jobs WHERE sex = 'women' AND year = 1900 AND count = 0");
        OFFLINE.answers(census, "what % of teachers were women in 1920",
                "SELECT 100.0 * sum(count) FILTER (WHERE sex = 'women') / sum(count) FROM jobs WHERE job = 'Teacher' AND year = 1920");
        OFFLINE.answers(census, "When were there the most women nurses, and how many?", // a table of years: "when" is the year
                "SELECT year, count FROM jobs WHERE job = 'Nurse' AND sex = 'women' ORDER BY count DESC LIMIT 1");
        OFFLINE.answers(census, "compare the total workforce in 1900 with 1920",
                "SELECT year, sum(count) FROM jobs GROUP BY year ORDER BY year");
        OFFLINE.answers(census, "How many women were in the workforce in 1920?", "SELECT sum(count) FROM jobs WHERE sex = 'women' AND year = 1920");
        // a number far from any year is never a year's bound: asked back, not "year > 100000"
        assertThat(OFFLINE.asksBack(census, "years when male teachers topped 100k").answer())
                .startsWith("I could not tell which number 'topped 100000' compares");
    }

    @Test
    void this_dataset_across_all_values_a_gain_anywhere_and_at_its_peak() throws Exception {
        try (Workspace countries = Workspace.open(TestDatasets.csv("lives", Map.of("countries.csv", """
                country,year,life_expect,fertility
                Peru,1955,43.7,6.9
                Peru,1980,60.1,5.4
                Peru,2000,74.6,2.9
                Chile,1955,54.8,5.0
                Chile,1980,69.3,2.8
                Chile,2000,77.9,2.1
                Rwanda,1955,40.0,7.8
                Rwanda,1980,46.2,8.4
                Rwanda,2000,43.4,6.0
                """)), Workspace.Limits.defaults())) {
            OFFLINE.answers(countries, "how many countries are in this dataset?", "SELECT count(DISTINCT country) FROM countries");
            OFFLINE.answers(countries, "What was the average life expectancy across all countries in 1980?",
                    "SELECT avg(life_expect) FROM countries WHERE year = 1980");
            OFFLINE.answers(countries, "Which country saw the biggest gain in life expectancy from 1955 to 2000?",
                    "SELECT country, avg(life_expect) FILTER (WHERE year = 2000) - avg(life_expect) FILTER (WHERE year = 1955) AS d"
                            + " FROM countries GROUP BY 1 ORDER BY d DESC LIMIT 1");
            OFFLINE.answers(countries, "what's the lowest life expectancy anywhere in the data, and which country and year was that?",
                    "SELECT country, year, life_expect FROM countries ORDER BY life_expect LIMIT 1");
            OFFLINE.answers(countries, "In which year was Rwanda's fertility rate at its peak?",
                    "SELECT year, fertility FROM countries WHERE country = 'Rwanda' ORDER BY fertility DESC LIMIT 1");
        }
    }

    @Test
    void words_that_only_frame_the_question_reached_summed_and_values() throws Exception {
        try (Workspace quakes = RealShapedFiles.quakes()) {
            OFFLINE.answers(quakes, "How many quakes reached magnitude 5 or higher?", "SELECT count(*) FROM earthquakes WHERE mag >= 5");
            OFFLINE.answers(quakes, "how many distinct magType values are there?", "SELECT count(DISTINCT magType) FROM earthquakes");
            OFFLINE.answers(quakes, "total tsunami summed over all events", "SELECT sum(tsunami) FROM earthquakes");
        }
    }
}
