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
 * The offline planner on wordings of the seventh round of question sets written for real files: people said as "workers"
 * and as a job's own plural in a table of counts of people, a number of people compared for each job on its sexes added
 * up, a census said for its year, the data named by its own words ("the earthquake feed", "in here"), "4.5+", "the
 * deepest one", two values said apart by a comma, and words that only look like a column ("country" is no "count" cut
 * short; "which state" asks for a state). Each answer is checked against independent SQL, row by row and in order.
 */
class SeventhRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace census;
    private static Workspace quakes;
    private static Workspace networks;

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
    }

    @AfterAll
    static void close() {
        census.close();
        quakes.close();
        networks.close();
    }

    @Test
    void people_said_as_workers_or_as_a_jobs_plural_are_the_people_counted() throws Exception {
        OFFLINE.answers(census, "What was the total number of workers counted in the 1910 census?",
                "SELECT sum(count) FROM jobs WHERE year = 1910");
        OFFLINE.answers(census, "What percentage of all workers in 1900 were women?",
                "SELECT 100.0 * sum(count) FILTER (WHERE sex = 'women') / sum(count) FROM jobs WHERE year = 1900");
        OFFLINE.answers(census, "how many farmers were there in 1920", "SELECT sum(count) FROM jobs WHERE job = 'Farmer' AND year = 1920");
        OFFLINE.answers(census, "in which census were there the most teachers",
                "SELECT year, sum(count) FROM jobs WHERE job = 'Teacher' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(census, "which census years does this cover", "SELECT DISTINCT year FROM jobs ORDER BY 1");
        OFFLINE.answers(census, "how many different occupations are in here", "SELECT count(DISTINCT job) FROM jobs");
        OFFLINE.asksBack(census, "what's the average for farmers?"); // of which number, over what?
    }

    @Test
    void a_number_of_people_compared_for_each_job_adds_up_its_sexes() throws Exception {
        // Nurse: 3003 men and 708 women in 1900; no one row passes 3500, the two together do
        var counted = OFFLINE.answers(census, "how many jobs had more than 3500 workers in 1900?",
                "SELECT count(*) FROM (SELECT job FROM jobs WHERE year = 1900 GROUP BY job HAVING sum(count) > 3500)");
        assertThat(counted.answer()).contains("every sex together");
        OFFLINE.answers(census, "list the occupations that had more than 3200 workers in 1900",
                "SELECT job, sum(count) FROM jobs WHERE year = 1900 GROUP BY job HAVING sum(count) > 3200 ORDER BY 1");
        OFFLINE.answers(census, "how many jobs had more than 2500 men in 1900", // one sex picked: its rows alone
                "SELECT count(*) FROM jobs WHERE sex = 'men' AND year = 1900 AND count > 2500");
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
