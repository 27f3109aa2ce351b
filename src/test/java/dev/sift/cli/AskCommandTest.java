package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static dev.sift.cli.CliHarness.count;
import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift ask}: the JSON contract, the human output, and every usage error (exit 2, one stderr line). */
class AskCommandTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    /** Runs {@code ask --json}, checks the envelope every run has, and returns the parsed object. */
    private static JsonNode askJson(String question, String... more) throws Exception {
        CliHarness.assumeOffline();
        List<String> args = new ArrayList<>(List.of("ask", question, "--json"));
        args.addAll(List.of(more));
        CliHarness.Result r = ok(args.toArray(String[]::new));
        assertThat(r.out().strip().lines()).as("one JSON object on one line").hasSize(1);
        JsonNode o = r.json();
        assertThat(o.isObject()).isTrue();
        for (String field : List.of("answer", "kind", "status", "evidence", "steps", "notes", "run_id", "trace")) {
            assertThat(o.has(field)).as("field %s in %s", field, o).isTrue();
        }
        assertThat(o.get("evidence").isArray()).isTrue();
        assertThat(o.get("steps").isArray()).isTrue();
        assertThat(o.get("notes").isArray()).isTrue();
        for (JsonNode e : o.get("evidence")) {
            assertThat(e.has("sql") && e.has("columns") && e.has("rows") && e.has("row_count")).as("evidence %s", e).isTrue();
        }
        for (JsonNode s : o.get("steps")) {
            assertThat(s.has("tool") && s.has("args") && s.has("ok") && s.has("summary")).as("step %s", s).isTrue();
        }
        assertThat(o.get("run_id").asText()).isNotBlank();
        Path trace = Path.of(o.get("trace").asText());
        assertThat(trace).isRegularFile().startsWith(home);
        JsonNode saved = new ObjectMapper().readTree(trace.toFile());
        assertThat(saved.get("runId").asText()).isEqualTo(o.get("run_id").asText());
        assertThat(saved.get("question").asText()).isEqualTo(question);
        return o;
    }

    private static List<String> strings(String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("datasets/bank.duckdb"), ro);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void counts_loans_from_the_data() throws Exception {
        JsonNode o = askJson("How many loans are there?");
        long loans = count(home, "bank", "SELECT count(*) FROM loan");
        assertThat(loans).isPositive();

        assertThat(o.get("kind").asText()).isEqualTo("answer");
        assertThat(o.get("status").asText()).isEqualTo("rule_based");
        assertThat(o.get("dataset").asText()).isEqualTo("bank");
        JsonNode e = o.get("evidence").get(0);
        assertThat(e.get("sql").asText()).isEqualTo("SELECT count(*) AS n FROM loan");
        assertThat(e.get("rows").get(0).get(0).asLong()).isEqualTo(loans);
        assertThat(e.get("row_count").asLong()).isEqualTo(1);
        assertThat(e.get("truncated").asBoolean()).isFalse();
        assertThat(o.get("steps").get(0).get("tool").asText()).isEqualTo("run_sql");
        assertThat(o.get("steps").get(0).get("ok").asBoolean()).isTrue();
        assertThat(o.get("answer").asText()).contains(String.valueOf(loans));
        assertThat(o.get("notes").toString()).contains("offline");

        // the same number through the sql command
        CliHarness.Result csv = ok("sql", "SELECT count(*) FROM loan", "--format", "csv");
        assertThat(csv.out().lines().toList()).containsExactly("count_star()", String.valueOf(loans));
    }

    @Test
    void a_trend_answer_carries_its_chart_in_the_charts_field() throws Exception {
        JsonNode o = askJson("is there a trend in the number of loans per month?");
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        JsonNode charts = o.get("charts");
        assertThat(charts.size()).isEqualTo(1);
        assertThat(charts.get(0).get("tool").asText()).isEqualTo("trend_analysis");
        assertThat(charts.get(0).at("/spec/$schema").asText()).contains("vega-lite");
        assertThat(charts.get(0).at("/spec/layer").size()).isEqualTo(2);
    }

    @Test
    void a_result_grouped_by_year_gets_a_suggested_line_with_readable_titles_and_column_formats() throws Exception {
        JsonNode o = askJson("number of loans per year");
        JsonNode chart = o.get("charts").get(0);
        assertThat(chart.get("suggested").asBoolean()).isTrue();
        assertThat(chart.at("/spec/mark/type").asText()).isEqualTo("line");
        assertThat(chart.at("/spec/encoding/x/title").asText()).isEqualTo("Year");
        assertThat(chart.at("/spec/encoding/y/title").asText()).isEqualTo("Loan count");
        assertThat(o.get("evidence").get(0).get("formats").toString()).isEqualTo("[\"year\",\"count\"]");
    }

    @Test
    void a_count_is_said_in_the_tables_own_words() throws Exception {
        JsonNode o = askJson("How many loans are there?");
        assertThat(o.get("answer").asText()).matches("(?s)There are \\d+ loans\\..*");
        assertThat(o.get("charts").size()).isZero();
    }

    @Test
    void counts_cards_filtered_by_a_value_that_occurs_in_the_data() throws Exception {
        JsonNode o = askJson("How many cards are gold?");
        long gold = count(home, "bank", "SELECT count(*) FROM card WHERE type = 'gold'");
        assertThat(gold).isPositive();
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        assertThat(o.get("status").asText()).isEqualTo("rule_based");
        JsonNode e = o.get("evidence").get(0);
        assertThat(e.get("sql").asText()).isEqualTo("SELECT count(*) AS n FROM card WHERE card.type = 'gold'");
        assertThat(e.get("rows").get(0).get(0).asLong()).isEqualTo(gold);
    }

    @Test
    void counts_loans_of_one_year() throws Exception {
        JsonNode o = askJson("how many loans in 1996");
        long in1996 = count(home, "bank", "SELECT count(*) FROM loan WHERE year(date) = 1996");
        long all = count(home, "bank", "SELECT count(*) FROM loan");
        assertThat(in1996).isPositive().isLessThan(all);
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        JsonNode e = o.get("evidence").get(0);
        assertThat(e.get("sql").asText()).isEqualTo("SELECT count(*) AS n FROM loan WHERE year(loan.date) = 1996");
        assertThat(e.get("rows").get(0).get(0).asLong()).isEqualTo(in1996);
    }

    @Test
    void asks_back_instead_of_guessing_a_word_it_cannot_map() throws Exception {
        JsonNode o = askJson("How many loans churned?");
        assertThat(o.get("kind").asText()).isEqualTo("clarification");
        assertThat(o.get("status").asText()).isEqualTo("llm_disabled");
        assertThat(o.get("answer").asText()).contains("'churned'");
        assertThat(o.get("evidence")).isEmpty();
    }

    @Test
    void lists_the_tables_for_a_schema_question() throws Exception {
        JsonNode o = askJson("what tables are there?");
        List<String> tables = strings("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1");
        assertThat(tables).hasSize(8).contains("loan", "card", "trans", "order");
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        assertThat(o.get("steps").get(0).get("tool").asText()).isEqualTo("inspect_data");
        assertThat(o.get("answer").asText()).contains(tables);
    }

    @Test
    void samples_the_values_of_a_column() throws Exception {
        JsonNode o = askJson("what values does loan.status take?");
        List<String> statuses = strings("SELECT DISTINCT status FROM loan WHERE status IS NOT NULL ORDER BY 1");
        assertThat(statuses).isNotEmpty();
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        JsonNode step = o.get("steps").get(0);
        assertThat(step.get("tool").asText()).isEqualTo("sample_values");
        assertThat(step.get("args").get("source").asText()).isEqualTo("loan");
        assertThat(step.get("args").get("column").asText()).isEqualTo("status");
        assertThat(o.get("answer").asText()).contains(statuses);
    }

    @Test
    void human_output_shows_the_answer_its_evidence_and_the_status() throws Exception {
        CliHarness.assumeOffline();
        long loans = count(home, "bank", "SELECT count(*) FROM loan");
        CliHarness.Result r = ok("ask", "How many loans are there?");
        assertThat(r.out()).contains(String.valueOf(loans))
                .containsPattern("(?m)^Evidence: SELECT count\\(\\*\\) AS n FROM loan$")
                .containsPattern("(?m)^\\[answer · status rule_based · planner offline · 1 steps? · \\d+ ms · trace .+\\.json]$");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void a_clarification_exits_zero_in_human_output_too() {
        CliHarness.assumeOffline();
        CliHarness.Result r = ok("ask", "How many loans churned?");
        assertThat(r.out()).contains("'churned'").doesNotContain("Evidence:")
                .contains("[clarification · status llm_disabled · planner offline");
    }

    @Test
    void a_run_within_a_budget_of_one_step_still_answers() throws Exception {
        JsonNode o = askJson("How many loans are there?", "--max-steps", "1");
        assertThat(o.get("kind").asText()).isEqualTo("answer");
        assertThat(o.get("evidence").get(0).get("rows").get(0).get(0).asLong())
                .isEqualTo(count(home, "bank", "SELECT count(*) FROM loan"));
    }

    @Test
    void unknown_dataset_lists_the_available_ones() {
        assertThat(usageError("ask", "How many loans are there?", "--dataset", "nope"))
                .isEqualTo("sift: error: Unknown dataset 'nope'. Available: bank.");
        assertThat(run("ask", "x", "--dataset", "nope").out()).isEmpty();
        assertThat(usageError("ask", "How many loans are there?", "--dataset", "../bank"))
                .startsWith("sift: error: Unknown dataset '../bank'.");
    }

    @Test
    void max_rows_sets_the_evidence_rows_and_a_negative_count_is_a_usage_error() throws Exception {
        JsonNode all = askJson("How many loans are there?", "--max-rows", "0");
        assertThat(all.at("/evidence/0/rows").size()).isEqualTo(1);
        assertThat(all.at("/evidence/0/truncated").asBoolean()).isFalse();
        assertThat(usageError("ask", "How many loans are there?", "--max-rows", "-1"))
                .isEqualTo("sift: error: --max-rows -1 is negative: give a number of rows, or 0 for all");
    }

    @Test
    void empty_question_is_a_usage_error() {
        String expected = "sift: error: The question is empty: ask something, e.g. ./sift ask \"How many loans are there?\"";
        assertThat(usageError("ask", "")).isEqualTo(expected);
        assertThat(usageError("ask", "  \t ")).isEqualTo(expected);
    }

    @Test
    void step_budget_out_of_range_is_a_usage_error() {
        assertThat(usageError("ask", "How many loans are there?", "--max-steps", "0"))
                .isEqualTo("sift: error: max steps must be between 1 and 100, got 0");
        assertThat(usageError("ask", "How many loans are there?", "--max-steps", "101"))
                .isEqualTo("sift: error: max steps must be between 1 and 100, got 101");
        assertThat(usageError("ask", "How many loans are there?", "--max-steps", "many"))
                .startsWith("sift: error: Invalid value for option '--max-steps': 'many' is not an int");
    }

    @Test
    void missing_question_is_a_usage_error() {
        CliHarness.Result r = run("ask");
        assertThat(r.out()).isEmpty();
        assertThat(usageError("ask"))
                .isEqualTo("sift: error: Missing required parameter: 'QUESTION' (try 'sift ask --help')");
        assertThat(usageError("ask", "--json")).startsWith("sift: error: Missing required parameter: 'QUESTION'");
    }

    @Test
    void unknown_subcommand_and_option_are_usage_errors() {
        assertThat(usageError("frobnicate"))
                .isEqualTo("sift: error: Unmatched argument at index 0: 'frobnicate' (try 'sift --help')");
        assertThat(usageError("ask", "How many loans are there?", "--jsn"))
                .startsWith("sift: error: Unknown option: '--jsn'");
    }

    @Test
    void trace_files_are_written_under_the_home() throws Exception {
        JsonNode o = askJson("How many cards are gold?");
        Path trace = Path.of(o.get("trace").asText());
        assertThat(trace.getParent()).isEqualTo(home.resolve("traces"));
        assertThat(trace.getFileName().toString()).isEqualTo(o.get("run_id").asText() + ".json");
        try (var files = Files.list(home.resolve("traces"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }
}
