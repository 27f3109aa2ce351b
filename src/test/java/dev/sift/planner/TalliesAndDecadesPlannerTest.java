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
 * Tables whose rows are groups, not things (a tally per course, sex and year; a column named like its table; state
 * names repeated per income bracket), values of two columns, and time words of real files: decades, "for 2000", rows
 * called readings, "the number of" a count column.
 */
class TalliesAndDecadesPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace enrolment;
    private static Workspace air;
    private static Workspace hazards;
    private static Workspace places;
    private static Workspace income;

    @BeforeAll
    static void open() throws Exception {
        enrolment = Workspace.open(TestDatasets.csv("school", Map.of("enrolment.csv", """
                course,sex,year,count
                Algebra,women,2020,40
                Algebra,men,2020,35
                Algebra,women,2021,44
                Biology,women,2020,52
                Biology,men,2020,20
                Biology,men,2021,25
                """)), Workspace.Limits.defaults());
        air = Workspace.open(TestDatasets.csv("air", Map.of("co2_concentration.csv", """
                Date,CO2,adjusted CO2
                1969-12-01,324.6,325.0
                1970-01-01,325.0,325.1
                1975-06-01,333.1,331.0
                1981-03-01,341.2,340.0
                2000-01-01,369.1,369.3
                2000-02-01,369.5,369.4
                """)), Workspace.Limits.defaults());
        hazards = Workspace.open(TestDatasets.csv("hazards", Map.of("disasters.csv", """
                Entity,Year,Deaths
                All natural disasters,1931,3706227
                All natural disasters,1976,300000
                All natural disasters,1979,1000
                Flood,1931,3700000
                Earthquake,1931,6227
                Earthquake,1976,276994
                Flood,1976,23006
                Flood,1979,1000
                """)), Workspace.Limits.defaults());
    }

    @BeforeAll
    static void openPlaces() throws Exception {
        places = Workspace.open(TestDatasets.csv("places", Map.of("zipcodes.csv", """
                zip_code,city,county,state
                90001,Los Angeles,Los Angeles,CA
                90002,Los Angeles,Los Angeles,CA
                91001,Altadena,Los Angeles,CA
                43015,Delaware,Delaware,OH
                19901,Dover,Kent,DE
                19711,Newark,New Castle,DE
                73301,Austin,Travis,TX
                33101,Miami,Miami-Dade,FL
                """)), Workspace.Limits.defaults());
        income = Workspace.open(TestDatasets.csv("income", Map.of("income.csv", """
                name,region,pct,group
                Ohio,midwest,0.1,<10000
                Ohio,midwest,0.9,10000+
                Iowa,midwest,0.2,<10000
                Iowa,midwest,0.8,10000+
                Maine,northeast,0.3,<10000
                Maine,northeast,0.7,10000+
                Vermont,northeast,0.4,<10000
                Vermont,northeast,0.6,10000+
                Texas,south,0.5,<10000
                Texas,south,0.5,10000+
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        places.close();
        income.close();
        enrolment.close();
        air.close();
        hazards.close();
    }

    @Test
    void counting_in_a_table_of_tallies_adds_the_tally_up_unless_the_question_counts_rows() throws Exception {
        AgentRun run = OFFLINE.answers(enrolment, "How many women took Algebra in 2020?",
                "SELECT sum(count) FROM enrolment WHERE sex = 'women' AND course = 'Algebra' AND year = 2020");
        assertThat(run.answer()).contains("each enrolment row counts that many");
        OFFLINE.answers(enrolment, "How many rows are there for Algebra?", "SELECT count(*) FROM enrolment WHERE course = 'Algebra'");
        OFFLINE.answers(enrolment, "Which course had the most women in 2020?",
                "SELECT course, sum(count) FROM enrolment WHERE sex = 'women' AND year = 2020 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void a_noun_naming_both_a_table_and_its_column_counts_and_lists_the_columns_values() throws Exception {
        OFFLINE.answers(enrolment, "How many courses are there?", "SELECT count(DISTINCT course) FROM enrolment");
        OFFLINE.answers(enrolment, "List the courses", "SELECT DISTINCT course FROM enrolment ORDER BY 1");
        OFFLINE.answers(enrolment, "How many courses had men in 2021?",
                "SELECT count(DISTINCT course) FROM enrolment WHERE sex = 'men' AND year = 2021");
    }

    @Test
    void decades_filter_and_group_a_date_or_a_whole_number_year() throws Exception {
        OFFLINE.answers(air, "How many measurements were taken in the 1970s?",
                "SELECT count(*) FROM co2_concentration WHERE year(Date) BETWEEN 1970 AND 1979");
        AgentRun run = OFFLINE.answers(air, "What was the average CO2 level in each decade?",
                "SELECT year(Date) // 10 * 10 AS decade, avg(CO2) FROM co2_concentration GROUP BY 1 ORDER BY 1");
        assertThat(run.answer()).contains("1970 |").doesNotContain("1,970");
        OFFLINE.answers(hazards, "What was the total death toll from floods in the 1970's?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'Flood' AND Year BETWEEN 1970 AND 1979");
        OFFLINE.answers(hazards, "Show the number of deaths from earthquakes in each decade",
                "SELECT Year // 10 * 10, sum(Deaths) FROM disasters WHERE Entity = 'Earthquake' GROUP BY 1 ORDER BY 1");
    }

    @Test
    void a_year_at_the_end_after_for_is_the_year_and_readings_are_the_rows() throws Exception {
        OFFLINE.answers(air, "Show the CO2 readings for 2000",
                "SELECT DISTINCT CO2 FROM co2_concentration WHERE year(Date) = 2000 ORDER BY 1");
        OFFLINE.answers(air, "How many readings are there per year?",
                "SELECT year(Date), count(*) FROM co2_concentration GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(hazards, "What was the number of deaths from earthquakes in 1976?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'Earthquake' AND Year = 1976");
    }

    @Test
    void a_value_of_two_columns_is_settled_by_the_column_named_after_it_or_of_its_kind_and_else_asked_about_naming_all() throws Exception {
        AgentRun run = OFFLINE.answers(places, "How many zip codes are in Los Angeles County?",
                "SELECT count(*) FROM zipcodes WHERE county = 'Los Angeles'");
        assertThat(run.answer()).contains("'Los Angeles' is also zipcodes.city = 'Los Angeles': not here");
        AgentRun state = OFFLINE.answers(places, "List the counties in Delaware", // a city, a county and the state DE
                "SELECT DISTINCT county FROM zipcodes WHERE state = 'DE' ORDER BY 1");
        assertThat(state.answer()).contains("not here, as the column of state names holds it");
        assertThat(OFFLINE.asksBack(places, "How many zip codes are in Los Angeles?").answer())
                .contains("say which you mean (e.g. 'Los Angeles city' or 'Los Angeles county')");
    }

    @Test
    void a_column_whose_values_are_state_names_is_what_states_names_and_its_values_are_listed_once() throws Exception {
        OFFLINE.answers(income, "How many states are in the midwest region?",
                "SELECT count(DISTINCT name) FROM income WHERE region = 'midwest'");
        OFFLINE.answers(income, "List the states in the northeast", "SELECT DISTINCT name FROM income WHERE region = 'northeast'"
                + " ORDER BY 1");
        assertThat(OFFLINE.asksBack(income, "How many countries are there?").answer()).contains("'countries'"); // no country column
    }

    @Test
    void a_table_named_for_its_number_column_averages_and_ranks_by_it_and_the_whole_record_restricts_nothing() throws Exception {
        OFFLINE.answers(air, "What was the average CO2 concentration in 2000?",
                "SELECT avg(CO2) FROM co2_concentration WHERE year(Date) = 2000");
        OFFLINE.answers(air, "In which month was the CO2 concentration highest?", "SELECT strftime(Date, '%Y-%m'), max(CO2)"
                + " FROM co2_concentration GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(air, "What is the average CO2 over the whole record?", "SELECT avg(CO2) FROM co2_concentration");
    }

    @Test
    void a_total_value_beside_its_parts_is_left_out_of_rankings_and_alone_added_up() throws Exception {
        AgentRun run = OFFLINE.answers(hazards, "Which disaster type caused the most deaths in the 1970s?", "SELECT Entity, sum(Deaths)"
                + " FROM disasters WHERE Entity <> 'All natural disasters' AND Year BETWEEN 1970 AND 1979 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(run.answer()).contains("'All natural disasters' is the total of the other values of disasters.Entity: left out");
        OFFLINE.answers(hazards, "How many different kinds of disaster are listed?",
                "SELECT count(DISTINCT Entity) FROM disasters WHERE Entity <> 'All natural disasters'");
        OFFLINE.answers(hazards, "What was the number of deaths in 1976?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'All natural disasters' AND Year = 1976");
        OFFLINE.answers(hazards, "What share of all disaster deaths were caused by floods?", "SELECT 100.0 * sum(Deaths) FILTER"
                + " (WHERE Entity = 'Flood') / sum(Deaths) FROM disasters WHERE Entity <> 'All natural disasters'");
        OFFLINE.answers(hazards, "How many deaths did floods cause in 1976?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'Flood' AND Year = 1976");
    }

    @Test
    void a_count_by_a_group_is_added_up_per_group_and_compare_a_and_b_gives_one_figure_each() throws Exception {
        OFFLINE.answers(hazards, "Earthquake deaths by decade",
                "SELECT Year // 10 * 10, sum(Deaths) FROM disasters WHERE Entity = 'Earthquake' GROUP BY 1 ORDER BY 1");
        AgentRun run = OFFLINE.answers(hazards, "Compare deaths from floods and earthquakes in the 1970s", "SELECT Entity,"
                + " sum(Deaths) FROM disasters WHERE Entity IN ('Flood', 'Earthquake') AND Year BETWEEN 1970 AND 1979 GROUP BY 1 ORDER BY 1");
        assertThat(run.answer()).contains("'Compare' → one figure for each of");
        assertThat(OFFLINE.asksBack(hazards, "How many deaths from floods and earthquakes?").answer())
                .contains("two values of disasters.Entity at once"); // "and" joins values only after "compare"
    }
}
