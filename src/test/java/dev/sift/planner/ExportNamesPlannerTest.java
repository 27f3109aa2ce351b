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
 * The offline planner on names as exports write them: a key column that says what each row is
 * (Candidate_Identification: the rows are candidates, though Contributions_from_Candidate also holds the word), a
 * family of columns whose one label is what its first word means ("party" of Party_Code and Party_Affiliation, but not
 * "home" of home_team and home_score), a word an analysis would be asked with that is a column's own name
 * (forecastYear), year columns that are never added up, either word of a two-word table name, and "does the data
 * cover". Answers are checked against independent SQL.
 */
class ExportNamesPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace filings;
    private static Workspace budgets;
    private static Workspace matches;
    private static Workspace industries;
    private static Workspace postcodes;
    private static Workspace garage;

    @BeforeAll
    static void open() throws Exception {
        filings = Workspace.open(TestDatasets.csv("filings", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Party_Code,Party_Affiliation,Total_Receipts,Contributions_from_Candidate
                H1,"SMITH, ANN",1,DEM,3500,100
                H2,"JONES, BOB",2,REP,200,0
                H3,"LEE, CARL",2,REP,900,50
                H4,"KIM, DORA",3,LIB,10,10
                H5,"DIAZ, EVA",1,DEM,0,0
                """)), Workspace.Limits.defaults());
        budgets = Workspace.open(TestDatasets.csv("outlook", Map.of("budgets.csv", """
                budgetYear,forecastYear,value
                2000,2001,-0.2
                2000,2002,-0.1
                2001,2002,0.3
                2001,2003,0.4
                2001,2004,0.5
                """)), Workspace.Limits.defaults());
        StringBuilder autos = new StringBuilder("Name,Origin,Miles_per_Gallon\n");
        for (int i = 0; i < 60; i++) { // more names than the graph lists: found through the value file
            autos.append("ford model ").append(i).append(",USA,").append(15 + i % 10).append('\n')
                    .append("toyota model ").append(i).append(",Japan,").append(25 + i % 10).append('\n');
        }
        autos.append("fordham special,USA,12\ntoyota corolla,Japan,31\ntoyota corolla 1200,Japan,33\ntoyota corolla liftback,Japan,29\n");
        garage = Workspace.open(TestDatasets.csv("garage", Map.of("cars.csv", autos.toString())), Workspace.Limits.defaults());
        matches = Workspace.open(TestDatasets.csv("league", Map.of("league_matches.csv", """
                home_team,away_team,home_score,away_score
                Ajax,PSV,2,1
                PSV,Ajax,0,0
                Ajax,Feyenoord,3,2
                """)), Workspace.Limits.defaults());
        industries = Workspace.open(TestDatasets.csv("industries", Map.of("unemployment_across_industries.csv", """
                series,date,rate
                Construction,2009-01-01,18.2
                Construction,2009-02-01,21.4
                Finance,2009-01-01,6.3
                Finance,2009-02-01,7.0
                """)), Workspace.Limits.defaults());
        StringBuilder zips = new StringBuilder("zip_code,city,state\n90210,Beverly Hills,CA\n10001,New York,NY\nK1A0B1,Ottawa,ON\n"
                + "30582,Towns,GA\n30601,Athens,GA\n");
        for (int i = 0; i < 150; i++) { // more cities than a column lists: they are found through the value file
            zips.append(20000 + i).append(",Place").append((char) ('a' + i % 26)).append((char) ('a' + i / 26)).append(",TX\n");
        }
        postcodes = Workspace.open(TestDatasets.csv("postcodes", Map.of("zipcodes.csv", zips.toString())), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        filings.close();
        budgets.close();
        matches.close();
        garage.close();
        industries.close();
        postcodes.close();
    }

    @Test
    void groups_ranked_by_the_most_different_values_of_a_text_column() throws Exception {
        AgentRun most = OFFLINE.answers(postcodes, "Which state has the most cities?",
                "SELECT state, count(DISTINCT city) FROM zipcodes GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        assertThat(most.answer()).contains("'the most cities' → the number of different zipcodes.city of each zipcodes.state");
        OFFLINE.answers(postcodes, "Which 2 states have the fewest cities?",
                "SELECT state, count(DISTINCT city) FROM zipcodes GROUP BY 1 ORDER BY 2, 1 LIMIT 2");
    }

    @Test
    void a_number_nothing_else_reads_is_the_stored_code_it_spells() throws Exception {
        AgentRun run = OFFLINE.answers(postcodes, "Which state is 90210 in?", "SELECT state FROM zipcodes WHERE zip_code = '90210'");
        assertThat(run.answer()).contains("'90210' → zipcodes.zip_code = '90210' (a stored value)");
        OFFLINE.asksBack(postcodes, "Which state is 55555 in?"); // no such code: nothing to read it as
        OFFLINE.answers(postcodes, "How many zip codes does Ottawa have?", "SELECT count(*) FROM zipcodes WHERE city = 'Ottawa'");
        OFFLINE.answers(postcodes, "How many zip codes does Athens have?", "SELECT count(*) FROM zipcodes WHERE city = 'Athens'");
        OFFLINE.asksBack(postcodes, "How many zip codes does a town have?"); // the word "town" is no city 'Towns'
    }

    @Test
    void the_tables_word_before_its_column_says_whose_column_and_names_no_rows() throws Exception {
        AgentRun run = OFFLINE.answers(industries, "What was the unemployment rate in construction in January 2009?",
                "SELECT rate FROM unemployment_across_industries WHERE series = 'Construction' AND date = DATE '2009-01-01'");
        assertThat(run.answer()).contains(": 18.2.");
        OFFLINE.asksBack(industries, "What was the rate of the unemployment rows?");
    }

    @Test
    void a_key_column_names_what_its_rows_are() throws Exception {
        AgentRun run = OFFLINE.answers(filings, "How many candidates are there?", "SELECT count(*) FROM political_contributions");
        assertThat(run.answer()).contains("'candidates' → table political_contributions");
        OFFLINE.answers(filings, "What are the average total receipts of the candidates?", "SELECT avg(Total_Receipts) FROM political_contributions");
    }

    @Test
    void a_plural_name_is_every_name_it_begins() throws Exception {
        assertThat(OFFLINE.answers(garage, "How many Fords are there?", "SELECT count(*) FROM cars WHERE Name LIKE 'ford %'")
                .answer()).contains("'Fords' → cars.Name begins with 'ford '"); // not 'fordham special'
        OFFLINE.answers(garage, "What is the average mpg of the Toyotas?",
                "SELECT avg(Miles_per_Gallon) FROM cars WHERE Name LIKE 'toyota %'");
        OFFLINE.answers(garage, "How many toyota corolla are there?", "SELECT count(*) FROM cars WHERE Name = 'toyota corolla'");
        assertThat(OFFLINE.asksBack(garage, "How many Hondas are there?").answer()).contains("I could not map 'Hondas'");
        assertThat(OFFLINE.answers(garage, "What is the average mpg of the Toyota Corollas?", "SELECT avg(Miles_per_Gallon)"
                + " FROM cars WHERE Name LIKE 'toyota corolla%'").answer()) // a stored name in the plural: the longer ones too
                .contains("'Toyota Corollas' → cars.Name = 'toyota corolla' or cars.Name begins with 'toyota corolla '");
    }

    @Test
    void the_first_word_of_a_label_and_its_code_is_the_label() throws Exception {
        AgentRun run = OFFLINE.answers(filings, "Which party has the most candidates?",
                "SELECT Party_Affiliation, count(*) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        assertThat(run.answer()).contains("'party' → political_contributions.Party_Affiliation");
        OFFLINE.answers(filings, "What is the total of total receipts by party?",
                "SELECT Party_Affiliation, sum(Total_Receipts) FROM political_contributions GROUP BY 1 ORDER BY 1");
        // home_team beside home_score: "home" is no label of home_team but the side a team played on (ContestsPlannerTest)
        assertThat(OFFLINE.answers(matches, "How many home games did Ajax play?",
                "SELECT count(*) FROM league_matches WHERE home_team = 'Ajax'").answer())
                .contains("'Ajax' → league_matches.home_team = 'Ajax'");
    }

    @Test
    void a_word_that_names_a_column_asks_for_no_forecast_and_a_year_before_a_noun_is_its_year_column() throws Exception {
        AgentRun year = OFFLINE.answers(budgets, "What was the average value in the 2001 budget?",
                "SELECT avg(value) FROM budgets WHERE budgetYear = 2001");
        assertThat(year.answer()).contains("'2001' → budgets.budgetYear = 2001");
        OFFLINE.answers(budgets, "Show the values of the 2000 budget", "SELECT value FROM budgets WHERE budgetYear = 2000");
        AgentRun run = OFFLINE.ask(budgets, "How many projections are in this data?");
        assertThat(run.answer()).doesNotContain("Which table should I use").doesNotContain("Tables: budgets");
    }

    @Test
    void an_analysis_of_a_dataset_of_one_table_asks_no_table() throws Exception {
        AgentRun run = OFFLINE.ask(matches, "profile the data");
        assertThat(run.steps()).hasSize(1);
        assertThat(run.steps().get(0).tool() + " " + run.steps().get(0).args()).isEqualTo("profile_data {\"source\":\"league_matches\"}");
        assertThat(run.answer()).startsWith("Profiled table league_matches (the dataset's only table, league_matches).");
    }

    @Test
    void a_year_column_is_counted_never_added_up() throws Exception {
        AgentRun run = OFFLINE.ask(budgets, "How many forecasts are there?");
        assertThat(run.evidence()).allSatisfy(e -> assertThat(e.sql()).doesNotContainIgnoringCase("sum("));
        OFFLINE.answers(budgets, "How many different forecast years are there?", "SELECT count(DISTINCT forecastYear) FROM budgets");
        AgentRun average = OFFLINE.asksBack(budgets, "What was the average forecast in the 2001 budget?");
        assertThat(average.answer()).contains("budgets.forecastYear holds years, and an average of years is no amount");
    }

    @Test
    void either_word_of_a_two_word_table_name_names_it_and_the_data_covers_values() throws Exception {
        AgentRun run = OFFLINE.answers(matches, "How many matches does the data cover?", "SELECT count(*) FROM league_matches");
        assertThat(run.answer()).contains("'matches' → table league_matches");
        OFFLINE.answers(filings, "How many parties are covered by the data?",
                "SELECT count(DISTINCT Party_Affiliation) FROM political_contributions");
    }
}
