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
 * The offline planner on one-table files whose rows no name calls by the words people use: a table of people who
 * died (names, age, gender, a death date, a type with a value 'Death') and a table of dated matches. What a row is
 * comes from its columns; the answers are checked against independently written SQL.
 */
class RowNounsPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace deaths;
    private static Workspace matches;

    @BeforeAll
    static void open() throws Exception {
        deaths = Workspace.open(TestDatasets.csv("riots", Map.of("riots.csv", """
                first_name,last_name,age,gender,race,death_date,neighborhood,type
                Ann,Lee,34,Female,Asian,1992-04-30,Koreatown,Homicide
                Bo,Taylor,19,Male,Black,1992-04-30,Watts,Homicide
                Cy,Diaz,27,Male,Latino,1992-04-29,Compton,Death
                Di,Taylor,61,Female,White,1992-05-01,Watts,Not riot-related
                Ed,Ruiz,22,Male,Latino,1992-05-02,Pico-Union,Homicide
                Flo,Kim,45,Female,Asian,1993-01-10,Koreatown,Death
                """)), Workspace.Limits.defaults());
        matches = Workspace.open(TestDatasets.csv("league", Map.of("football.csv", """
                date,division,home_team,away_team,home_score,away_score
                2015-12-20,Serie A,Juventus,Roma,2,1
                2015-12-20,Serie A,Milan,Inter,0,0
                2015-12-21,Primera Division,Barcelona,Sevilla,3,1
                2016-01-03,Primera Division,Sevilla,Barcelona,1,1
                2016-01-03,Serie A,Roma,Milan,4,2
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        deaths.close();
        matches.close();
    }

    @Test
    void a_kind_of_person_counts_the_rows_of_a_table_of_people() throws Exception {
        AgentRun victims = OFFLINE.answers(deaths, "What was the average age of the victims?", "SELECT avg(age) FROM riots");
        assertThat(victims.answer()).contains("'victims' → table riots");
        OFFLINE.answers(deaths, "How many people died in Koreatown?", "SELECT count(*) FROM riots WHERE neighborhood = 'Koreatown'");
        OFFLINE.answers(deaths, "How many of the victims were Latino men?",
                "SELECT count(*) FROM riots WHERE race = 'Latino' AND gender = 'Male'");
    }

    @Test
    void the_occurrence_a_date_column_names_is_the_rows_even_where_it_is_also_a_category() throws Exception {
        AgentRun all = OFFLINE.answers(deaths, "How many deaths are recorded?", "SELECT count(*) FROM riots");
        assertThat(all.answer()).contains("'deaths' → table riots");
        OFFLINE.answers(deaths, "How many of the deaths were homicides?", "SELECT count(*) FROM riots WHERE type = 'Homicide'");
    }

    @Test
    void an_occurrence_counts_dated_rows_and_an_outcome_does_not() throws Exception {
        OFFLINE.answers(matches, "How many matches are in the data?", "SELECT count(*) FROM football");
        OFFLINE.answers(matches, "How many games were played in Serie A?", "SELECT count(*) FROM football WHERE division = 'Serie A'");
        assertThat(OFFLINE.asksBack(matches, "How many wins did Barcelona have?").answer()).contains("'wins'");
    }

    @Test
    void several_tables_of_people_do_not_make_any_person_their_rows() throws Exception {
        Workspace two = Workspace.open(TestDatasets.csv("staff", Map.of("clients.csv", "name,age,gender\nA,30,F\nB,40,M\n",
                "advisers.csv", "name,age,gender\nC,50,F\n")), Workspace.Limits.defaults());
        try (two) {
            assertThat(OFFLINE.asksBack(two, "How many astronauts are there?").answer()).contains("'astronauts'");
        }
    }

    @Test
    void a_many_valued_column_counted_in_the_plural_counts_its_different_values() throws Exception {
        OFFLINE.answers(deaths, "How many neighborhoods are there?", "SELECT count(DISTINCT neighborhood) FROM riots");
        OFFLINE.answers(matches, "How many different home teams played in Serie A?",
                "SELECT count(DISTINCT home_team) FROM football WHERE division = 'Serie A'");
    }

    @Test
    void the_most_common_value_is_the_one_met_in_the_most_rows() throws Exception {
        OFFLINE.answers(deaths, "What was the most common type of death?",
                "SELECT type FROM riots GROUP BY type ORDER BY count(*) DESC LIMIT 1");
        OFFLINE.answers(deaths, "Which race is least common?", "SELECT race FROM riots GROUP BY race ORDER BY count(*), race LIMIT 1");
    }

    @Test
    void two_values_of_one_column_joined_by_or_are_either() throws Exception {
        OFFLINE.answers(deaths, "How many people died in Compton or Watts?",
                "SELECT count(*) FROM riots WHERE neighborhood IN ('Compton', 'Watts')");
        assertThat(OFFLINE.asksBack(deaths, "How many people died in Compton or were Asian?").answer()).contains("'or'");
    }

    @Test
    void a_day_written_as_people_write_it_is_one_day() throws Exception {
        String day = "SELECT count(*) FROM riots WHERE death_date = DATE '1992-04-30'";
        OFFLINE.answers(deaths, "How many people died on April 30, 1992?", day);
        OFFLINE.answers(deaths, "How many people died on 1992-04-30?", day);
        OFFLINE.answers(deaths, "How many people died on the 30th of April 1992?", day);
        OFFLINE.answers(deaths, "How many people died between April 29 and May 1, 1992?",
                "SELECT count(*) FROM riots WHERE death_date BETWEEN DATE '1992-04-29' AND DATE '1992-05-01'");
        OFFLINE.answers(deaths, "How many people died after 1992-05-01?", "SELECT count(*) FROM riots WHERE death_date > DATE '1992-05-01'");
        OFFLINE.answers(matches, "How many matches were played on 20 December 2015?",
                "SELECT count(*) FROM football WHERE date = DATE '2015-12-20'");
    }

    @Test
    void when_and_the_date_of_the_first_or_last_row_read_the_tables_one_date() throws Exception {
        OFFLINE.answers(deaths, "When did the last victim die?", "SELECT max(death_date) FROM riots");
        OFFLINE.answers(matches, "When was the first match in the data played?", "SELECT min(date) FROM football");
        OFFLINE.answers(matches, "What was the date of the last Serie A match?",
                "SELECT max(date) FROM football WHERE division = 'Serie A'");
    }

    @Test
    void who_with_a_superlative_names_the_row_it_picks() throws Exception {
        AgentRun oldest = OFFLINE.ask(deaths, "Who was the oldest victim?");
        assertThat(oldest.answer()).contains("Di").contains("61");
    }

    @Test
    void a_persons_age_is_what_their_numbers_and_degrees_ask() throws Exception {
        OFFLINE.answers(deaths, "How old was the youngest victim?", "SELECT min(age) FROM riots");
        OFFLINE.answers(deaths, "What was the age of the youngest victim?", "SELECT min(age) FROM riots");
        OFFLINE.answers(deaths, "How many victims were under 20?", "SELECT count(*) FROM riots WHERE age < 20");
        OFFLINE.answers(deaths, "How many victims were in their twenties?", "SELECT count(*) FROM riots WHERE age BETWEEN 20 AND 29");
        assertThat(OFFLINE.asksBack(matches, "How many matches were under 2?").answer()).contains("'under 2'");
    }

    @Test
    void the_month_of_the_year_is_the_calendar_month_whatever_its_year() throws Exception {
        OFFLINE.answers(matches, "Which month of the year has the most matches?",
                "SELECT monthname(date) FROM football GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
        assertThat(OFFLINE.answers(matches, "Which calendar month has the most matches?",
                "SELECT monthname(date) FROM football GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").answer())
                .contains("'calendar month' → the month of the year of football.date");
        OFFLINE.answers(matches, "Which calendar year has the most matches?", // a calendar year is the date's year
                "SELECT year(date) FROM football GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
    }
}
