package dev.sift.planner;

import dev.sift.agent.AgentRun;
import dev.sift.agent.TurnContext;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on wordings of the third round of question sets written for real files it had not seen: groups
 * asked in an order ("highest first", "rank … by"), the row with the latest date, a value said twice ("California (CA)"),
 * a name said first name first ("Bob Jones" for 'JONES, BOB'), "i.e.", a count of the very rows ranked (asked back),
 * "non-zero", percentages in a range, "more than 10000 in receipts", people counted in a table of counts by sex, values
 * listed with the number they were compared on, a total of a "Total …" column by a group, an average "per" the table's
 * own rows in a ranking, and a value a follow-up says in another spelling. Each answer is checked against independent SQL,
 * row by row and in order.
 */
class OrderAndNamesPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace habitats;
    private static Workspace filings;
    private static Workspace census;
    private static Workspace quakes;

    @BeforeAll
    static void open() throws Exception {
        habitats = RealShapedFiles.habitats();
        filings = RealShapedFiles.filings();
        census = RealShapedFiles.census();
        quakes = RealShapedFiles.quakes();
    }

    @AfterAll
    static void close() {
        habitats.close();
        filings.close();
        census.close();
        quakes.close();
    }

    @Test
    void groups_asked_in_an_order_are_all_ranked_in_it() throws Exception {
        AgentRun ranked = OFFLINE.answers(habitats, "rank the species by their average habitat percentage, highest first",
                "SELECT common_name, avg(habitat_yearround_pct) FROM species GROUP BY 1 ORDER BY 2 DESC");
        assertThat(ranked.answer()).contains("ranked by average species.habitat_yearround_pct, highest first");
        OFFLINE.answers(filings, "number of candidates per candidate state, highest first",
                "SELECT Candidate_State, count(*) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC, 1");
        OFFLINE.answers(filings, "average receipts by party in ascending order",
                "SELECT Party_Affiliation, avg(Total_Receipts) FROM political_contributions GROUP BY 1 ORDER BY 2");
        assertThat(OFFLINE.asksBack(filings, "list the candidates from California, highest first").answer())
                .contains("this question has no groups to order");
    }

    @Test
    void the_row_with_the_latest_date_is_named() throws Exception {
        AgentRun latest = OFFLINE.answers(filings, "which candidate has the latest coverage end date?",
                "SELECT Candidate_Name, Coverage_End_Date FROM political_contributions ORDER BY 2 DESC LIMIT 1");
        assertThat(latest.answer()).contains("has the latest Coverage End Date");
        OFFLINE.answers(filings, "Which candidate has the earliest coverage end date?",
                "SELECT Candidate_Name, Coverage_End_Date FROM political_contributions ORDER BY 2 LIMIT 1");
        OFFLINE.answers(filings, "what is the latest coverage end date?", "SELECT max(Coverage_End_Date) FROM political_contributions");
    }

    @Test
    void names_are_read_as_people_write_them() throws Exception {
        OFFLINE.answers(filings, "How many candidates are from California (CA)?",
                "SELECT count(*) FROM political_contributions WHERE Candidate_State = 'CA'");
        AgentRun bob = OFFLINE.answers(filings, "What were Bob Jones's total receipts?",
                "SELECT sum(Total_Receipts) FROM political_contributions WHERE Candidate_Name = 'JONES, BOB'");
        assertThat(bob.answer()).contains("(the value 'JONES, BOB', written last name first)");
        OFFLINE.answers(filings, "Which candidate spent the most, i.e. had the highest total disbursements?", // not 'LEE, CARL E.'
                "SELECT Candidate_Name, Total_Disbursements FROM political_contributions ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void a_count_of_the_very_rows_ranked_is_asked_back() throws Exception {
        assertThat(OFFLINE.asksBack(filings, "which candidate got the most political contributions?").answer())
                .contains("counting 'political contributions' ranks nothing");
    }

    @Test
    void numbers_compared_in_words_and_ranges() throws Exception {
        OFFLINE.answers(habitats, "which county has the lowest non-zero habitat share for the American Robin?",
                "SELECT county_id, habitat_yearround_pct FROM species WHERE common_name = 'American Robin'"
                        + " AND habitat_yearround_pct <> 0 ORDER BY 2, 1 LIMIT 1");
        OFFLINE.answers(habitats, "how many counties have deer habitat between 20% and 40%?",
                "SELECT count(DISTINCT county_id) FROM species WHERE common_name = 'White-tailed Deer'"
                        + " AND habitat_yearround_pct BETWEEN 0.2 AND 0.4");
        OFFLINE.answers(filings, "How many candidates have more than 10,000 in receipts?",
                "SELECT count(*) FROM political_contributions WHERE Total_Receipts > 10000");
        OFFLINE.answers(census, "Which jobs had more than 1500 men in 1910?",
                "SELECT job, count FROM jobs WHERE sex = 'men' AND year = 1910 AND count > 1500 ORDER BY 1");
    }

    @Test
    void values_listed_by_a_comparison_show_the_number_compared() throws Exception {
        AgentRun run = OFFLINE.answers(habitats, "which counties have more than 80% habitat for the White-tailed Deer?",
                "SELECT county_id, habitat_yearround_pct FROM species WHERE common_name = 'White-tailed Deer'"
                        + " AND habitat_yearround_pct > 0.8 ORDER BY 1");
        assertThat(run.evidence().get(run.evidence().size() - 1).columns()).contains("max_habitat_yearround_pct");
    }

    @Test
    void totals_and_averages_of_a_candidates_own_columns() throws Exception {
        OFFLINE.answers(filings, "total disbursements by party",
                "SELECT Party_Affiliation, sum(Total_Disbursements) FROM political_contributions GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(filings, "What are the total receipts for all candidates combined?",
                "SELECT sum(Total_Receipts) FROM political_contributions");
        OFFLINE.answers(filings, "Which party has the highest average disbursements per candidate?",
                "SELECT Party_Affiliation, avg(Total_Disbursements) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void a_follow_up_value_in_another_spelling_replaces_the_earlier_one() throws Exception {
        OFFLINE.answers(habitats, "what's the average habitat percentage for the American Robin, the White-tailed Deer?",
                "SELECT avg(habitat_yearround_pct) FROM species WHERE common_name = 'White-tailed Deer'",
                new TurnContext("refine", "what about the White-tailed Deer?", java.util.List.of(), java.util.List.of()));
    }

    @Test
    void strongest_and_where_name_the_place_of_the_row() throws Exception {
        AgentRun run = OFFLINE.answers(quakes, "What was the strongest earthquake and where did it happen?",
                "SELECT place, mag FROM earthquakes WHERE type = 'earthquake' ORDER BY mag DESC LIMIT 1");
        assertThat(run.answer()).contains("'strongest' read as the highest magnitude");
        OFFLINE.answers(quakes, "Where was the strongest quake, and how strong was it?",
                "SELECT place, mag FROM earthquakes ORDER BY mag DESC LIMIT 1");
    }

    @Test
    void not_before_a_value_is_every_other_row() throws Exception {
        AgentRun run = OFFLINE.answers(quakes, "how many events are not earthquakes?", "SELECT count(*) FROM earthquakes WHERE type <> 'earthquake'");
        assertThat(run.answer()).contains("not earthquakes.type = 'earthquake'");
        OFFLINE.answers(quakes, "what percentage of the events were not reviewed?",
                "SELECT 100.0 * avg(CASE WHEN status <> 'reviewed' THEN 1 ELSE 0 END) FROM earthquakes");
    }

    @Test
    void flags_ranges_and_shares_said_in_words() throws Exception {
        OFFLINE.answers(quakes, "How many events have the tsunami flag set?", "SELECT count(*) FROM earthquakes WHERE tsunami = 1");
        OFFLINE.answers(quakes, "How many events were flagged for a tsunami?", "SELECT count(*) FROM earthquakes WHERE tsunami = 1");
        OFFLINE.answers(quakes, "How many events were at least magnitude 2 but under 3?",
                "SELECT count(*) FROM earthquakes WHERE mag >= 2 AND mag < 3");
        OFFLINE.answers(quakes, "how many quakes were magnitude 5 or bigger", "SELECT count(*) FROM earthquakes WHERE mag >= 5");
        OFFLINE.answers(filings, "How many candidates have any debts?", "SELECT count(*) FROM political_contributions WHERE Debts_Owed_By > 0");
        OFFLINE.answers(quakes, "Which magnitude type is most common among events of magnitude 4 or more?",
                "SELECT magType, count(*) FROM earthquakes WHERE mag >= 4 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        OFFLINE.answers(filings, "which party has the lowest maximum receipts?",
                "SELECT Party_Affiliation, max(Total_Receipts) FROM political_contributions GROUP BY 1 ORDER BY 2 LIMIT 1");
    }

    @Test
    void the_span_of_the_data_is_its_date_range() throws Exception {
        OFFLINE.answers(quakes, "When does the data start and when does it end?", "SELECT min(time), max(time) FROM earthquakes");
        OFFLINE.answers(census, "what years does this cover? first and last", "SELECT min(year), max(year) FROM jobs");
    }

    @Test
    void a_place_mentioned_in_free_text_is_replaced_by_a_follow_ups_place() throws Exception {
        assertThat(OFFLINE.asksBack(quakes, "How many events were there in Nevada?").answer()) // also written 'NV': which?
                .contains("written both 'nevada' and 'NV'");
        OFFLINE.answers(quakes, "How many events were there in Alaska, Utah?", "SELECT count(*) FROM earthquakes WHERE place LIKE '%Utah%'",
                new TurnContext("refine", "what about Utah?", java.util.List.of(), java.util.List.of()));
    }

    @Test
    void a_table_of_counts_of_people_is_ranked_and_shared_by_its_people() throws Exception {
        OFFLINE.answers(census, "top 2 jobs for men in 1910", "SELECT job, sum(count) FROM jobs WHERE sex = 'men' AND year = 1910"
                + " GROUP BY 1 ORDER BY 2 DESC LIMIT 2");
        AgentRun share = OFFLINE.answers(census, "What percentage of the people working as a Nurse in 1910 were women?",
                "SELECT 100.0 * sum(CASE WHEN sex = 'women' THEN count ELSE 0 END) / sum(count) FROM jobs WHERE job = 'Nurse' AND year = 1910");
        assertThat(share.answer()).contains("of the total jobs.count");
        AgentRun whole = OFFLINE.answers(census, "In 1910, what percentage were women?", // within 1910, not of every census
                "SELECT 100.0 * sum(CASE WHEN sex = 'women' THEN count ELSE 0 END) / sum(count) FROM jobs WHERE year = 1910");
        assertThat(whole.answer()).contains("of the total jobs.count");
        OFFLINE.answers(census, "what percentage of the rows are for women?", "SELECT 100.0 * avg(CASE WHEN sex = 'women' THEN 1 ELSE 0 END) FROM jobs");
        OFFLINE.answers(census, "In which year were there the most female teachers?",
                "SELECT year, sum(count) FROM jobs WHERE sex = 'women' AND job = 'Teacher' GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(census, "Which job employed the most people (men and women together) in 1920?",
                "SELECT job, sum(count) FROM jobs WHERE year = 1920 GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
    }

    @Test
    void values_kept_by_how_many_rows_they_have_and_the_hour_of_the_day() throws Exception {
        OFFLINE.answers(filings, "Which candidate states have more than 2 candidates?",
                "SELECT Candidate_State, count(*) FROM political_contributions GROUP BY 1 HAVING count(*) > 2 ORDER BY 1");
        assertThat(OFFLINE.asksBack(filings, "Which candidate states have more than 1 Republican candidates?").answer())
                .contains("could not tell which number 'more than 1' compares"); // the party would have to be counted within
        OFFLINE.answers(quakes, "what hour of the day (UTC) had the most events?",
                "SELECT hour(time), count(*) FROM earthquakes GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
    }
}
