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
 * The offline planner on wordings of the sixth round of question sets written for real files, most of them follow-up
 * turns: a row named by a title shown with the numbers the title is written from and when it happened, a column named
 * right after its own values listed, a one-letter code after another, a column whose name ends in "by" before a grouping,
 * "same for X", "the max", a range said lowest to highest, "which … and how deep was it", "which month do most … fall
 * in", "are there any …? who?", and a word of several columns' names left for the question back. Each answer is checked
 * against independent SQL, row by row and in order.
 */
class SixthRoundPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace feed;
    private static Workspace ledger;
    private static Workspace trades;

    @BeforeAll
    static void open() throws Exception {
        StringBuilder events = new StringBuilder("id,mag,place,title,time,felt,type,status,alert,nst,sig,net\n");
        String[] types = {"earthquake", "earthquake", "explosion", "quarry blast"};
        String[] places = {"km N of Ely, Nevada", "km E of Moab, Utah", "km W of Hilo, Hawaii"};
        for (int i = 0; i < 150; i++) { // more places than the graph lists: mentioned names are found through the value file
            double mag = (i * 37 % 150) / 25.0;
            String place = (i + 1) + places[i % 3];
            events.append("ev").append(i).append(',').append(mag).append(",\"").append(place).append("\",\"M ").append(mag)
                    .append(" - ").append(place).append("\",2018-02-0").append(1 + i % 7).append(" 1").append(i % 10).append(":00:00,")
                    .append(i % 4 == 0 ? "" : String.valueOf(i * 7 % 50)).append(',').append(types[i % 4]).append(',')
                    .append(i % 3 == 0 ? "automatic" : "reviewed").append(',').append(i % 11 == 0 ? "green" : "").append(',')
                    .append(10 + i * 13 % 70).append(',').append(i * 29 % 900).append(',').append(i % 2 == 0 ? "ak" : "ci").append('\n');
        }
        feed = Workspace.open(TestDatasets.csv("feed", Map.of("earthquakes.csv", events.toString())), Workspace.Limits.defaults());
        ledger = Workspace.open(TestDatasets.csv("ledger", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Incumbent_Challenger_Status,Party_Affiliation,Debts_Owed_By,Transfers_from_Authorized_Committees,Transfers_to_Authorized_Committees,Ending_Cash,Coverage_End_Date
                H1,"SMITH, ANN",C,DEM,100,5,0,-50,2015-01-31
                H2,"JONES, BOB",O,REP,900,0,7,300,2015-01-31
                H3,"LEE, CARL",C,DEM,0,0,0,7000,2015-03-31
                H4,"KIM, DORA",I,REP,250,3,2,4500,2015-01-30
                H5,"DIAZ, EVA",O,DEM,40,0,0,-10,2015-06-30
                """)), Workspace.Limits.defaults());
        StringBuilder jobs = new StringBuilder("job,sex,year,count\nEngineer,men,1900,500\nEngineer - Civil,men,1900,300\n"
                + "Engineer - Mining,men,1900,200\nEngineer,men,1910,600\nFarmer,men,1900,900\n");
        for (int k = 0; k < 300; k++) { // as many job names as a census has: a column whose values are not listed
            jobs.append("Trade ").append(k).append(",men,1900,").append(k).append('\n');
        }
        trades = Workspace.open(TestDatasets.csv("trades", Map.of("jobs.csv", jobs.toString())), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        feed.close();
        ledger.close();
        trades.close();
    }

    @Test
    void a_row_named_by_a_title_shows_the_numbers_it_is_written_from_and_when_it_happened() throws Exception {
        var run = OFFLINE.answers(feed, "Which quake got the most felt reports?",
                "SELECT title, place, time, mag, felt FROM earthquakes ORDER BY felt DESC NULLS LAST, id LIMIT 1");
        assertThat(run.evidence().get(0).sql()).contains("earthquakes.mag").contains("earthquakes.time");
        OFFLINE.answers(feed, "Which event was the strongest, and how big was it?",
                "SELECT title, place, time, mag FROM earthquakes ORDER BY mag DESC NULLS LAST, id LIMIT 1");
        OFFLINE.answers(feed, "what's the range of magnitudes, lowest to highest?", "SELECT min(mag), max(mag) FROM earthquakes");
    }

    @Test
    void event_feed_wordings_read_as_their_columns_and_rows() throws Exception {
        OFFLINE.answers(feed, "When was the most recent event in the file, and where was it?",
                "SELECT title, place, mag, time FROM earthquakes ORDER BY time DESC NULLS LAST, id LIMIT 1"); // by time, not size
        OFFLINE.answers(feed, "what's the strongest magnitude each network recorded?",
                "SELECT net, max(mag) FROM earthquakes GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(feed, "Which quakes got a green alert? Give me the place and magnitude.",
                "SELECT place, mag, id FROM earthquakes WHERE alert = 'green' ORDER BY id");
        OFFLINE.answers(feed, "What percentage of the events have been reviewed (as opposed to automatic)?",
                "SELECT 100.0 * avg(CASE WHEN status = 'reviewed' THEN 1 ELSE 0 END) FROM earthquakes");
        OFFLINE.answers(feed, "What was the largest number of stations (nst) used for one event?", "SELECT max(nst) FROM earthquakes");
        OFFLINE.answers(feed, "Which event had the highest significance score?", // a column's score, not a prediction's
                "SELECT title, place, time, mag, sig FROM earthquakes ORDER BY sig DESC NULLS LAST, id LIMIT 1");
        OFFLINE.answers(feed, "how many events were felt by anyone?", "SELECT count(*) FROM earthquakes WHERE felt >= 1");
        OFFLINE.answers(feed, "How many of these are actual earthquakes, not explosions or quarry blasts?", // these: the data's rows
                "SELECT count(*) FROM earthquakes WHERE type = 'earthquake'");
        OFFLINE.answers(feed, "how many events were not explosions or quarry blasts?",
                "SELECT count(*) FROM earthquakes WHERE type NOT IN ('explosion', 'quarry blast')");
        OFFLINE.asksBack(feed, "how many earthquakes were there?"); // every row, or those of type 'earthquake'?
        assertThat(OFFLINE.ask(feed, "how many of these are actual earthquakes vs explosions or quarry blasts?").answer())
                .contains("a value and a list of others"); // never 0 from a value and a list that exclude each other
        OFFLINE.answers(feed, "Could you compare the average magnitude of earthquakes, explosions and quarry blasts?",
                "SELECT type, avg(mag) FROM earthquakes GROUP BY 1 ORDER BY 1");
    }

    @Test
    void a_column_named_right_after_its_own_values_is_what_is_listed() throws Exception {
        OFFLINE.answers(trades, "list the engineer jobs",
                "SELECT DISTINCT job FROM jobs WHERE job = 'Engineer' OR job LIKE 'Engineer %' ORDER BY 1");
        OFFLINE.answers(trades, "how many jobs mention engineer?", // the word anywhere, any case: not the value 'Engineer' alone
                "SELECT count(DISTINCT job) FROM jobs WHERE lower(job) LIKE '%engineer%'");
        OFFLINE.answers(trades, "How many job titles start with Engineer?", "SELECT count(DISTINCT job) FROM jobs WHERE job LIKE 'Engineer%'");
        OFFLINE.answers(trades, "list the jobs that start with Engineer",
                "SELECT * FROM jobs WHERE job LIKE 'Engineer%'"); // no value before the column: the rows
    }

    @Test
    void ledger_wordings_read_as_their_columns() throws Exception {
        OFFLINE.answers(ledger, "average debts owed by party",
                "SELECT Party_Affiliation, avg(Debts_Owed_By) FROM political_contributions GROUP BY 1 ORDER BY 1");
        OFFLINE.answers(ledger, "which month do most coverage end dates fall in?",
                "SELECT monthname(Coverage_End_Date), count(*) FROM political_contributions GROUP BY 1 ORDER BY 2 DESC LIMIT 1");
        OFFLINE.answers(ledger, "are there any candidates with negative ending cash? who?",
                "SELECT * FROM political_contributions WHERE Ending_Cash < 0 ORDER BY Candidate_Identification");
        OFFLINE.asksBack(ledger, "what are the transfers for each party?"); // transfers in or out: two columns' word
        OFFLINE.asksBack(ledger, "How many candidates have incumbent challenger status C, O?"); // two values at once
    }

    @Test
    void follow_ups_replace_a_value_or_an_aggregate_of_the_turns_before() throws Exception {
        OFFLINE.answers(ledger, "How many candidates have incumbent challenger status C, O?",
                "SELECT count(*) FROM political_contributions WHERE Incumbent_Challenger_Status = 'O'",
                new TurnContext("refine", "and O?", List.of(), List.of()));
        OFFLINE.answers(ledger, "max debts owed by party",
                "SELECT Party_Affiliation, max(Debts_Owed_By) FROM political_contributions GROUP BY 1 ORDER BY 1",
                new TurnContext("refine", "what about the max?", List.of(), List.of()));
        // turn 3 names no place: the one turn 2 said replaces turn 1's still
        OFFLINE.answers(feed, "How many events were in Hawaii in Utah, what's their average magnitude?",
                "SELECT avg(mag) FROM earthquakes WHERE lower(place) LIKE '%utah%'",
                new TurnContext("refine", "what's their average magnitude?", List.of(), List.of(), List.of("and in Utah?")));
    }
}
