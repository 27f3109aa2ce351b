package dev.sift.planner;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every SQL example a prompt resource teaches (each `backticked` span of src/main/resources/prompts) runs in
 * DuckDB on a small table of the columns the examples name, and gives a value: a broken example cannot ship.
 */
class PromptSqlExamplesTest {
    private static final Path PROMPTS = Path.of("src/main/resources/prompts");
    private static final Pattern EXAMPLE = Pattern.compile("`([^`\\n]+)`");
    private static Connection duck;

    @BeforeAll
    static void exampleTables() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE a AS SELECT 'custid_12' AS x, '#A-12' AS id");
            st.execute("CREATE TABLE b AS SELECT 'custref_12' AS y, 'a12' AS id");
            for (String macro : dev.sift.data.TextMacros.statements()) { // the text macros every workspace has
                st.execute(macro);
            }
            st.execute("CREATE TABLE t AS SELECT '{\"field\": \"{''key'': True, ''other'': False}\", \"a\": {\"b\": 1}}'::JSON"
                    + " AS doc, 'April 01, 2017 at 12:15 PM' AS stamp_text, 'Opened in 1998, moved in 2004' AS note,"
                    + " '42' AS code, '930705' AS text, DATE '2024-03-01' AS d, DATE '1980-05-06' AS born,"
                    + " DATE '2024-01-02' AS day, 'Hl.m. Praha' AS city, 'March 5th 2023' AS col");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        duck.close();
    }

    static Map<String, String> examples() throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(PROMPTS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                Matcher m = EXAMPLE.matcher(Files.readString(f));
                while (m.find()) {
                    out.put(m.group(1), f.getFileName().toString());
                }
            }
        }
        return out;
    }

    private static String run(String example) throws SQLException {
        String sql = example.matches("(?is)\\s*(SELECT|WITH)\\b.*") ? example : "SELECT " + example + " FROM a, b, t";
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void every_sql_example_in_the_prompts_runs_and_gives_a_value() throws Exception {
        Map<String, String> examples = examples();
        assertThat(examples).as("the prompts teach SQL by example").hasSizeGreaterThanOrEqualTo(10);
        List<String> broken = new ArrayList<>();
        for (Map.Entry<String, String> e : examples.entrySet()) {
            try {
                if (run(e.getKey()) == null) {
                    broken.add(e.getValue() + ": `" + e.getKey() + "` gives NULL on the example row");
                }
            } catch (SQLException ex) {
                broken.add(e.getValue() + ": `" + e.getKey() + "` fails: " + ex.getMessage().lines().findFirst().orElse(""));
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void the_examples_give_the_values_they_promise() throws Exception {
        assertThat(run("regexp_extract(a.x, '([0-9]+)$', 1) = regexp_extract(b.y, '([0-9]+)$', 1)")).isEqualTo("true");
        assertThat(run("(doc->>'field') LIKE '%''key'': True%'")).isEqualTo("true");
        assertThat(run("coalesce(try_strptime(stamp_text, '%Y-%m-%d %H:%M:%S'), try_strptime(stamp_text,"
                + " '%B %d, %Y at %I:%M %p'))")).startsWith("2017-04-01 12:15:00");
        assertThat(run("regexp_extract(note, '([0-9]{4})', 1)")).isEqualTo("1998");
    }

    @Test
    void without_parentheses_an_arrow_comparison_does_not_mean_what_it_reads() throws Exception {
        // why the rule asks for parentheses: DuckDB binds the arrows more loosely than comparisons
        assertThat(run("(doc->>'field') <> 'None' AND (doc->>'field') LIKE '%key%'")).isEqualTo("true");
        assertThatThrownBy(() -> run("doc->>'field' <> 'None' AND doc->>'field' LIKE '%key%'"))
                .hasMessageContaining("Conversion Error: Failed to cast value to numerical");
        assertThatThrownBy(() -> run("doc->'field' LIKE '%key%'")).hasMessageContaining("json_extract(JSON, BOOLEAN)");
    }
}
