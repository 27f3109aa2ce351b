package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.agent.TurnContext;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on a table of head-to-head results (a team and a score column for each side): the goals of a
 * match are both scores added, a home win, an away win and a draw are comparisons of the two scores, a team found on
 * both sides is settled by the side the question names, and "win"/"lose" are then that side's result. Contest verbs
 * ("scored", "ended") are filler there and unmapped elsewhere; a team's own goals are never read as the match's.
 * Answers are checked against independent SQL.
 */
class ContestsPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace league;
    private static Workspace fixtures;

    @BeforeAll
    static void open() throws Exception {
        league = Workspace.open(TestDatasets.csv("league", Map.of("football.csv", """
                date,division,home_team,away_team,home_score,away_score
                2015-08-01,Serie A,Juventus,Roma,2,1
                2015-08-08,Serie A,Roma,Juventus,0,0
                2015-08-15,Serie A,Juventus,Milan,1,3
                2016-01-10,Serie A,Milan,Roma,4,0
                2016-01-17,Premier League,Chelsea,Arsenal,1,1
                2016-01-17,Premier League,Arsenal,Chelsea,2,3
                2016-02-01,Premier League,Chelsea,Everton,,
                """)), Workspace.Limits.defaults());
        fixtures = Workspace.open(TestDatasets.csv("fixtures", Map.of("fixtures.csv", """
                date,home_team,away_team,venue
                2015-08-01,Juventus,Roma,Turin
                2015-08-08,Roma,Juventus,Rome
                """)), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        league.close();
        fixtures.close();
    }

    @Test
    void goals_are_both_scores_and_wins_and_draws_compare_them() throws Exception {
        AgentRun avg = OFFLINE.answers(league, "What is the average number of goals per match?",
                "SELECT avg(home_score + away_score) FROM football");
        assertThat(avg.answer()).contains("'number of goals' → combined score");
        OFFLINE.answers(league, "How many goals were scored in Serie A?",
                "SELECT sum(home_score + away_score) FROM football WHERE division = 'Serie A'");
        OFFLINE.answers(league, "How many matches had more than 3 goals?",
                "SELECT count(*) FROM football WHERE home_score + away_score > 3");
        assertThat(OFFLINE.answers(league, "How many games were won by the home team?",
                "SELECT count(*) FROM football WHERE home_score > away_score").answer()).startsWith("There are 2 games where");
        OFFLINE.answers(league, "How many matches were draws?", "SELECT count(*) FROM football WHERE home_score = away_score");
        OFFLINE.answers(league, "What percentage of matches ended in a draw?", // the unscored match is no draw
                "SELECT 100.0 * avg(CASE WHEN home_score = away_score THEN 1 ELSE 0 END) FROM football");
        OFFLINE.answers(league, "How many away wins were there in 2016?",
                "SELECT count(*) FROM football WHERE away_score > home_score AND year(date) = 2016");
        OFFLINE.answers(league, "How many draws were there in each division?", "SELECT division, count(*) FILTER (WHERE"
                + " home_score = away_score) FROM football GROUP BY 1 ORDER BY 1");
        assertThat(OFFLINE.answers(league, "Which match had the most goals?", "SELECT *, home_score + away_score FROM football"
                + " ORDER BY 7 DESC LIMIT 1").answer()) // no name column: the whole row, its score too
                .contains("each football row shown by football.date, football.division, football.home_team, football.away_team,"
                        + " football.home_score, football.away_score");
        assertThat(OFFLINE.answers(league, "How many goals were scored in Serie A, and the average per match?",
                "SELECT avg(home_score + away_score) FROM football WHERE division = 'Serie A'", new TurnContext("refine",
                        "and the average per match instead?", List.of(), List.of())).answer())
                .contains("'average' replaces 'how many' of the earlier turn");
        OFFLINE.answers(league, "What was the biggest home win, in goal difference?",
                "SELECT max(home_score - away_score) FROM football WHERE home_score > away_score");
    }

    @Test
    void a_team_on_both_sides_is_settled_by_the_side_named_and_its_own_goals_are_asked_about() throws Exception {
        assertThat(OFFLINE.answers(league, "How many home games did Juventus play?",
                "SELECT count(*) FROM football WHERE home_team = 'Juventus'").answer())
                .contains("'Juventus' → football.home_team = 'Juventus'");
        OFFLINE.answers(league, "How many matches did Roma play, home or away?",
                "SELECT count(*) FROM football WHERE home_team = 'Roma' OR away_team = 'Roma'");
        assertThat(OFFLINE.answers(league, "How many home games did Juventus win?",
                "SELECT count(*) FROM football WHERE home_team = 'Juventus' AND home_score > away_score").answer())
                .contains("'win' → the home side's win: football.home_score > football.away_score");
        OFFLINE.answers(league, "How many away games did Chelsea lose?",
                "SELECT count(*) FROM football WHERE away_team = 'Chelsea' AND away_score < home_score");
        OFFLINE.answers(league, "How many home goals did Milan score?", "SELECT sum(home_score) FROM football WHERE home_team = 'Milan'");
        assertThat(OFFLINE.asksBack(league, "How many goals did Juventus score in home games?").answer())
                .contains("'goals' here may be the goals of both sides in home games or the team's own");
        OFFLINE.answers(league, "Which 2 teams won the most home games?", "SELECT home_team, count(*) FROM football"
                + " WHERE home_score > away_score GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2");
        assertThat(OFFLINE.answers(league, "Which team scored the most goals at home?", // goals add up, a score in general not
                "SELECT home_team, sum(home_score) FROM football GROUP BY 1 ORDER BY 2 DESC NULLS LAST LIMIT 1").answer())
                .contains("'team' → football.home_team");
        OFFLINE.answers(league, "How many different teams played at home in Serie A?",
                "SELECT count(DISTINCT home_team) FROM football WHERE division = 'Serie A'");
        assertThat(OFFLINE.asksBack(league, "How many matches did Juventus play?").answer()) // no side named
                .contains("'juventus' is a value of football.home_team and football.away_team");
    }

    @Test
    void contest_words_mean_nothing_without_scores() throws Exception {
        assertThat(OFFLINE.asksBack(fixtures, "How many goals were scored in Turin?").answer())
                .contains("I could not map 'goals', 'scored'");
        assertThat(OFFLINE.asksBack(fixtures, "How many home wins were there?").answer()).contains("I could not map");
    }
}
