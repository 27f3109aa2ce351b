package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.agent.TurnContext;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on wordings of the seventh round of question sets written for real files: a number of people
 * compared for each job on its sexes added up, a census said for its year and a year the data lacks said so, two years
 * of people given each, the data named by its own words ("the earthquake feed", "in here"), "4.5+", "the
 * deepest one", two values said apart by a comma, and words that only look like a column ("country" is no "count" cut
 * short; "which state" asks for a state). Each answer is checked against independent SQL, row by row and in order.
 */
class SeventhRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace census;
    private static Workspace quakes;
    private static Workspace networks;
    private static Workspace sparse;

    @BeforeAll
    static void open() throws Exception {
        census = RealShapedFiles.census();
        quakes = RealShapedFiles.quakes();
        networks = Workspace.open(TestDatasets.csv("networks", Map.of("earthquakes.csv", """
                id,mag,net,sources
                a1,1.0,nc,",nc,"
                a2,2.0,nc,",nc,ci,"
                a3,0.5,ci,",ci,"
                a4,1.5,ci,",ci,nn,"
                a5,3.0,nn,",nn,"
                a6,2.0,nn,",ci,nn,"
                """)), Workspace.Limits.defaults());
        sparse = Workspace.open(TestDatasets.csv("sparse", Map.of("jobs.csv", """
                job,sex,year,count
                Baker,women,1900,0
                Cooper,women,1900,0
                Draper,women,1900,5
                Baker,men,1900,3
                Cooper,men,1900,4
                Draper,men,1900,1
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        census.close();
        quakes.close();
        networks.close();
        sparse.close();
    }

    @Test
    void a_census_is_said_for_its_year() throws Exception {
        OFFLINE.answers(census, "What was the total number of people counted in the 1910 census?",
                "SELECT sum(count) FROM jobs WHERE year = 1910");
        OFFLINE.answers(census, "how many people were counted in each census", "SELECT year, sum(count) FROM jobs GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "which census years does this cover", "SELECT DISTINCT year FROM jobs ORDER BY 1");
        OFFLINE.answers(census, "how many different occupations are in here", "SELECT count(DISTINCT job) FROM jobs");
        OFFLINE.answers(census, "How many people worked as nurses in 1900 and in 1920?", // each year's people, never added up
                "SELECT year, sum(count) FROM jobs WHERE job = 'Nurse' AND year IN (1900, 1920) GROUP BY 1 ORDER BY 1");
        assertThat(OFFLINE.asksBack(census, "number of nurses in the 1905 census").answer()) // a year between two censuses
                .contains("the data has no 1905 in jobs.year; its years are 1900, 1910, 1920");
    }

    @Test
    void a_number_of_people_compared_for_each_job_adds_up_its_sexes() throws Exception {
        // Nurse: 3003 men and 708 women in 1900; no one row passes 3500, the two together do
        var counted = OFFLINE.answers(census, "how many jobs had more than 3500 people in 1900?",
                "SELECT count(*) FROM (SELECT job FROM jobs WHERE year = 1900 GROUP BY job HAVING sum(count) > 3500)");
        assertThat(counted.answer()).contains("every sex together");
        OFFLINE.answers(census, "list the occupations that had more than 3200 people in 1900",
                "SELECT job, sum(count) FROM jobs WHERE year = 1900 GROUP BY job HAVING sum(count) > 3200 ORDER BY 1");
        OFFLINE.answers(census, "how many jobs had more than 2500 men in 1900", // one sex picked: its rows alone
                "SELECT count(*) FROM jobs WHERE sex = 'men' AND year = 1900 AND count > 2500");
    }

    @Test
    void the_fewest_among_groups_at_zero_is_asked_back_and_each_sex_is_given_when_both_are_said() throws Exception {
        assertThat(OFFLINE.asksBack(sparse, "Which job had the fewest women in 1900?").answer())
                .contains("2 jobs.job values are tied at 0, so no one of them comes lowest but by name");
        OFFLINE.answers(sparse, "Which job had the fewest men in 1900?", "SELECT job, count FROM jobs WHERE sex = 'men' ORDER BY count LIMIT 1");
        OFFLINE.answers(census, "Teachers in 1910: how many men vs women?",
                "SELECT sex, sum(count) FROM jobs WHERE job = 'Teacher' AND year = 1910 GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "How many teachers were there in 1910, men and women together?",
                "SELECT sum(count) FROM jobs WHERE job = 'Teacher' AND year = 1910");
    }

    @Test
    void a_number_before_the_ranked_noun_says_how_many_there_are() throws Exception {
        try (Workspace wildlife = RealShapedFiles.habitats()) {
            OFFLINE.answers(wildlife, "rank the three species by their average habitat share, lowest first",
                    "SELECT common_name, avg(habitat_yearround_pct) FROM species GROUP BY 1 ORDER BY 2");
        }
    }

    @Test
    void words_that_only_look_like_the_data_are_not_read_as_it() throws Exception {
        assertThat(OFFLINE.asksBack(census, "Which state had the most farmers in 1900?").answer()).contains("'state'");
        assertThat(OFFLINE.asksBack(census, "Which country had the most teachers in 1900?").answer()).contains("'country'");
    }

    @Test
    void feed_wordings_read_as_their_rows_and_numbers() throws Exception {
        OFFLINE.answers(quakes, "how many records are in the earthquake feed?", "SELECT count(*) FROM earthquakes");
        OFFLINE.answers(quakes, "Show the number of magnitude 4.5+ events for each day",
                "SELECT CAST(time AS DATE), count(*) FROM earthquakes WHERE mag >= 4.5 GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(quakes, "what was the strongest one in Utah?",
                "SELECT id, mag FROM earthquakes WHERE place LIKE '%Utah%' ORDER BY mag DESC, id LIMIT 1");
    }

    @Test
    void two_values_said_apart_by_a_comma_are_not_one_value_of_a_list_column() throws Exception {
        OFFLINE.answers(networks, "average mag of earthquakes reported by net nc, ci, nn?",
                "SELECT avg(mag) FROM earthquakes WHERE net = 'nn'",
                new TurnContext("refine", "and nn?", List.of(), List.of(), List.of("same for ci")));
    }
}
