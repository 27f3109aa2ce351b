package dev.sift.planner;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.data.source.FileLoader;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first session on a real export, as written there: the real {@code cars.json} of
 * {@code ../shared/data/real/} loaded as a user would, and each question the README lists asked offline and checked
 * against SQL written here. Skips when the shared data is absent (a fresh clone has none).
 */
class NewcomerFlowTest {
    private static final Path CARS = Path.of("..", "shared", "data", "real", "cars.json");
    /** The README's questions and the SQL that answers each (written against the data, not the planner). */
    private static final Map<String, String> GOLD = Map.of(
            "How many cars are there?", "SELECT count(*) FROM cars",
            "How many cars are from Japan?", "SELECT count(*) FROM cars WHERE Origin = 'Japan'",
            "What percentage of the cars are American?", "SELECT 100.0 * avg(CASE WHEN Origin = 'USA' THEN 1 ELSE 0 END) FROM cars",
            "What is the average horsepower?", "SELECT avg(Horsepower) FROM cars",
            "Average mpg by origin", "SELECT Origin, avg(Miles_per_Gallon) FROM cars GROUP BY 1 ORDER BY 1",
            "How many cars have 8 cylinders?", "SELECT count(*) FROM cars WHERE Cylinders = 8",
            "Which car is the heaviest?", "SELECT Name, Weight_in_lbs FROM cars ORDER BY Weight_in_lbs DESC NULLS LAST LIMIT 1",
            "What are the 5 lightest cars?", "SELECT Name, Weight_in_lbs FROM cars ORDER BY Weight_in_lbs LIMIT 5",
            "Average weight of cars from 1975", "SELECT avg(Weight_in_lbs) FROM cars WHERE year(Year) = 1975",
            "For how many cars is the mpg missing?", "SELECT count(*) FROM cars WHERE Miles_per_Gallon IS NULL");

    @TempDir
    Path home;

    /** The questions of the README's block after "./sift ask --dataset cars", two to a line. */
    private static List<String> readmeQuestions() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int at = readme.indexOf("./sift ask --dataset cars \"…\"");
        assertThat(at).as("the README's first session").isPositive();
        String block = readme.substring(at, readme.indexOf("```", at));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^  (.+?)(?:\\s{2,}(.+))?$").matcher(block);
        while (m.find()) {
            out.add(m.group(1).trim());
            if (m.group(2) != null) {
                out.add(m.group(2).trim());
            }
        }
        return out;
    }

    @Test
    void every_question_of_the_readmes_first_session_is_answered_from_the_real_file() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(CARS), "needs ../shared/data/real/cars.json (the shared real data); skipped");
        List<String> questions = readmeQuestions();
        assertThat(questions).containsExactlyInAnyOrderElementsOf(GOLD.keySet());
        Dataset cars = new DatasetStore(home).ensure("cars", new FileLoader(List.of(CARS)), Progress.NONE);
        KnowledgeStore knowledge = new KnowledgeStore();
        try (Workspace ws = Workspace.open(cars, Workspace.Limits.defaults())) {
            for (String q : questions) {
                AgentRun run = new AgentLoop(new RulePlanner(), Sift.defaultTools(), ws, null, AgentConfig.defaults())
                        .knowledge(knowledge).run(q);
                assertThat(run.kind()).as(q + " → " + run.answer()).isEqualTo(AnswerKind.ANSWER);
                var rows = run.evidence().get(run.evidence().size() - 1).rows();
                var expected = ws.query(GOLD.get(q)).rows();
                assertThat(rows).as(q + " → " + run.answer()).hasSameSizeAs(expected);
                for (int r = 0; r < expected.size(); r++) {
                    assertThat(rows.get(r)).as(q + " → " + run.answer()).containsAll(expected.get(r));
                }
            }
        }
    }
}
