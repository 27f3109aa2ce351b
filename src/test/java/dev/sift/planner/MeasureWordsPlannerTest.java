package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on what a question measures rather than which rows: a number column named after a value ("the
 * most flood deaths" adds the deaths up, it does not count flood rows), the people a column read from a verb counts
 * ("killed the most people"), the largest total of any one year, the row a ranking picks stated by two of its columns
 * ("which country and year"), and a country's short name that is part of two stored names. The data has several rows
 * per type and year, so a count, a largest row and a total all differ; answers are checked against independent SQL.
 */
class MeasureWordsPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace hazards;
    private static Workspace world;

    @BeforeAll
    static void open() throws Exception {
        hazards = Workspace.open(TestDatasets.csv("hazards", Map.of("disasters.csv", """
                Entity,Year,Deaths
                Flood,1931,500
                Flood,1931,700
                Flood,1932,900
                Flood,1932,100
                Flood,1932,50
                Earthquake,1931,2000
                Earthquake,1932,30
                """)), Workspace.Limits.defaults());
        world = Workspace.open(TestDatasets.csv("world", Map.of("gapminder.csv", """
                year,country,pop,life_expect
                1955,South Korea,21000000,47.0
                1955,North Korea,9000000,45.5
                1955,Japan,89815060,65.5
                2005,South Korea,48000000,78.8
                2005,North Korea,23000000,67.3
                2005,Japan,127417244,82.0
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        hazards.close();
        world.close();
    }

    @Test
    void which_value_grew_the_most_ranks_each_values_change_between_the_two_years() throws Exception {
        AgentRun one = OFFLINE.answers(world, "Which country's life expectancy went up the most from 1955 to 2005?",
                "SELECT country, avg(life_expect) FILTER (WHERE year = 2005) - avg(life_expect) FILTER (WHERE year = 1955)"
                + " FROM gapminder GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(one.answer()).startsWith("Country South Korea had the largest rise in the average of");
        OFFLINE.answers(world, "Which 2 countries' population grew the most from 1955 to 2005?",
                "SELECT country, sum(pop) FILTER (WHERE year = 2005) - sum(pop) FILTER (WHERE year = 1955)"
                + " FROM gapminder GROUP BY 1 ORDER BY 2 DESC LIMIT 2");
        OFFLINE.asksBack(world, "Which country's life expectancy went up the least from 1955 to 2005?"); // only the most, so far
    }

    @Test
    void best_and_worst_rank_by_what_the_measure_counts() throws Exception {
        // 1931 has the most flood deaths in all (1,200); 1932 the largest flood row (900)
        AgentRun worst = OFFLINE.answers(hazards, "What was the worst year for flood deaths?",
                "SELECT Year, sum(Deaths) FROM disasters WHERE Entity = 'Flood' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(worst.answer()).contains("'worst' read as the most (highest) (more is worse for 'death')");
        OFFLINE.answers(world, "Which country had the best life expectancy in 1955?",
                "SELECT country, max(life_expect) FROM gapminder WHERE year = 1955 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.asksBack(hazards, "What was the best year for floods?"); // more floods: better or worse? not said
    }

    @Test
    void a_column_of_two_values_lists_each_values_row_and_says_whose_it_is() throws Exception {
        AgentRun shown = OFFLINE.ask(world, "Show the life expectancy of Japan and South Korea in 2005");
        assertThat(shown.evidence().get(shown.evidence().size() - 1).rows()).containsExactlyInAnyOrder(List.of("Japan", 82.0),
                List.of("South Korea", 78.8));
        AgentRun compared = OFFLINE.ask(world, "Compare the life expectancy of Japan and North Korea in 1955");
        assertThat(compared.evidence().get(compared.evidence().size() - 1).rows()).containsExactlyInAnyOrder(List.of("Japan", 65.5),
                List.of("North Korea", 45.5));
        OFFLINE.asksBack(world, "How many people lived in Japan and North Korea in 1955?"); // together, or each? not said
    }

    @Test
    void a_number_column_after_a_value_is_added_up_not_the_values_rows_counted() throws Exception {
        // 1932 has more flood rows (3 against 2) and the largest flood row is 900, but 1931 has the most flood deaths (1,200)
        OFFLINE.answers(hazards, "Which year had the most flood deaths?",
                "SELECT Year, sum(Deaths) FROM disasters WHERE Entity = 'Flood' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(hazards, "Which year had the most floods?",
                "SELECT Year, count(*) FROM disasters WHERE Entity = 'Flood' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void people_after_a_verb_read_as_a_count_column_are_what_it_counts() throws Exception {
        AgentRun run = OFFLINE.answers(hazards, "Which type of disaster killed the most people in 1932?",
                "SELECT Entity, sum(Deaths) FROM disasters WHERE Year = 1932 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(run.answer()).contains("'people' → the people disasters.Deaths counts ('killed')");
        OFFLINE.answers(hazards, "What was the most people killed by floods in a single year?",
                "SELECT Year, sum(Deaths) FROM disasters WHERE Entity = 'Flood' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void a_number_after_years_compares_the_count_column_that_follows_not_the_year() throws Exception {
        AgentRun run = OFFLINE.answers(hazards, "Which years had more than 1,000 earthquake deaths?",
                "SELECT DISTINCT Year FROM disasters WHERE Entity = 'Earthquake' AND Deaths > 1000");
        assertThat(run.answer()).contains("'more than 1000' → disasters.Deaths > 1000").doesNotContain("Year > 1000");
        OFFLINE.answers(hazards, "In how many years did more than a thousand people die in earthquakes?",
                "SELECT count(DISTINCT Year) FROM disasters WHERE Entity = 'Earthquake' AND Deaths > 1000");
    }

    @Test
    void two_columns_asked_with_a_ranking_name_the_row_it_picks() throws Exception {
        AgentRun run = OFFLINE.answers(world, "Which country and year had the lowest life expectancy?",
                "SELECT country, year, life_expect FROM gapminder ORDER BY life_expect LIMIT 1");
        assertThat(run.answer()).startsWith("The country North Korea and year 1955 has the lowest life expect: 45.5.");
        OFFLINE.answers(world, "What was the highest life expectancy in the data, and in which country and year?",
                "SELECT country, year, life_expect FROM gapminder ORDER BY life_expect DESC LIMIT 1");
        OFFLINE.answers(world, "Which country had the highest life expectancy, and in which year?",
                "SELECT country, year, life_expect FROM gapminder ORDER BY life_expect DESC LIMIT 1");
        OFFLINE.answers(world, "Which country, in which year, had the lowest life expectancy?", // never the lowest year
                "SELECT country, year, life_expect FROM gapminder ORDER BY life_expect LIMIT 1");
        assertThat(OFFLINE.asksBack(hazards, "Which type of disaster and year had the most deaths?").answer())
                .doesNotContain("The "); // a total by two columns, not one row's deaths
    }

    @Test
    void people_in_a_table_of_places_are_its_population_column_added_up_within_one_year_only() throws Exception {
        AgentRun run = OFFLINE.answers(world, "How many people lived in Japan in 2005?",
                "SELECT sum(pop) FROM gapminder WHERE country = 'Japan' AND year = 2005");
        assertThat(run.answer()).contains("'people' → gapminder.pop");
        OFFLINE.answers(world, "How many countries had more than 30 million people in 2005?",
                "SELECT count(DISTINCT country) FROM gapminder WHERE pop > 30000000 AND year = 2005");
        // the people living somewhere are counted again each year: no total across years
        assertThat(OFFLINE.asksBack(world, "How many people lived in Japan?").answer())
                .startsWith("Gapminder.pop counts the people at one moment, so a total over several years would count them again");
        assertThat(OFFLINE.asksBack(world, "What is the total population of Japan?").answer()).contains("say which year");
        OFFLINE.answers(world, "What was the total population in each year?", "SELECT year, sum(pop) FROM gapminder GROUP BY 1 ORDER BY 1");
    }

    @Test
    void a_short_name_that_is_part_of_two_stored_names_is_asked_back_naming_both() throws Exception {
        assertThat(OFFLINE.asksBack(world, "What was the life expectancy of Korea in 2005?").answer())
                .contains("'South Korea'").contains("'North Korea'");
        OFFLINE.answers(world, "What was the life expectancy of North Korea in 2005?",
                "SELECT life_expect FROM gapminder WHERE country = 'North Korea' AND year = 2005");
    }
}
