package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on wordings of the fifth round of question sets written for real files: a table of counts of
 * people read as people are ("the number of blacksmiths", "what share of nurses were women", "men and women together",
 * jobs with more women than men, "compare male vs female", averages of yearly and per-job totals), a name of two words
 * joined by a slash said with "and", every kind of a name only when the question says so, values listed before the
 * column they share, a superlative said of one row, a column named in brackets, and which end of a period an amount is
 * of. Each answer is checked against independent SQL, row by row and in order.
 */
class FifthRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace census;
    private static Workspace quakes;
    private static Workspace ledger;
    private static Workspace trades;

    @BeforeAll
    static void open() throws Exception {
        census = RealShapedFiles.census();
        quakes = RealShapedFiles.quakes();
        ledger = Workspace.open(TestDatasets.csv("ledger", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Party_Affiliation,Total_Receipts,Beginning_Cash,Ending_Cash
                H1,"SMITH, ANN",DEM,4000,100,-50
                H2,"JONES, BOB",REP,15000,9000,300
                H3,"LEE, CARL",DEM,2000,-20,7000
                H4,"KIM, DORA",REP,5200,0,4500
                H5,"DIAZ, EVA",DEM,3000,400,-10
                """)), Workspace.Limits.defaults());
        StringBuilder jobs = new StringBuilder("""
                job,sex,year,count
                Lawyer / Judge,men,1900,900
                Lawyer / Judge,women,1900,10
                Engineer,men,1900,500
                Engineer - Civil,men,1900,300
                Engineer - Mining,men,1900,200
                Apprentice,men,1900,40
                Apprentice - Carpenter,men,1900,60
                Apprentice - Plumber,men,1900,25
                """);
        for (int k = 0; k < 300; k++) { // as many job names as a census has: a column whose values are not listed
            jobs.append("Trade ").append(k).append(",men,1900,").append(k).append('\n');
        }
        trades = Workspace.open(TestDatasets.csv("trades", Map.of("jobs.csv", jobs.toString())), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        census.close();
        quakes.close();
        ledger.close();
        trades.close();
    }

    @Test
    void a_value_said_as_what_is_counted_in_a_table_of_counts_of_people_counts_its_people() throws Exception {
        OFFLINE.answers(census, "when did the number of teachers peak?",
                "SELECT year, sum(count) FROM jobs WHERE job = 'Teacher' GROUP BY 1 ORDER BY 2 DESC LIMIT 1"); // both sexes added
        OFFLINE.answers(census, "What percentage of nurses were women in 1910?", "SELECT 100.0 * sum(count) FILTER (WHERE"
                + " sex = 'women') / sum(count) FROM jobs WHERE job = 'Nurse' AND year = 1910");
        OFFLINE.answers(census, "How many teachers were there in 1910, men and women together?",
                "SELECT sum(count) FROM jobs WHERE job = 'Teacher' AND year = 1910");
        OFFLINE.answers(census, "How did the number of farmers change from 1900 to 1920?",
                "SELECT year, sum(count) FROM jobs WHERE job = 'Farmer' AND year BETWEEN 1900 AND 1920 GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "By how much did the number of teachers (both sexes) grow between 1900 and 1920?",
                "SELECT sum(count) FILTER (WHERE year = 1920) - sum(count) FILTER (WHERE year = 1900), sum(count) FILTER (WHERE"
                + " year = 1900), sum(count) FILTER (WHERE year = 1920) FROM jobs WHERE job = 'Teacher'"); // "both sexes": every row
        OFFLINE.answers(census, "What's the first year with any women nurses?",
                "SELECT min(year) FROM jobs WHERE sex = 'women' AND job = 'Nurse' AND count > 0");
        OFFLINE.asksBack(census, "How many teachers were there in 1910?"); // every row, or the teachers' rows?
        assertThat(OFFLINE.asksBack(census, "What was the percentage of women teachers in 1900?").answer())
                .contains("may be of all the people counted or of those of one of them");
    }

    @Test
    void two_values_of_one_column_compared_and_averages_of_totals() throws Exception {
        OFFLINE.answers(census, "How many jobs had more women than men in 1910?", "SELECT count(*) FROM (SELECT job FROM jobs"
                + " WHERE year = 1910 GROUP BY job HAVING sum(count) FILTER (WHERE sex = 'women') > sum(count) FILTER (WHERE sex = 'men'))");
        OFFLINE.answers(census, "In 1920, in which jobs did women outnumber men?", "SELECT job FROM jobs WHERE year = 1920"
                + " GROUP BY job HAVING sum(count) FILTER (WHERE sex = 'women') > sum(count) FILTER (WHERE sex = 'men') ORDER BY 1");
        OFFLINE.answers(census, "compare male vs female nurses in 1920",
                "SELECT sex, sum(count) FROM jobs WHERE job = 'Nurse' AND year = 1920 GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "Were there more male or female farmers in 1900?",
                "SELECT sex, sum(count) FROM jobs WHERE job = 'Farmer' AND year = 1900 GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(census, "What was the average number of male farmers across all the census years?",
                "SELECT avg(t) FROM (SELECT year, sum(count) AS t FROM jobs WHERE sex = 'men' AND job = 'Farmer' GROUP BY 1)");
        OFFLINE.answers(census, "On average, how many female teachers were there per census year?",
                "SELECT avg(t) FROM (SELECT year, sum(count) AS t FROM jobs WHERE sex = 'women' AND job = 'Teacher' GROUP BY 1)");
        OFFLINE.answers(census, "what's the average number of women per job in 1900?",
                "SELECT avg(t) FROM (SELECT job, sum(count) AS t FROM jobs WHERE sex = 'women' AND year = 1900 GROUP BY 1)");
        OFFLINE.answers(census, "What percent of the whole workforce were female nurses in 1910?", "SELECT 100.0 * sum(count)"
                + " FILTER (WHERE sex = 'women' AND job = 'Nurse') / sum(count) FROM jobs WHERE year = 1910");
    }

    @Test
    void names_with_a_slash_and_every_kind_of_a_name() throws Exception {
        OFFLINE.answers(trades, "how many men were lawyers and judges in 1900?",
                "SELECT sum(count) FROM jobs WHERE sex = 'men' AND job = 'Lawyer / Judge' AND year = 1900");
        assertThat(OFFLINE.asksBack(trades, "How many engineers were there in 1900?").answer())
                .contains("alone or every kind of it too");
        OFFLINE.answers(trades, "What was the combined count of all the apprentice jobs in 1900?",
                "SELECT sum(count) FROM jobs WHERE job LIKE 'Apprentice%' AND year = 1900");
        OFFLINE.answers(trades, "list all the engineer categories", "SELECT DISTINCT job FROM jobs WHERE job LIKE 'Engineer%' ORDER BY 1");
        OFFLINE.answers(trades, "how many kinds of engineer are listed?", "SELECT count(DISTINCT job) FROM jobs WHERE job LIKE 'Engineer%'");
    }

    @Test
    void rows_of_a_feed_named_by_superlatives_brackets_and_shared_columns() throws Exception {
        OFFLINE.answers(quakes, "what's the strongest event? give the place and magnitude",
                "SELECT place, mag FROM earthquakes ORDER BY mag DESC, id LIMIT 1");
        OFFLINE.answers(quakes, "What was the largest magnitude recorded this week, and where was it?",
                "SELECT place, mag FROM earthquakes ORDER BY mag DESC, id LIMIT 1");
        OFFLINE.answers(quakes, "how many events are in this week's feed?", "SELECT count(*) FROM earthquakes");
        OFFLINE.answers(quakes, "how many distinct magnitude types (magType) show up?", "SELECT count(DISTINCT magType) FROM earthquakes");
        OFFLINE.answers(quakes, "compare the average magnitude of the automatic and reviewed statuses",
                "SELECT status, avg(mag) FROM earthquakes WHERE status IN ('automatic', 'reviewed') GROUP BY 1 ORDER BY 1");
    }

    @Test
    void the_end_of_a_period_said_of_an_amount_settles_which_column() throws Exception {
        OFFLINE.answers(ledger, "how many candidates ended with negative cash?",
                "SELECT count(*) FROM political_contributions WHERE Ending_Cash < 0");
        OFFLINE.answers(ledger, "who started with the most cash?",
                "SELECT Candidate_Name, Beginning_Cash FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(ledger, "what is the total cash on hand?", "SELECT sum(Ending_Cash) FROM political_contributions");
        OFFLINE.answers(ledger, "Which party had the most cash at the end of the period?", // the party's candidates together
                "SELECT Party_Affiliation, sum(Ending_Cash) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.asksBack(ledger, "what is the average cash?"); // beginning or ending: nothing says
        OFFLINE.asksBack(ledger, "how many candidates end with negative cash?"); // "end with" is not read (held-out totals)
    }
}
