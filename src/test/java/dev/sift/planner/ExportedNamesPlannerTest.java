package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KnowledgeStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offline planner on files written the way real exports are: names with spaces, capitals, units and
 * abbreviations, a dataset named like its table, a many-valued name column with gaps, state codes, a whole-number
 * year. Each answer is checked against independently written SQL; what it cannot read honestly is asked back.
 */
class ExportedNamesPlannerTest {
    private static final OfflineAnswers OFFLINE = new OfflineAnswers();
    private static Workspace movies;
    private static Workspace cars;

    @BeforeAll
    static void open() throws Exception {
        StringBuilder m = new StringBuilder("Title,Director,IMDB Rating,Worldwide Gross,Running Time min,Major Genre\n");
        for (int i = 0; i < 150; i++) { // more directors than the knowledge graph lists: their names live in the value file
            m.append("Film ").append(i).append(",Director Number").append(i).append(',').append(5 + i % 4).append(".5,")
                    .append(1_000_000 + i * 1000).append(',').append(90 + i % 50).append(",Drama\n");
        }
        m.append("Jaws,Steven Spielberg,8.0,470653000,124,Adventure\n");
        m.append("E.T.,Steven Spielberg,7.9,792910554,115,Adventure\n");
        m.append("Rocky,,8.1,225000000,119,Drama\nUp,,8.3,731304609,96,Adventure\nHeat,,8.2,187436818,170,Action\n");
        movies = Workspace.open(TestDatasets.csv("movies", Map.of("movies.csv", m.toString())), Workspace.Limits.defaults());
        Map<String, String> files = new LinkedHashMap<>();
        files.put("car_models.csv", "Name,Cylinders,Weight_in_lbs,Origin,Year\n"
                + "ford torino,8,3449,USA,1970\nbuick skylark,8,3693,USA,1970\ndatsun 510,4,2130,Japan,1971\n"
                + "toyota corona,4,2372,Japan,1975\nvw rabbit,4,1937,Europe,1975\npontiac safari,8,5140,USA,1971\n"
                + "honda civic,4,1795,Japan,1975\n");
        files.put("airports.csv", "iata,name,state\nIAH,Houston Intercontinental,TX\nDFW,Dallas Fort Worth,TX\n"
                + "SFO,San Francisco International,CA\nLAX,Los Angeles International,CA\nORD,Chicago O'Hare,IL\n");
        cars = Workspace.open(TestDatasets.csv("exported", files), Workspace.Limits.defaults());
    }

    @AfterAll
    static void close() {
        movies.close();
        cars.close();
    }

    private static AgentRun ask(Workspace ws, String q) throws Exception {
        return OFFLINE.ask(ws, q);
    }

    private static AgentRun answers(Workspace ws, String question, String gold) throws Exception {
        return OFFLINE.answers(ws, question, gold);
    }

    @Test
    void a_dataset_named_like_its_table_still_reads_the_table() throws Exception {
        answers(movies, "How many movies are there?", "SELECT count(*) FROM movies");
        answers(movies, "How many records are in the data?", "SELECT count(*) FROM movies");
    }

    @Test
    void names_with_spaces_capitals_and_units_are_read_as_people_say_them() throws Exception {
        answers(movies, "What is the average IMDB rating?", "SELECT avg(\"IMDB Rating\") FROM movies");
        answers(movies, "What is the longest running time of any movie?", "SELECT max(\"Running Time min\") FROM movies");
        answers(movies, "Total worldwide gross by major genre", "SELECT \"Major Genre\", sum(\"Worldwide Gross\") FROM movies"
                + " GROUP BY 1 ORDER BY 1");
        answers(cars, "What is the average weight of the car models?", "SELECT avg(Weight_in_lbs) FROM car_models");
    }

    @Test
    void a_name_of_a_many_valued_column_is_found_and_a_missing_value_never_wins_a_ranking() throws Exception {
        answers(movies, "How many Steven Spielberg movies are there?", "SELECT count(*) FROM movies WHERE Director = 'Steven Spielberg'");
        AgentRun top = answers(movies, "Which director has made the most movies?", "SELECT Director, count(*) FROM movies"
                + " WHERE Director IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1");
        assertThat(top.answer()).contains("Steven Spielberg").doesNotContain("NULL has");
        answers(movies, "For how many movies is the director missing?", "SELECT count(*) FROM movies WHERE Director IS NULL");
    }

    @Test
    void superlatives_numbers_before_columns_and_whole_number_years_are_read() throws Exception {
        AgentRun heaviest = answers(cars, "Which car model is the heaviest?", "SELECT Name, Weight_in_lbs FROM car_models"
                + " ORDER BY Weight_in_lbs DESC LIMIT 1");
        assertThat(heaviest.answer()).contains("pontiac safari").contains("read as the highest weight");
        answers(cars, "How many car models have 8 cylinders?", "SELECT count(*) FROM car_models WHERE Cylinders = 8");
        answers(cars, "How many car models are there per year?", "SELECT Year, count(*) FROM car_models GROUP BY 1 ORDER BY 1");
        answers(cars, "What is the average weight of car models in 1975?", "SELECT avg(Weight_in_lbs) FROM car_models WHERE Year = 1975");
    }

    @Test
    void a_value_said_in_the_plural_as_what_is_counted_is_asked_about_in_a_table_of_one_kind_of_event() throws Exception {
        try (Workspace ws = Workspace.open(TestDatasets.csv("riots", Map.of("riots.csv", "name,type,age\nA,Death,30\n"
                + "B,Homicide,41\nC,Homicide,22\nD,Death,57\n")), Workspace.Limits.defaults())) {
            AgentRun run = ask(ws, "How many deaths are there?");
            assertThat(run.kind()).as(run.answer()).isEqualTo(AnswerKind.CLARIFICATION);
            assertThat(run.answer()).startsWith("'deaths' may be every row of riots or only the rows where riots.type = 'Death'");
            answers(ws, "How many riots have type Death?", "SELECT count(*) FROM riots WHERE type = 'Death'");
        }
    }

    @Test
    void a_value_written_another_way_is_found_through_the_equivalents() throws Exception {
        AgentRun japanese = answers(cars, "How many Japanese car models are there?", "SELECT count(*) FROM car_models WHERE Origin = 'Japan'");
        assertThat(japanese.answer()).contains("written as 'Japan' in the data");
        answers(cars, "How many airports are in Texas?", "SELECT count(*) FROM airports WHERE state = 'TX'");
    }
}
