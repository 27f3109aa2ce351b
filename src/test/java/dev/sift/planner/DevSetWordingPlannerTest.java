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
 * The offline planner on wordings met in question sets written for real files it had not seen: a noun of a column's
 * name that no other name holds ("habitat"), a run of a long name's words ("individual contributions"), a share column
 * holding shares of one ("more than 90%" is 0.9), decimals, a table whose rows are not what its noun names (species ×
 * counties), the last word of a name ("the robin"), a name mentioned inside free-text places ("in Alaska"), the hour of
 * the day, a record-keeping date beside the event's own, party codes, "whose" and row words. Answers are checked
 * against independent SQL.
 */
class DevSetWordingPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace habitats;
    private static Workspace quakes;
    private static Workspace filings;

    @BeforeAll
    static void open() throws Exception {
        StringBuilder species = new StringBuilder("item_id,common_name,scientific_name,county_id,habitat_yearround_pct\n");
        String[][] kinds = {{"1", "American Robin", "Turdus migratorius"}, {"2", "American Bullfrog", "Lithobates catesbeianus"},
            {"3", "White-tailed Deer", "Odocoileus virginianus"}};
        for (int county = 0; county < 12; county++) {
            for (int k = 0; k < kinds.length; k++) {
                species.append(kinds[k][0]).append(',').append(kinds[k][1]).append(',').append(kinds[k][2]).append(",0")
                        .append(1001 + county).append(',').append(String.format(java.util.Locale.ROOT, "%.2f", ((county * 7 + k * 3) % 11) / 10.0))
                        .append('\n');
            }
        }
        habitats = Workspace.open(TestDatasets.csv("wildlife", Map.of("species.csv", species.toString())), Workspace.Limits.defaults());
        StringBuilder events = new StringBuilder("id,mag,place,time,updated,type\n");
        String[] regions = {"Alaska", "CA", "California", "Hawaii", "Nevada"};
        for (int i = 0; i < 150; i++) { // more places than the graph lists: mentioned names are found through the value file
            String place = (i % 9 + 1) + "km N of Town" + (char) ('a' + i % 26) + (char) ('a' + i / 26) + ", " + regions[i % regions.length];
            events.append("ev").append(i).append(',').append((i % 50) / 10.0).append(",\"").append(place).append("\",2018-02-0")
                    .append(1 + i % 3).append(' ').append(String.format("%02d", i % 24)).append(":15:00,2018-03-01 00:00:00,")
                    .append(i % 10 == 0 ? "explosion" : "earthquake").append('\n');
        }
        quakes = Workspace.open(TestDatasets.csv("feed", Map.of("earthquakes.csv", events.toString())), Workspace.Limits.defaults());
        filings = Workspace.open(TestDatasets.csv("filings", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Party_Affiliation,Total_Individual_Contributions,Refunds_to_Individuals,Coverage_End_Date
                H1,"SMITH, ANN",DEM,3500,900,2015-06-30
                H2,"JONES, BOB",REP,200,0,2015-12-31
                H3,"LEE, CARL",REP,900,50,2015-09-30
                H4,"KIM, DORA",LIB,10,10,2015-03-31
                H5,"DIAZ, EVA",DEM,0,0,2015-06-30
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        habitats.close();
        quakes.close();
        filings.close();
    }

    @Test
    void a_noun_of_one_columns_name_names_that_column() throws Exception {
        AgentRun run = OFFLINE.answers(habitats, "What is the average habitat share of the American Robin?",
                "SELECT avg(habitat_yearround_pct) FROM species WHERE common_name = 'American Robin'");
        assertThat(run.answer()).contains("'habitat share' → species.habitat_yearround_pct");
        OFFLINE.answers(habitats, "How many counties are there?", "SELECT count(DISTINCT county_id) FROM species");
    }

    @Test
    void a_percentage_of_a_column_of_shares_of_one_is_its_share() throws Exception {
        OFFLINE.answers(habitats, "How many counties are more than 70% habitat for the American Robin?",
                "SELECT count(DISTINCT county_id) FROM species WHERE habitat_yearround_pct > 0.7 AND common_name = 'American Robin'");
        OFFLINE.answers(habitats, "How many counties have a habitat share over 0.75 for the American Robin?",
                "SELECT count(DISTINCT county_id) FROM species WHERE habitat_yearround_pct > 0.75 AND common_name = 'American Robin'");
    }

    @Test
    void a_table_noun_whose_rows_are_not_one_each_counts_its_names() throws Exception {
        OFFLINE.answers(habitats, "How many different species are in this data?", "SELECT count(DISTINCT common_name) FROM species");
        AgentRun rows = OFFLINE.answers(habitats, "How many rows are there?", "SELECT count(*) FROM species");
        assertThat(rows.answer()).contains("There are 36 species rows."); // not 36 species: there are 3
        OFFLINE.answers(habitats, "Average habitat share for each species",
                "SELECT common_name, avg(habitat_yearround_pct) FROM species GROUP BY 1 ORDER BY 1");
        OFFLINE.asksBack(habitats, "Which county has the most habitat?"); // of which species, or all of them added?
        OFFLINE.answers(habitats, "Which county has the highest habitat share for the White-tailed Deer?",
                "SELECT county_id, max(habitat_yearround_pct) FROM species WHERE common_name = 'White-tailed Deer' "
                        + "GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
    }

    @Test
    void the_last_word_of_a_name_is_that_name() throws Exception {
        AgentRun run = OFFLINE.answers(habitats, "What is the median habitat share of the bullfrog?",
                "SELECT median(habitat_yearround_pct) FROM species WHERE common_name = 'American Bullfrog'");
        assertThat(run.answer()).contains("'bullfrog' → species.common_name = 'American Bullfrog'");
    }

    @Test
    void a_run_of_a_long_names_words_names_it_before_one_word_of_another() throws Exception {
        AgentRun run = OFFLINE.answers(filings, "Which candidate got the most in individual contributions?",
                "SELECT Candidate_Name, Total_Individual_Contributions FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        assertThat(run.answer()).contains("'individual contributions' → political_contributions.Total_Individual_Contributions");
    }

    @Test
    void party_names_find_their_codes_and_whose_ranks_the_named_rows() throws Exception {
        OFFLINE.answers(filings, "How many republicans are there?", "SELECT count(*) FROM political_contributions WHERE Party_Affiliation = 'REP'");
        OFFLINE.answers(filings, "What is the total of individual contributions of Democrats?",
                "SELECT sum(Total_Individual_Contributions) FROM political_contributions WHERE Party_Affiliation = 'DEM'");
        OFFLINE.answers(filings, "Whose report has the latest coverage end date?", // the candidate, not the date alone
                "SELECT Candidate_Name, Coverage_End_Date FROM political_contributions ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void decimals_hours_and_the_events_own_date() throws Exception {
        OFFLINE.answers(quakes, "How many events had a magnitude above 3.5?", "SELECT count(*) FROM earthquakes WHERE mag > 3.5");
        OFFLINE.answers(quakes, "how many events per day?",
                "SELECT CAST(time AS DATE), count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(quakes, "Number of events by hour", "SELECT hour(time), count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.asksBack(habitats, "Number of species by hour"); // no time of day in the data
    }

    @Test
    void a_name_mentioned_inside_free_text_places() throws Exception {
        AgentRun run = OFFLINE.answers(quakes, "What's the average magnitude of the quakes in Alaska?",
                "SELECT avg(mag) FROM earthquakes WHERE place LIKE '%Alaska%'");
        assertThat(run.answer()).contains("'Alaska' → earthquakes.place mentions 'alaska'");
        OFFLINE.answers(quakes, "How many explosions were there in Hawaii?",
                "SELECT count(*) FROM earthquakes WHERE type = 'explosion' AND place LIKE '%Hawaii%'");
        AgentRun both = OFFLINE.asksBack(quakes, "How many events were located in California?"); // also written 'CA'
        assertThat(both.answer()).contains("written both 'california' and 'CA'");
        OFFLINE.asksBack(quakes, "How many events were in a town?"); // a common word is no name
    }

    @Test
    void the_most_common_value_when_the_tables_name_is_also_a_value() throws Exception {
        OFFLINE.answers(quakes, "What's the most common type?",
                "SELECT type, count(*) FROM earthquakes GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(quakes, "Can you break the events down by type?",
                "SELECT type, count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
    }
}
