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
 * The offline planner on files shaped like real public exports (yearly figures per country, deaths per disaster type,
 * electricity per source, match results), asked the way a newcomer asks: general words for the names the file uses
 * ("league" for division, "life expectancy" for life_expect, "fertility rate", "death toll", "generate"), a run of a
 * value's words ("Premier League"), and questions whose honest answer is a question back. Answers are checked against
 * independently written SQL.
 */
class RealWordingPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace countries;
    private static Workspace disasters;
    private static Workspace power;
    private static Workspace football;
    private static Workspace jobs;
    private static Workspace air;
    private static Workspace census;
    private static Workspace flagged;
    private static Workspace cars;
    private static Workspace victims;
    private static Workspace places;

    @BeforeAll
    static void open() throws Exception {
        countries = Workspace.open(TestDatasets.csv("world", Map.of("gapminder.csv", """
                year,country,cluster,pop,life_expect,fertility
                1955,Japan,4,89815060,65.5,2.08
                1955,India,2,393000000,40.2,5.9
                1955,Niger,3,3000000,35.1,7.3
                2005,Japan,4,127417244,82.0,1.27
                2005,India,2,1080264388,64.7,2.81
                2005,Niger,3,12000000,54.0,7.6
                """)), Workspace.Limits.defaults());
        disasters = Workspace.open(TestDatasets.csv("hazards", Map.of("disasters.csv", """
                Entity,Year,Deaths
                All natural disasters,1931,3706227
                Flood,1931,3700000
                Earthquake,1931,6227
                All natural disasters,1976,300000
                Earthquake,1976,276994
                Flood,1976,23006
                """)), Workspace.Limits.defaults());
        power = Workspace.open(TestDatasets.csv("iowa", Map.of("iowa_electricity.csv", """
                year,source,net_generation
                2001-01-01,Fossil Fuels,35361
                2001-01-01,Nuclear Energy,3853
                2001-01-01,Renewables,1437
                2002-01-01,Fossil Fuels,35991
                2002-01-01,Nuclear Energy,4574
                2002-01-01,Renewables,1963
                """)), Workspace.Limits.defaults());
        football = Workspace.open(TestDatasets.csv("league", Map.of("football.csv", """
                date,division,home_team,away_team,home_score,away_score
                2015-12-20,English Premier League,Chelsea,Arsenal,2,1
                2015-12-20,Deutsche Bundesliga,Bayern,Dortmund,0,0
                2015-12-21,Österreichische Bundesliga,Rapid,Sturm,3,1
                2016-01-03,English Premier League,Arsenal,Chelsea,1,1
                """)), Workspace.Limits.defaults());
        jobs = Workspace.open(TestDatasets.csv("jobs", Map.of("unemployment_across_industries.csv", """
                series,year,month,count,rate,date
                Finance,2009,1,540,5.5,2009-01-01T08:00:00.000Z
                Finance,2009,2,560,6.0,2009-02-01T08:00:00.000Z
                Construction,2009,1,1743,18.0,2009-01-01T08:00:00.000Z
                Construction,2009,2,1826,21.0,2009-02-01T08:00:00.000Z
                Finance,2010,1,580,6.5,2010-01-01T08:00:00.000Z
                Construction,2010,1,2000,24.0,2010-01-01T08:00:00.000Z
                """)), Workspace.Limits.defaults());
        air = Workspace.open(TestDatasets.csv("air", Map.of("co2_concentration.csv", """
                Date,CO2,adjusted CO2
                1999-12-01,367.1,368.0
                2000-01-01,369.1,369.3
                2000-02-01,369.5,369.4
                2000-03-01,370.9,369.6
                """)), Workspace.Limits.defaults());
        census = Workspace.open(TestDatasets.csv("census", Map.of("population.csv", """
                year,age,sex,people
                1850,0,1,1483789
                1850,0,2,1450376
                1850,5,1,1411067
                1850,5,2,1359668
                1900,0,1,4619544
                1900,0,2,4589196
                """)), Workspace.Limits.defaults());
        cars = Workspace.open(TestDatasets.csv("autos", Map.of("cars.csv", """
                Name,Origin,Horsepower,Weight_in_lbs
                peugeot 504,Europe,88,3070
                peugeot 604sl,Europe,133,3410
                volvo 264gl,Europe,125,3140
                ford torino,USA,140,3449
                toyota corolla,Japan,75,2155
                """)), Workspace.Limits.defaults());
        victims = Workspace.open(TestDatasets.csv("riots", Map.of("la_riots.csv", """
                first_name,last_name,age,gender
                Vivian,Austin,87,Female
                Vivian,Lee,30,Female
                George,Alvarez,42,Male
                """)), Workspace.Limits.defaults());
        places = Workspace.open(TestDatasets.csv("places", Map.of("zipcodes.csv", """
                zip_code,city,state,latitude,longitude
                99791,Atqasuk,AK,70.49,-157.4
                33040,Key West,FL,24.66,-81.78
                32003,Fleming Island,FL,30.09,-81.71
                04631,Eastport,ME,44.9,-67.0
                """)), Workspace.Limits.defaults());
        flagged = Workspace.open(TestDatasets.csv("flagged", Map.of("population.csv", """
                year,age,sex,people
                1850,0,0,1483789
                1850,0,1,1450376
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        air.close();
        census.close();
        flagged.close();
        cars.close();
        victims.close();
        places.close();
        countries.close();
        disasters.close();
        power.close();
        football.close();
        jobs.close();
    }

    @Test
    void a_general_word_reads_the_kind_of_it_the_file_names_where_the_files_words_echo_that_sense() throws Exception {
        AgentRun run = OFFLINE.answers(football, "Number of matches per league",
                "SELECT division, count(*) FROM football GROUP BY 1 ORDER BY 1");
        assertThat(run.answer()).contains("'league' read as 'division' (a kind of league in WordNet 3.1)");
    }

    @Test
    void a_run_of_a_values_words_names_it_and_a_run_of_several_is_asked_back() throws Exception {
        OFFLINE.answers(football, "How many Premier League games are there?",
                "SELECT count(*) FROM football WHERE division = 'English Premier League'");
        assertThat(OFFLINE.asksBack(football, "How many Bundesliga matches are there?").answer())
                .contains("'Deutsche Bundesliga'").contains("'Österreichische Bundesliga'");
        OFFLINE.answers(power, "What was the total nuclear generation?",
                "SELECT sum(net_generation) FROM iowa_electricity WHERE source = 'Nuclear Energy'");
    }

    @Test
    void a_name_cut_short_or_said_with_a_general_noun_for_a_number_is_the_column() throws Exception {
        OFFLINE.answers(countries, "What was the life expectancy in Japan in 2005?",
                "SELECT life_expect FROM gapminder WHERE country = 'Japan' AND year = 2005");
        OFFLINE.answers(countries, "What was the average fertility rate in 1955?", "SELECT avg(fertility) FROM gapminder WHERE year = 1955");
        OFFLINE.answers(disasters, "What was the total earthquake death toll?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'Earthquake'");
    }

    @Test
    void a_verb_reads_the_number_column_its_noun_names() throws Exception {
        AgentRun run = OFFLINE.answers(power, "How much electricity did renewables generate in total?",
                "SELECT sum(net_generation) FROM iowa_electricity WHERE source = 'Renewables'");
        assertThat(run.answer()).contains("'generate' read as 'generation' (the noun of generate in WordNet 3.1)");
    }

    @Test
    void which_value_has_the_highest_number_ranks_its_highest_value_and_which_year_reads_the_year_column() throws Exception {
        OFFLINE.answers(countries, "Which country had the highest fertility rate in 2005?",
                "SELECT country, max(fertility) FROM gapminder WHERE year = 2005 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(countries, "Which country had the smallest population in 2005?",
                "SELECT country, min(pop) FROM gapminder WHERE year = 2005 GROUP BY 1 ORDER BY 2 LIMIT 1");
        OFFLINE.answers(disasters, "Which year had the highest earthquake death toll?",
                "SELECT Year, max(Deaths) FROM disasters WHERE Entity = 'Earthquake' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void the_values_of_a_column_asked_for_under_a_filter_are_each_listed_once() throws Exception {
        OFFLINE.answers(countries, "Which countries are in cluster 4?", "SELECT DISTINCT country FROM gapminder WHERE cluster = 4");
    }

    @Test
    void questions_with_nothing_to_compute_are_said_back_not_answered() throws Exception {
        assertThat(OFFLINE.asksBack(countries, "What was the population of Japan in 2015?").answer())
                .startsWith("The data has no 2015: gapminder.year runs from 1955 to 2005.");
        assertThat(OFFLINE.asksBack(countries, "Which countries were they?").answer())
                .startsWith("I could not tell what 'they' refers to");
        // "where and when" is answered now (WhenExtremePlannerTest); "where" alone over every year names no one place
        assertThat(OFFLINE.asksBack(countries, "Where was the lowest fertility rate recorded?").answer())
                .startsWith("The question asks where, but the only reading I can build gives the minimum of gapminder.fertility");
        assertThat(OFFLINE.answers(countries, "How many people lived in Japan in 1955?", "SELECT sum(pop) FROM gapminder WHERE"
                + " country = 'Japan' AND year = 1955").answer()).contains("'people' → gapminder.pop")
                .doesNotContain("countryfolk"); // "countryfolk" is country and folk, not the column country cut short
    }

    @Test
    void an_average_per_year_of_an_amount_is_one_average_of_the_yearly_totals_and_says_over_which_years() throws Exception {
        assertThat(OFFLINE.answers(power, "What was the average yearly generation from fossil fuels?", "SELECT avg(t) FROM"
                + " (SELECT year(year), sum(net_generation) AS t FROM iowa_electricity WHERE source = 'Fossil Fuels' GROUP BY 1)")
                .answer()).contains("(over 2 years, 2001 to 2002)").contains("'average yearly' → one figure over the yearly totals");
        OFFLINE.answers(power, "On average, how much electricity did renewables generate per year?", "SELECT avg(t) FROM"
                + " (SELECT year(year), sum(net_generation) AS t FROM iowa_electricity WHERE source = 'Renewables' GROUP BY 1)");
        OFFLINE.answers(power, "What was the median yearly generation from fossil fuels?", "SELECT median(t) FROM"
                + " (SELECT year(year), sum(net_generation) AS t FROM iowa_electricity WHERE source = 'Fossil Fuels' GROUP BY 1)");
        // the largest total of any one year is that figure first, then its year
        assertThat(OFFLINE.answers(power, "What was the most electricity generated in a single year?", "SELECT sum(net_generation)"
                + " FROM iowa_electricity GROUP BY year ORDER BY 1 DESC LIMIT 1").answer())
                .startsWith("The largest of the yearly totals of iowa_electricity.net_generation is 42,528, in year 2002.");
        OFFLINE.answers(power, "What was the lowest total generation in any year, and when was it?", "SELECT sum(net_generation)"
                + " FROM iowa_electricity GROUP BY year ORDER BY 1 LIMIT 1");
        // a level has no yearly total; an average of values per year stays one average in each year
        assertThat(OFFLINE.asksBack(countries, "What was the average yearly life expectancy?").answer())
                .contains("is a level or a label, not an amount that adds up to a yearly total");
        OFFLINE.answers(countries, "What is the average life expectancy per year?",
                "SELECT year, avg(life_expect) FROM gapminder GROUP BY 1 ORDER BY 1");
    }

    @Test
    void a_date_named_year_reads_as_years_and_shares_of_an_amount_are_shares_of_its_total() throws Exception {
        OFFLINE.answers(power, "How many years of data are there?", "SELECT count(DISTINCT year(year)) FROM iowa_electricity");
        OFFLINE.answers(power, "How many different energy sources are there?", "SELECT count(DISTINCT source) FROM iowa_electricity");
        OFFLINE.answers(power, "In how many years did renewables generate more than 10,000?", "SELECT count(DISTINCT"
                + " year(year)) FROM iowa_electricity WHERE source = 'Renewables' AND net_generation > 10000");
        OFFLINE.answers(power, "Show renewable generation for each year",
                "SELECT year(year), net_generation FROM iowa_electricity WHERE source = 'Renewables'");
        assertThat(OFFLINE.answers(power, "Total net generation by source over all the years",
                "SELECT source, sum(net_generation) FROM iowa_electricity GROUP BY source").answer())
                .contains("'over all the years' read as no period");
        AgentRun share = OFFLINE.answers(power, "What share of the electricity came from renewables in 2002?",
                "SELECT 100.0 * sum(net_generation) FILTER (WHERE source = 'Renewables') / sum(net_generation)"
                        + " FROM iowa_electricity WHERE year(year) = 2002");
        assertThat(share.answer()).contains("of the total iowa_electricity.net_generation where iowa_electricity.year = 2002"
                + " comes from rows with iowa_electricity.source = 'Renewables'");
        OFFLINE.answers(countries, "What share of the population lived in Japan in 1955?", "SELECT 100.0 * sum(pop)"
                + " FILTER (WHERE country = 'Japan') / sum(pop) FROM gapminder WHERE year = 1955");
        assertThat(OFFLINE.asksBack(countries, "What share of the fertility rate came from Japan?").answer())
                .contains("or of an amount that adds up, and 'fertility rate'"); // a rate adds up to nothing
    }

    @Test
    void a_general_noun_after_a_number_column_is_that_column_and_a_values_word_with_a_date_is_no_values_question() throws Exception {
        assertThat(OFFLINE.answers(air, "What was the highest CO2 level?", "SELECT max(CO2) FROM co2_concentration").answer())
                .contains("'CO2 level' → co2_concentration.CO2");
        OFFLINE.answers(air, "What was the lowest CO2 reading?", "SELECT min(CO2) FROM co2_concentration");
        OFFLINE.answers(air, "What was the CO2 level in January 2000?",
                "SELECT CO2 FROM co2_concentration WHERE Date = DATE '2000-01-01'");
    }

    @Test
    void rows_that_count_people_are_totalled_sex_codes_are_read_by_iso_5218_and_a_flag_is_asked_about() throws Exception {
        assertThat(OFFLINE.answers(census, "How many children under 5 were there in 1850?",
                "SELECT sum(people) FROM population WHERE age < 5 AND year = 1850").answer())
                .contains("the total of population.people (each population row counts that many people)");
        assertThat(OFFLINE.answers(census, "How many women were there in 1850?", // people, not rows, and whose codes
                "SELECT sum(people) FROM population WHERE sex = 2 AND year = 1850").answer())
                .contains("population.sex = '2' (female; codes read as ISO/IEC 5218 sex codes)");
        OFFLINE.answers(census, "Which age group had the most men in 1900?", "SELECT age, sum(people) FROM population"
                + " WHERE sex = 1 AND year = 1900 GROUP BY age ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(census, "What share of the population was female in 1900?", "SELECT 100.0 * sum(people)"
                + " FILTER (WHERE sex = 2) / sum(people) FROM population WHERE year = 1900");
        assertThat(OFFLINE.asksBack(flagged, "How many women were there in 1850?").answer()) // 0 and 1: no standard's codes
                .contains("'women' would pick rows by population.sex, but none of its values says which sex it is");
        assertThat(OFFLINE.answers(census, "Total population by sex in 1850",
                "SELECT sex, sum(people) FROM population WHERE year = 1850 GROUP BY sex").answer())
                .contains("the total → the table's one amount, population.people");
        OFFLINE.answers(census, "How many people were 5 or older in 1850?", "SELECT sum(people) FROM population"
                + " WHERE age >= 5 AND year = 1850");
        OFFLINE.answers(census, "How many people aged 5 to 9 were there in 1850?", "SELECT sum(people) FROM population"
                + " WHERE age BETWEEN 5 AND 9 AND year = 1850");
        OFFLINE.answers(census, "What share of the population was 5 or over in 1850?", "SELECT 100.0 * sum(people)"
                + " FILTER (WHERE age >= 5) / sum(people) FROM population WHERE year = 1850");
        assertThat(OFFLINE.answers(census, "Break down the population by age group", "SELECT age, sum(people) FROM population"
                + " GROUP BY age").answer()).contains("'Break down' read as 'breakdown of'").contains("'age group' → population.age");
        OFFLINE.answers(census, "How many records are there?", "SELECT count(*) FROM population"); // rows, not people
        OFFLINE.answers(census, "Which age group had the most people in 1850?", "SELECT age, sum(people) FROM population" // not its largest row
                + " WHERE year = 1850 GROUP BY age ORDER BY 2 DESC LIMIT 1");
        assertThat(OFFLINE.asksBack(census, "Which years had a population over 100 million?").answer()) // not an age
                .startsWith("I could not tell which number 'over 100000000' compares");
    }

    @Test
    void a_change_between_two_years_is_the_later_years_figure_against_the_earlier_and_drop_is_a_fall_not_a_command()
            throws Exception {
        AgentRun grew = OFFLINE.answers(power, "How much did renewable generation grow from 2001 to 2002?",
                "SELECT sum(net_generation) FILTER (WHERE year = '2002-01-01') - sum(net_generation) FILTER (WHERE year ="
                        + " '2001-01-01') FROM iowa_electricity WHERE source = 'Renewables'");
        assertThat(grew.answer()).startsWith("The change in the total of iowa_electricity.net_generation where"
                + " iowa_electricity.source = 'Renewables' from 2001 to 2002 is 526: from 1,437 in 2001 to 1,963 in 2002.");
        OFFLINE.answers(power, "By what percent did nuclear generation grow between 2001 and 2002?",
                "SELECT 100.0 * (4574 - 3853) / 3853.0");
        OFFLINE.answers(census, "By how much did the population drop between 1850 and 1900?", "SELECT sum(people) FILTER (WHERE year = 1850)"
                + " - sum(people) FILTER (WHERE year = 1900) FROM population");
        OFFLINE.answers(air, "How much did the average CO2 go up between 1999 and 2000?", "SELECT avg(CO2) FILTER (WHERE Date >= DATE"
                + " '2000-01-01') - avg(CO2) FILTER (WHERE Date < DATE '2000-01-01') FROM co2_concentration");
        assertThat(dev.sift.planner.rules.Guard.check("Drop the iowa_electricity table")).isPresent();
        assertThat(dev.sift.planner.rules.Guard.check("Please drop loan")).isPresent();
        assertThat(dev.sift.planner.rules.Guard.check("By how much did generation drop between 2010 and 2017?")).isEmpty();
        assertThat(OFFLINE.asksBack(countries, "How much did the fertility rate grow from 1955 to 2005?").answer())
                .startsWith("The values of gapminder.fertility do not add up across rows; ask for the change in its average");
    }

    @Test
    void the_first_value_is_the_earliest_rows_and_one_maximum_of_monthly_figures_is_asked_about_not_grouped() throws Exception {
        assertThat(OFFLINE.asksBack(air, "What was the very first CO2 value recorded?").answer())
                .startsWith("'first CO2 value' is the co2_concentration.CO2 of the earliest row by co2_concentration.Date");
        assertThat(OFFLINE.asksBack(air, "What was the maximum monthly CO2 in 2000?").answer())
                .startsWith("'co2_concentration.CO2' is a level or a label, not an amount that adds up to a monthly total; ask"
                        + " for its highest by month");
        assertThat(OFFLINE.answers(air, "How many months had CO2 above 369 ppm?", "SELECT count(*) FROM co2_concentration"
                + " WHERE CO2 > 369").answer()).contains("'ppm' → the unit of the number before it");
        OFFLINE.answers(air, "How many years had CO2 above 369?", "SELECT count(DISTINCT year(Date)) FROM co2_concentration"
                + " WHERE CO2 > 369");
    }

    @Test
    void a_value_pinned_by_a_possessive_and_a_year_is_that_rows_value_and_how_much_totals_what_adds_up() throws Exception {
        OFFLINE.answers(countries, "What was Japan's fertility rate in 1955?",
                "SELECT fertility FROM gapminder WHERE country = 'Japan' AND year = 1955");
        OFFLINE.answers(countries, "Show life expectancy in India for each year",
                "SELECT year, life_expect FROM gapminder WHERE country = 'India'");
        AgentRun run = OFFLINE.answers(power, "How much electricity did Iowa generate from renewables in 2002?",
                "SELECT sum(net_generation) FROM iowa_electricity WHERE source = 'Renewables' AND year(year) = 2002");
        assertThat(run.answer()).contains("'how much' → the total of iowa_electricity.net_generation");
        assertThat(OFFLINE.answers(power, "How much electricity came from nuclear energy in 2001?", "SELECT sum(net_generation)"
                + " FROM iowa_electricity WHERE source = 'Nuclear Energy' AND year(year) = 2001").answer())
                .contains("'how much' → the table's one amount, iowa_electricity.net_generation");
        assertThat(OFFLINE.asksBack(countries, "How much was the fertility rate in 1955?").answer()) // a rate adds up to nothing
                .doesNotContain("'how much' → the total");
    }

    @Test
    void a_whole_number_year_column_is_what_years_names_and_the_n_deadliest_years_rank_years() throws Exception {
        OFFLINE.answers(countries, "Which years are in the data?", "SELECT DISTINCT year FROM gapminder");
        OFFLINE.answers(countries, "How many years of data are there?", "SELECT count(DISTINCT year) FROM gapminder");
        OFFLINE.answers(disasters, "What were the 2 deadliest years for floods?",
                "SELECT Year, Deaths FROM disasters WHERE Entity = 'Flood' ORDER BY Deaths DESC LIMIT 2");
        assertThat(OFFLINE.asksBack(countries, "Which years were those?").answer())
                .startsWith("I could not tell what 'those' refers to");
    }

    @Test
    void a_table_named_as_a_measure_across_a_breakdown_is_the_measure_and_its_listed_column_the_breakdown() throws Exception {
        OFFLINE.answers(jobs, "What was the average unemployment rate in finance in 2009?",
                "SELECT avg(rate) FROM unemployment_across_industries WHERE series = 'Finance' AND year = 2009");
        AgentRun run = OFFLINE.answers(jobs, "Average unemployment rate by industry",
                "SELECT series, avg(rate) FROM unemployment_across_industries GROUP BY 1 ORDER BY 1");
        assertThat(run.answer()).contains("'industry' → unemployment_across_industries.series");
    }

    @Test
    void days_group_and_rank_by_the_date_and_in_which_year_was_x_the_highest_ranks_the_years() throws Exception {
        OFFLINE.answers(football, "How many matches were there each day?",
                "SELECT date, count(*) FROM football GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(football, "Which day had the most matches?",
                "SELECT date, count(*) FROM football GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        AgentRun run = OFFLINE.answers(power, "In which year was nuclear generation the lowest?",
                "SELECT year(year), net_generation FROM iowa_electricity WHERE source = 'Nuclear Energy' ORDER BY 2 LIMIT 1");
        assertThat(run.answer()).contains("read as 'which year had the lowest nuclear generation'");
        OFFLINE.answers(jobs, "In which month was the construction unemployment rate highest?", "SELECT strftime(CAST(date AS"
                + " TIMESTAMP), '%Y-%m'), max(rate) FROM unemployment_across_industries WHERE series = 'Construction' GROUP BY 1"
                + " ORDER BY 2 DESC LIMIT 1"); // read as "which month had the highest …"
    }

    @Test
    void a_verb_that_causes_another_reads_the_caused_verbs_noun_and_its_agent_by_is_no_grouping() throws Exception {
        AgentRun run = OFFLINE.answers(disasters, "How many people were killed by earthquakes in 1976?",
                "SELECT sum(Deaths) FROM disasters WHERE Entity = 'Earthquake' AND Year = 1976");
        assertThat(run.answer()).contains("'killed' read as 'death' (the noun of killed in WordNet 3.1)");
        // the largest yearly total, stated with its year: not a list of each year's largest, nor the largest row
        assertThat(OFFLINE.answers(disasters, "What's the largest number of people killed by floods in a single year?",
                "SELECT Year, sum(Deaths) FROM disasters WHERE Entity = 'Flood' GROUP BY 1 ORDER BY 2 DESC LIMIT 1").answer())
                .contains("'people' → the people disasters.Deaths counts ('killed')");
    }

    @Test
    void a_value_before_the_rows_ranked_keeps_them_ranked_by_the_column_asked() throws Exception {
        // "Which European car": the value opens the rows ranked; never a count of cars per name
        OFFLINE.answers(cars, "Which European car has the most horsepower?", "SELECT Name, Horsepower FROM cars"
                + " WHERE Origin = 'Europe' ORDER BY Horsepower DESC LIMIT 1");
        OFFLINE.answers(cars, "Which 2 European cars have the most horsepower?", "SELECT Name, Horsepower FROM cars"
                + " WHERE Origin = 'Europe' ORDER BY Horsepower DESC LIMIT 2");
    }

    @Test
    void a_person_ranked_is_named_by_first_and_last_name() throws Exception {
        assertThat(OFFLINE.answers(victims, "Who was the oldest victim?", "SELECT first_name, last_name, age FROM la_riots"
                + " ORDER BY age DESC LIMIT 1").answer()).contains("each la_riots row named by la_riots.first_name and la_riots.last_name");
    }

    @Test
    void compass_superlatives_rank_by_latitude_or_longitude() throws Exception {
        assertThat(OFFLINE.answers(places, "What is the northernmost zip code?", "SELECT zip_code, latitude FROM zipcodes"
                + " ORDER BY latitude DESC LIMIT 1").answer()).contains("'northernmost' read as the highest latitude");
        OFFLINE.answers(places, "What is the southernmost zip code in Florida?", "SELECT zip_code, latitude FROM zipcodes"
                + " WHERE state = 'FL' ORDER BY latitude LIMIT 1");
        OFFLINE.answers(places, "What are the 2 easternmost zip codes?", "SELECT zip_code, longitude FROM zipcodes"
                + " ORDER BY longitude DESC LIMIT 2");
        OFFLINE.asksBack(cars, "Which car is the northernmost?"); // no latitude to rank by
    }

    @Test
    void most_populous_is_the_highest_population() throws Exception {
        assertThat(OFFLINE.answers(countries, "What were the 2 most populous countries in 2005?", "SELECT country, pop"
                + " FROM gapminder WHERE year = 2005 ORDER BY pop DESC LIMIT 2").answer())
                .contains("'populous' read as the highest population");
        OFFLINE.answers(countries, "Which country was the least populous in 1955?", "SELECT country, pop FROM gapminder"
                + " WHERE year = 1955 ORDER BY pop LIMIT 1");
    }

    @Test
    void a_chart_word_counted_is_a_thing_not_a_request_for_a_chart() throws Exception {
        // of a table of contests, "draws" are its drawn matches (ContestsPlannerTest), never a request for a picture
        assertThat(OFFLINE.answers(football, "How many draws were there?",
                "SELECT count(*) FROM football WHERE home_score = away_score").answer()).contains("'draws' → draw");
    }
}
