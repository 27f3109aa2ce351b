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
 * The offline planner on wordings of the fourth round of question sets written for real files: verbs of money ("raised",
 * "spent") ranking groups by their total, two columns of one row compared, "raised nothing", a text column kept by how
 * its values begin, a name explained in brackets, a percentage of a column's different values, "whose", "how many A and
 * how many B", "between magnitude 2 and 3", the weekday with the most rows, a column's words said apart ("coverage
 * periods ended"), a follow-up's value in the earlier turn's column, counts of people never added across censuses, and
 * "the share of each species in county X" listed where the data has one row for each.
 * Each answer is checked against independent SQL, row by row and in order.
 */
class FourthRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace filings;
    private static Workspace habitats;
    private static Workspace quakes;
    private static Workspace census;
    private static Workspace networks;

    @BeforeAll
    static void open() throws Exception {
        filings = RealShapedFiles.filings();
        habitats = RealShapedFiles.habitats();
        quakes = RealShapedFiles.quakes();
        census = RealShapedFiles.census();
        networks = Workspace.open(TestDatasets.csv("networks", Map.of("earthquakes.csv", """
                id,network,source,mag
                a1,north,north,1.2
                a2,north,north,2.5
                n1,south,north,0.8
                n2,south,south,1.9
                n3,south,south,3.1
                u1,west,west,4.4
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        filings.close();
        habitats.close();
        quakes.close();
        census.close();
        networks.close();
    }

    @Test
    void verbs_of_money_rank_groups_by_their_total_and_compare_two_columns_of_a_row() throws Exception {
        OFFLINE.answers(filings, "Which party spent the most money?", "SELECT Party_Affiliation, sum(Total_Disbursements)"
                + " FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 1"); // all it spent, not its largest row
        OFFLINE.answers(filings, "Which candidate raised the most money?",
                "SELECT Candidate_Name, Total_Receipts FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(filings, "How many candidates spent more than they raised?",
                "SELECT count(*) FROM political_contributions WHERE Total_Disbursements > Total_Receipts");
        OFFLINE.answers(filings, "How many candidates have higher debts than their receipts?",
                "SELECT count(*) FROM political_contributions WHERE Debts_Owed_By > Total_Receipts");
        OFFLINE.answers(filings, "how many candidates spent nothing at all?",
                "SELECT count(*) FROM political_contributions WHERE Total_Disbursements = 0");
        OFFLINE.answers(filings, "What is the median amount spent per candidate?",
                "SELECT median(Total_Disbursements) FROM political_contributions");
        OFFLINE.answers(filings, "What's the total amount spent by all the candidates combined?",
                "SELECT sum(Total_Disbursements) FROM political_contributions");
        OFFLINE.answers(filings, "Whose debts are the largest?",
                "SELECT Candidate_Name, Debts_Owed_By FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(filings, "How many candidates lent money to their own campaign?", // any, not each one's amount
                "SELECT count(*) FROM political_contributions WHERE Loans_from_Candidate > 0");
        OFFLINE.answers(filings, "How much did candidates lend to their own campaigns in total?", // not Other_Loans, not repayments
                "SELECT sum(Loans_from_Candidate) FROM political_contributions");
        OFFLINE.asksBack(filings, "How many candidates spent more than they took in?"); // never "spent any", the rest dropped
        OFFLINE.answers(filings, "How many different parties show up in the data?",
                "SELECT count(DISTINCT Party_Affiliation) FROM political_contributions");
    }

    @Test
    void a_date_column_said_apart_and_the_weekday_with_the_most_rows() throws Exception {
        OFFLINE.answers(filings, "How many coverage periods ended in September 2015?",
                "SELECT count(*) FROM political_contributions WHERE month(Coverage_End_Date) = 9 AND year(Coverage_End_Date) = 2015");
        OFFLINE.answers(filings, "On which day of the week did the most coverage periods end?", "SELECT dayname(Coverage_End_Date),"
                + " count(*) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
    }

    @Test
    void prefixes_glosses_and_shares_of_a_columns_different_values() throws Exception {
        OFFLINE.answers(habitats, "average white-tailed deer habitat in counties whose id starts with 0100",
                "SELECT avg(habitat_yearround_pct) FROM species WHERE common_name = 'White-tailed Deer' AND county_id LIKE '0100%'");
        var glossed = OFFLINE.answers(habitats, "Average white-tailed deer habitat across Lowland counties (county ids beginning"
                + " with 0101)?", "SELECT avg(habitat_yearround_pct) FROM species WHERE common_name = 'White-tailed Deer'"
                + " AND county_id LIKE '0101%'");
        assertThat(glossed.answer()).contains("'Lowland' read as what the brackets after it say");
        OFFLINE.asksBack(habitats, "Average white-tailed deer habitat across Lowland counties?"); // no bracket: not read
        OFFLINE.answers(habitats, "Please show the habitat share of each species in county 01003.", // one row each
                "SELECT common_name, habitat_yearround_pct FROM species WHERE county_id = '01003' ORDER BY 1");
        assertThat(OFFLINE.asksBack(habitats, "What is the habitat share of each species in counties whose id starts with 0100?")
                .answer()).contains("each species.common_name has several rows here"); // several counties: no one value each
        OFFLINE.answers(habitats, "What percentage of counties have over 50% robin habitat?", "SELECT 100.0 * count(DISTINCT"
                + " county_id) FILTER (WHERE common_name = 'American Robin' AND habitat_yearround_pct > 0.5)"
                + " / count(DISTINCT county_id) FROM species");
    }

    @Test
    void two_counts_at_once_magnitudes_between_and_when_with_where() throws Exception {
        OFFLINE.answers(quakes, "How many automatic and how many reviewed events are there?",
                "SELECT status, count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(quakes, "How many seismic records had a magnitude above 4?", "SELECT count(*) FROM earthquakes WHERE mag > 4");
        var week = OFFLINE.answers(quakes, "What was the strongest quake this week?", // the data spans six days
                "SELECT id, mag FROM earthquakes ORDER BY mag DESC, id LIMIT 1");
        assertThat(week.answer()).contains("'this week' → every row: earthquakes.time runs from 2018-02-01 to 2018-02-07");
        OFFLINE.asksBack(filings, "Which candidate raised the most money this week?"); // a year of filings: no week to read
        OFFLINE.answers(quakes, "Can you break the events down by type and give me a count for each?",
                "SELECT type, count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
        var biggest = OFFLINE.answers(quakes, "list the 3 biggest quakes with their place and magnitude", // as "strongest" ranks
                "SELECT place, mag FROM earthquakes ORDER BY mag DESC, id LIMIT 3");
        assertThat(biggest.evidence().get(0).columns()).containsExactly("place", "mag"); // the magnitude shown once
        OFFLINE.answers(quakes, "how many quakes between magnitude 2 and 3?", "SELECT count(*) FROM earthquakes WHERE mag BETWEEN 2 AND 3");
        OFFLINE.answers(quakes, "When was the most recent event, and where was it?", // both said: the place, and the time
                "SELECT place, time FROM earthquakes ORDER BY time DESC, id LIMIT 1");
    }

    @Test
    void a_follow_up_value_in_the_earlier_turns_column_of_a_dataset_named_like_that_column() throws Exception {
        OFFLINE.answers(networks, "How many earthquakes are there by network?", // dataset "networks": its column still
                "SELECT network, count(*) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(networks, "How many earthquakes did the north network record, south?", "SELECT count(*) FROM earthquakes"
                + " WHERE network = 'south'", new TurnContext("refine", "what about south?", List.of(), List.of())); // not source = 'south'
    }

    @Test
    void counts_of_people_are_not_added_across_censuses() throws Exception {
        assertThat(OFFLINE.asksBack(census, "Which job had the most women overall?").answer()).isNotEmpty();
        assertThat(OFFLINE.asksBack(census, "How many women are there?").answer())
                .contains("counts the people at one moment, so a total over several years would count them again");
        assertThat(OFFLINE.answers(census, "How many jobs had zero women in 1900?",
                "SELECT count(DISTINCT job) FROM jobs WHERE sex = 'women' AND count = 0 AND year = 1900").answer())
                .contains("'zero women' → jobs.count = 0"); // none counted, not no rows
        OFFLINE.answers(census, "In which year did the number of female teachers peak?",
                "SELECT year, sum(count) FROM jobs WHERE sex = 'women' AND job = 'Teacher' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(census, "which year had the most women?",
                "SELECT year, sum(count) FROM jobs WHERE sex = 'women' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }
}
