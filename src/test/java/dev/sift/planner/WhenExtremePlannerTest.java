package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "When was X highest?" and "When did X peak?" name the date (or year) of the highest value, not the value alone: in a
 * monthly series keyed by its date, and in a table of several series once a value picks one. Where several rows share a
 * year and none is picked, a total may be meant, so the question is asked back. Answers are checked against
 * independent SQL.
 */
class WhenExtremePlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace monthly;
    private static Workspace hazards;
    private static Workspace world;

    @BeforeAll
    static void open() throws Exception {
        monthly = Workspace.open(TestDatasets.csv("jobs_monthly", Map.of("us_employment.csv", """
                month,nonfarm,construction
                2008-01-01,138000,7600
                2008-02-01,138500,7400
                2008-03-01,137900,7700
                2008-04-01,137000,7100
                """)), Workspace.Limits.defaults());
        hazards = Workspace.open(TestDatasets.csv("hazards_when", Map.of("disasters.csv", """
                Entity,Year,Deaths
                Flood,1931,500
                Flood,1932,900
                Earthquake,1931,2000
                Earthquake,1932,30
                Drought,1932,1500
                """)), Workspace.Limits.defaults());
        world = Workspace.open(TestDatasets.csv("world_when", Map.of("gapminder.csv", """
                year,country,fertility
                1955,Japan,2.1
                1955,Kenya,7.2
                2005,Japan,1.3
                2005,Kenya,5.0
                2005,Italy,1.4
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        monthly.close();
        hazards.close();
        world.close();
    }

    @Test
    void where_names_the_place_and_where_and_when_the_place_and_time_of_the_row_ranked() throws Exception {
        AgentRun both = OFFLINE.answers(world, "Where and when was the lowest fertility rate recorded?",
                "SELECT country, year FROM gapminder ORDER BY fertility LIMIT 1");
        assertThat(both.answer()).startsWith("The country Japan and year 2005 has the lowest fertility: 1.3.");
        OFFLINE.answers(world, "Where was the highest fertility rate in 2005?",
                "SELECT country, fertility FROM gapminder WHERE year = 2005 ORDER BY fertility DESC LIMIT 1");
        OFFLINE.asksBack(world, "Where was the lowest fertility rate recorded?"); // several rows a country, none picked
    }

    @Test
    void when_with_a_superlative_names_the_date_of_the_series_value() throws Exception {
        AgentRun peak = OFFLINE.answers(monthly, "When did nonfarm employment peak?",
                "SELECT month, nonfarm FROM us_employment ORDER BY nonfarm DESC LIMIT 1");
        assertThat(peak.answer()).startsWith("Month 2008-02-01 has the highest nonfarm: 138,500.")
                .contains("'when' → the us_employment.month with the highest us_employment.nonfarm");
        OFFLINE.answers(monthly, "When was construction employment at its lowest?",
                "SELECT month, construction FROM us_employment ORDER BY construction LIMIT 1");
    }

    @Test
    void when_with_first_or_last_is_the_earliest_or_latest_date_of_the_rows_picked() throws Exception {
        // the lowest construction below 7,650 is April's 7,100; the first month below it is February
        AgentRun first = OFFLINE.answers(monthly, "When did construction employment first go below 7,650?",
                "SELECT min(month) FROM us_employment WHERE construction < 7650");
        assertThat(first.answer()).contains("'when' … 'first' → the earliest us_employment.month");
        OFFLINE.answers(monthly, "When was nonfarm employment last above 137,950?",
                "SELECT max(month) FROM us_employment WHERE nonfarm > 137950");
    }

    @Test
    void several_rows_a_year_need_a_value_that_picks_one_series() throws Exception {
        OFFLINE.answers(hazards, "When were flood deaths highest?",
                "SELECT Year, Deaths FROM disasters WHERE Entity = 'Flood' ORDER BY Deaths DESC LIMIT 1");
        // 1932 has the most deaths in all (2,430) but 1931 the largest row (2,000): which is meant is not said
        OFFLINE.asksBack(hazards, "When were deaths highest?");
    }
}
