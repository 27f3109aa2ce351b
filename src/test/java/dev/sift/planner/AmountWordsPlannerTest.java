package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on wordings of the second round of question sets written for real files it had not seen: amounts
 * said as words ("no habitat", "at least some", "more than half"), a column's word before one of its stored codes
 * ("county 01003"), a filter before "in the most counties", a column named "Total …" asked as a total, the row of a
 * ranking with its month, weekdays as filters, "felt by at least one person", a standard deviation, a minimum and
 * maximum together, "network" for a column named net, the month of the year beside a year column, verbs of money
 * ("spent", "owes"), "who" with a ranking, and employees in a table of counts of people by sex. Each answer is checked against
 * independent SQL; a ranking by a text column is asked back.
 */
class AmountWordsPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace habitats;
    private static Workspace quakes;
    private static Workspace filings;
    private static Workspace jobless;
    private static Workspace census;

    @BeforeAll
    static void open() throws Exception {
        habitats = RealShapedFiles.habitats();
        StringBuilder events = new StringBuilder("id,mag,place,time,net,felt\n");
        for (int i = 0; i < 60; i++) { // 2018-02-01 was a Thursday
            events.append("ev").append(i).append(',').append((i % 50) / 10.0).append(",Town").append(i % 7).append(",2018-02-0")
                    .append(1 + i % 7).append(' ').append(String.format("%02d", i % 24)).append(":15:00,")
                    .append(i % 6 < 3 ? "ci" : i % 6 < 5 ? "us" : "ak").append(',').append(i % 4 == 0 ? "" : String.valueOf(i % 5))
                    .append('\n');
        }
        quakes = Workspace.open(TestDatasets.csv("feed", Map.of("earthquakes.csv", events.toString())), Workspace.Limits.defaults());
        filings = Workspace.open(TestDatasets.csv("filings", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Candidate_State,Total_Disbursements,Total_Receipts,Debts_Owed_By,Total_Individual_Contributions,Contributions_from_Candidate
                H1,"SMITH, ANN",CA,3500,4000,0,300,0
                H2,"JONES, BOB",CA,200,150,12000,100,50
                H3,"LEE, CARL",WA,2900,2000,500,900,0
                H4,"KIM, DORA",WA,1000,5200,25000,20,5000
                H5,"DIAZ, EVA",OR,3100,3000,0,0,3000
                """)), Workspace.Limits.defaults());
        StringBuilder rates = new StringBuilder("series,year,month,rate,date\n");
        String[] series = {"Construction", "Finance"};
        for (int y = 2008; y <= 2009; y++) {
            for (int m = 1; m <= 12; m++) {
                for (int s = 0; s < series.length; s++) {
                    rates.append(series[s]).append(',').append(y).append(',').append(m).append(',')
                            .append(String.format(Locale.ROOT, "%.1f", 3 + s * 2 + (m * 5 + y) % 7 * 0.5)).append(',')
                            .append(String.format("%d-%02d-01", y, m)).append('\n');
                }
            }
        }
        census = RealShapedFiles.census();
        jobless = Workspace.open(TestDatasets.csv("jobless", Map.of("unemployment_across_industries.csv", rates.toString())),
                Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        habitats.close();
        quakes.close();
        filings.close();
        jobless.close();
        census.close();
    }

    @Test
    void verbs_of_money_read_the_amount_they_move() throws Exception {
        AgentRun spent = OFFLINE.answers(filings, "How much did candidates in California spend in total?",
                "SELECT sum(Total_Disbursements) FROM political_contributions WHERE Candidate_State = 'CA'");
        assertThat(spent.answer()).contains("'spend' read as 'disbursements' (the amount it moves)");
        OFFLINE.answers(filings, "Which candidate spent the most money?",
                "SELECT Candidate_Name, Total_Disbursements FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(filings, "Which candidate owes the most?",
                "SELECT Candidate_Name, Debts_Owed_By FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(filings, "Who has the most debt?", // "who" ranks the one table's rows, named by its name column
                "SELECT Candidate_Name, Debts_Owed_By FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(filings, "How many candidates have debts of more than 10000?",
                "SELECT count(*) FROM political_contributions WHERE Debts_Owed_By > 10000");
    }

    @Test
    void the_last_word_of_a_name_that_opens_other_names_names_none_of_them() throws Exception {
        OFFLINE.asksBack(filings, "Who got the most contributions?");
        OFFLINE.answers(filings, "What is the total of individual contributions?",
                "SELECT sum(Total_Individual_Contributions) FROM political_contributions");
    }

    @Test
    void people_at_work_in_a_table_of_counts_by_sex_are_its_count() throws Exception {
        OFFLINE.answers(census, "total people per census year", "SELECT year, sum(count) FROM jobs GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "How many women worked as teachers in 1910?",
                "SELECT sum(count) FROM jobs WHERE sex = 'women' AND job = 'Teacher' AND year = 1910");
        OFFLINE.answers(census, "What is the average number of people per job in 1910?", // each job's total, averaged
                "SELECT avg(t) FROM (SELECT job, sum(count) AS t FROM jobs WHERE year = 1910 GROUP BY job)");
        OFFLINE.answers(census, "top 2 jobs for men in 1920 by number of employees",
                "SELECT job, sum(count) AS n FROM jobs WHERE sex = 'men' AND year = 1920 GROUP BY 1 ORDER BY 2 DESC LIMIT 2");
    }

    @Test
    void amounts_said_in_words_compare_the_column_named_after_them() throws Exception {
        AgentRun none = OFFLINE.answers(habitats, "How many counties have no habitat at all for the White-tailed Deer?",
                "SELECT count(DISTINCT county_id) FROM species WHERE habitat_yearround_pct = 0 AND common_name = 'White-tailed Deer'");
        assertThat(none.answer()).contains("'no habitat' read as 'habitat exactly 0'");
        OFFLINE.answers(habitats, "How many counties have at least some American Bullfrog habitat?",
                "SELECT count(DISTINCT county_id) FROM species WHERE habitat_yearround_pct > 0 AND common_name = 'American Bullfrog'");
        OFFLINE.answers(habitats, "For each species, how many counties are more than half year-round habitat?",
                "SELECT common_name, count(DISTINCT county_id) FROM species WHERE habitat_yearround_pct > 0.5 GROUP BY 1 ORDER BY 1");
    }

    @Test
    void a_filter_before_the_most_counties_leaves_the_ranking_to_the_counties() throws Exception {
        OFFLINE.answers(habitats, "Which species has zero habitat in the most counties?",
                "SELECT common_name, count(DISTINCT county_id) AS n FROM species WHERE habitat_yearround_pct = 0 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        OFFLINE.answers(habitats, "Which species has habitat above 0.5 in the most counties?",
                "SELECT common_name, count(DISTINCT county_id) AS n FROM species WHERE habitat_yearround_pct > 0.5 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
    }

    @Test
    void a_columns_word_before_one_of_its_stored_codes_is_that_value() throws Exception {
        OFFLINE.answers(habitats, "what's the robin habitat share in county 01003?",
                "SELECT habitat_yearround_pct FROM species WHERE common_name = 'American Robin' AND county_id = '01003'");
    }

    @Test
    void a_ranking_by_a_text_column_is_asked_back() throws Exception {
        AgentRun run = OFFLINE.asksBack(quakes, "list the 5 quakes with the highest place");
        assertThat(run.answer()).contains("'earthquakes.place' is text, and I rank by a number, a date or a count");
    }

    @Test
    void total_said_with_a_column_named_total_adds_it_up() throws Exception {
        OFFLINE.answers(filings, "What are the total disbursements for candidates in California?",
                "SELECT sum(Total_Disbursements) FROM political_contributions WHERE Candidate_State = 'CA'");
        OFFLINE.answers(filings, "top 3 candidate states by total disbursements",
                "SELECT Candidate_State, sum(Total_Disbursements) AS t FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 3");
    }

    @Test
    void the_month_of_a_ranked_row_is_its_date() throws Exception {
        OFFLINE.answers(jobless, "Which industry had the highest unemployment rate ever recorded, and in which month?",
                "SELECT series, date, rate FROM unemployment_across_industries ORDER BY rate DESC, date LIMIT 1");
    }

    @Test
    void the_month_of_the_year_is_the_calendar_month_beside_a_year_column() throws Exception {
        OFFLINE.answers(jobless, "Which month of the year has the highest average unemployment rate?",
                "SELECT monthname(date), avg(rate) AS r FROM unemployment_across_industries GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void a_weekday_filters_the_rows_whose_date_falls_on_it() throws Exception {
        AgentRun run = OFFLINE.answers(quakes, "how many events happened on a Saturday?",
                "SELECT count(*) FROM earthquakes WHERE dayname(time) = 'Saturday'");
        assertThat(run.answer()).contains("'Saturday' → the rows whose earthquakes.time falls on a Saturday");
        OFFLINE.answers(quakes, "average magnitude of quakes on Mondays", "SELECT avg(mag) FROM earthquakes WHERE dayname(time) = 'Monday'");
    }

    @Test
    void felt_by_at_least_one_person_is_a_comparison_not_a_grouping() throws Exception {
        OFFLINE.answers(quakes, "how many events were felt by at least one person?", "SELECT count(*) FROM earthquakes WHERE felt >= 1");
    }

    @Test
    void a_standard_deviation_is_the_samples() throws Exception {
        AgentRun run = OFFLINE.answers(jobless, "what's the standard deviation of the unemployment rate for Finance?",
                "SELECT stddev_samp(rate) FROM unemployment_across_industries WHERE series = 'Finance'");
        assertThat(run.answer()).contains("standard deviation (sample)");
    }

    @Test
    void a_minimum_and_maximum_asked_together_come_together() throws Exception {
        OFFLINE.answers(quakes, "what's the range of magnitudes? min and max please", "SELECT min(mag), max(mag) FROM earthquakes");
        OFFLINE.answers(quakes, "minimum and maximum magnitude by network",
                "SELECT net, min(mag), max(mag) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(jobless, "what is the date range of the data?", "SELECT min(date), max(date) FROM unemployment_across_industries");
    }

    @Test
    void network_names_a_column_named_net() throws Exception {
        OFFLINE.answers(quakes, "which network reported the most events?",
                "SELECT net, count(*) AS n FROM earthquakes GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }
}
