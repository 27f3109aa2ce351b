package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static org.assertj.core.api.Assertions.assertThat;

/** The {@code join_paths} example of docs/knowledge.md passes {@code sift kg check} on the dataset it describes. */
class KgJoinDocTest {
    @TempDir
    static Path home;
    @TempDir
    static Path data;

    @BeforeAll
    static void travel() throws Exception {
        CliHarness.useHome(home);
        Path flights = Files.writeString(data.resolve("flights.csv"), """
                date,origin,destination,delay,distance
                2001-01-01,SFO,LAX,12,337
                2001-01-01,LAX,SFO,-3,337
                2001-01-02,SFO,SEA,40,679
                2001-01-03,SEA,SFO,0,679
                """);
        Path airports = Files.writeString(data.resolve("airports.csv"), """
                iata,name,city,state
                SFO,San Francisco International,San Francisco,CA
                LAX,Los Angeles International,Los Angeles,CA
                SEA,Seattle-Tacoma International,Seattle,WA
                """);
        ok("load", "travel", flights.toString(), airports.toString());
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    /** The YAML block under "**Joins in the file.**" in docs/knowledge.md. */
    private static String documentedExample() throws Exception {
        String doc = Files.readString(Path.of("docs/knowledge.md"));
        int at = doc.indexOf("**Joins in the file.**");
        assertThat(at).as("the joins paragraph of docs/knowledge.md").isNotNegative();
        Matcher m = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(m.find(at)).as("a yaml block after the joins paragraph").isTrue();
        return m.group(1);
    }

    @Test
    void the_documented_join_example_passes_kg_check_and_is_an_approved_join() throws Exception {
        Path file = Files.writeString(data.resolve("travel.kg.yaml"), documentedExample());
        assertThat(ok("kg", "check", "travel", file.toString()).out()).contains("OK: ", "1 joins");
        assertThat(ok("kg", "show", "travel", "--section", "joins", "--kg", file.toString()).out())
                .contains("flights.origin", "airports.iata");
    }

    @Test
    void the_example_with_a_misspelt_column_names_the_line_and_the_columns_there_are() throws Exception {
        Path file = Files.writeString(data.resolve("typo.kg.yaml"), documentedExample().replace("airports.iata", "airports.iatta"));
        CliHarness.Result r = run("kg", "check", "travel", file.toString());
        assertThat(r.exit()).isEqualTo(Main.USAGE_ERROR);
        assertThat(r.out()).containsPattern("typo\\.kg\\.yaml:\\d+: join_paths\\[flight_origin\\]: column airports\\.iatta does"
                + " not exist\\. Table airports has columns: iata, name, city, state\\.");
    }
}
