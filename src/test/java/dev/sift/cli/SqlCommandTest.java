package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.sift.cli.CliHarness.count;
import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.run;
import static dev.sift.cli.CliHarness.sha256;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift sql}: the three output formats, the row cap, and refusals that leave the dataset untouched. */
class SqlCommandTest {
    @TempDir
    static Path home;
    static Path bankFile;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
        bankFile = home.resolve("datasets/bank.duckdb");
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void table_output_is_aligned_under_a_header_rule() {
        CliHarness.Result r = ok("sql", "SELECT * FROM (VALUES (1, 'xyz'), (22, 'q'), (3, NULL)) t(a, long_name) ORDER BY a");
        assertThat(r.out().lines().toList()).containsExactly(
                "a  | long_name",
                "---+----------",
                "1  | xyz",
                "3  | NULL",
                "22 | q",
                "(3 rows)");
        assertThat(r.err()).isEmpty();
        assertThat(ok("sql", "SELECT 42 AS answer").out().lines().toList())
                .containsExactly("answer", "------", "42", "(1 row)");
        assertThat(ok("sql", "SELECT 1 AS a WHERE false").out().lines().toList())
                .containsExactly("a", "-", "(0 rows)");
    }

    @Test
    void table_output_of_a_dataset_query_lines_up_every_column() throws Exception {
        CliHarness.Result r = ok("sql", "SELECT status, count(*) AS n, min(amount) AS smallest FROM loan GROUP BY status ORDER BY status");
        List<String> lines = r.out().lines().toList();
        long groups = count(home, "bank", "SELECT count(DISTINCT status) FROM loan");
        assertThat(lines).hasSize((int) groups + 3);
        assertThat(lines.get(0)).matches("status +\\| n +\\| smallest");
        assertThat(lines.get(1)).matches("-+\\+-+\\+-+");
        int bar1 = lines.get(1).indexOf('+');
        int bar2 = lines.get(1).lastIndexOf('+');
        for (String line : lines.subList(0, lines.size() - 1)) {
            if (line != lines.get(1)) {
                assertThat(line.charAt(bar1)).as("aligned: %s", line).isEqualTo('|');
                assertThat(line.charAt(bar2)).as("aligned: %s", line).isEqualTo('|');
            }
        }
        assertThat(lines.get(lines.size() - 1)).isEqualTo("(" + groups + " rows)");
    }

    @Test
    void csv_quotes_commas_quotes_and_newlines() {
        CliHarness.Result r = ok("sql", "SELECT 'a,b' AS x, 'say \"hi\"' AS y", "--format", "csv");
        assertThat(r.out()).isEqualTo("x,y" + System.lineSeparator() + "\"a,b\",\"say \"\"hi\"\"\"" + System.lineSeparator());

        CliHarness.Result more = ok("sql", "SELECT 'plain' AS \"a,b\", NULL AS n, 'line1' || chr(10) || 'line2' AS nl, 2.5 AS d",
                "--format", "csv");
        assertThat(more.out()).isEqualTo("\"a,b\",n,nl,d" + System.lineSeparator()
                + "plain,,\"line1\nline2\",2.5" + System.lineSeparator());
    }

    @Test
    void csv_of_a_dataset_query_has_one_line_per_row() throws Exception {
        CliHarness.Result r = ok("sql", "SELECT loan_id, status FROM loan ORDER BY loan_id", "--format", "csv");
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("loan_id,status");
        assertThat(lines).hasSize((int) count(home, "bank", "SELECT count(*) FROM loan") + 1);
        assertThat(lines.get(1)).isEqualTo(count(home, "bank", "SELECT min(loan_id) FROM loan") + ","
                + ok("sql", "SELECT status FROM loan ORDER BY loan_id LIMIT 1", "--format", "csv").out().lines().toList().get(1));
    }

    @Test
    void json_is_an_array_of_objects() throws Exception {
        CliHarness.Result r = ok("sql", "SELECT loan_id, status, date, amount FROM loan ORDER BY loan_id LIMIT 3",
                "--format", "json");
        JsonNode rows = r.json();
        assertThat(rows.isArray()).isTrue();
        assertThat(rows).hasSize(3);
        long firstId = count(home, "bank", "SELECT min(loan_id) FROM loan");
        for (JsonNode row : rows) {
            assertThat(row.isObject()).isTrue();
            assertThat(row.fieldNames()).toIterable().containsExactly("loan_id", "status", "date", "amount");
            assertThat(row.get("date").asText()).matches("\\d{4}-\\d{2}-\\d{2}");
        }
        assertThat(rows.get(0).get("loan_id").asLong()).isEqualTo(firstId);
        assertThat(rows.get(0).get("amount").asLong())
                .isEqualTo(count(home, "bank", "SELECT amount FROM loan WHERE loan_id = " + firstId));

        JsonNode special = ok("sql", "SELECT NULL AS n, 'a,\"b\"' AS s, true AS t", "--format", "json").json();
        assertThat(special.toString()).isEqualTo("[{\"n\":null,\"s\":\"a,\\\"b\\\"\",\"t\":true}]");
        assertThat(ok("sql", "SELECT 1 AS a WHERE false", "--format", "json").out().strip()).isEqualTo("[]");
    }

    @Test
    void max_rows_caps_the_output_and_says_so_on_stderr() throws Exception {
        long loans = count(home, "bank", "SELECT count(*) FROM loan");
        assertThat(loans).isGreaterThan(5);
        String note = "sift: showing the first 5 of " + loans + " rows (--max-rows to change)";

        CliHarness.Result csv = ok("sql", "SELECT loan_id FROM loan ORDER BY loan_id", "--max-rows", "5", "--format", "csv");
        assertThat(csv.out().lines()).hasSize(6);
        assertThat(csv.errLines()).containsExactly(note);

        CliHarness.Result table = ok("sql", "SELECT loan_id FROM loan ORDER BY loan_id", "--max-rows", "5");
        List<String> lines = table.out().lines().toList();
        assertThat(lines).hasSize(2 + 5 + 1);
        assertThat(lines.get(lines.size() - 1)).as("the footer counts the whole result").isEqualTo("(" + loans + " rows)");
        assertThat(table.errLines()).containsExactly(note);

        assertThat(ok("sql", "SELECT loan_id FROM loan", "--max-rows", "5", "--format", "json").json()).hasSize(5);

        CliHarness.Result exact = ok("sql", "SELECT * FROM range(5)", "--max-rows", "5", "--format", "csv");
        assertThat(exact.out().lines()).hasSize(6);
        assertThat(exact.err()).as("no note when nothing was cut").isEmpty();

        assertThat(usageError("sql", "SELECT 1", "--max-rows", "0")).isEqualTo("sift: error: --max-rows must be at least 1, got 0");
    }

    @Test
    void refused_statements_exit_two_and_leave_the_dataset_untouched() throws Exception {
        String before = sha256(bankFile);
        long loans = count(home, "bank", "SELECT count(*) FROM loan");
        Path copyTarget = home.resolve("copied.csv");

        assertThat(usageError("sql", "DROP TABLE loan")).isEqualTo("sift: error: Refused: only one read-only query"
                + " (SELECT or WITH … SELECT) may run here; this SQL is a DROP statement. The dataset is read-only;"
                + " save results with run_sql's label instead.");
        assertThat(usageError("sql", "SELECT 1; SELECT 2")).isEqualTo("sift: error: Refused: exactly one statement"
                + " may run at a time; this SQL has 2. Send them one by one.");
        assertThat(usageError("sql", "COPY loan TO '/tmp/x.csv'")).startsWith("sift: error: Refused: ")
                .contains("COPY statement");
        assertThat(usageError("sql", "COPY loan TO '" + copyTarget + "'")).contains("COPY statement");
        assertThat(usageError("sql", "SELECT 1; DROP TABLE loan")).startsWith("sift: error: Refused: ");
        assertThat(usageError("sql", "DELETE FROM loan")).startsWith("sift: error: Refused: ").contains("DELETE");
        assertThat(usageError("sql", "INSERT INTO loan SELECT * FROM loan")).startsWith("sift: error: Refused: ");
        assertThat(usageError("sql", "UPDATE loan SET amount = 0")).startsWith("sift: error: Refused: ");
        assertThat(usageError("sql", "CREATE TABLE x AS SELECT 1")).startsWith("sift: error: Refused: ");
        assertThat(usageError("sql", "SELECT * FROM read_csv('" + bankFile.resolveSibling("bank.json") + "')"))
                .startsWith("sift: error: Refused: ");

        assertThat(copyTarget).doesNotExist();
        assertThat(sha256(bankFile)).isEqualTo(before);
        assertThat(count(home, "bank", "SELECT count(*) FROM loan")).isEqualTo(loans);
        assertThat(ok("sql", "SELECT count(*) AS n FROM loan", "--format", "csv").out().lines().toList())
                .containsExactly("n", String.valueOf(loans));
    }

    @Test
    void bad_sql_gets_the_guards_reason() {
        assertThat(usageError("sql", "SELECT nosuch FROM loan")).startsWith("sift: error: SQL does not bind: ")
                .contains("nosuch").contains("Candidate bindings");
        assertThat(usageError("sql", "SELEC 1")).startsWith("sift: error: SQL does not parse: ");
        assertThat(usageError("sql", "")).isEqualTo("sift: error: SQL is empty: send one SELECT statement.");
        assertThat(usageError("sql", "SELECT * FROM nosuch")).startsWith("sift: error: SQL does not bind: ");
    }

    @Test
    void usage_errors() {
        assertThat(usageError("sql", "SELECT 1", "--dataset", "nope")).isEqualTo("sift: error: Unknown dataset 'nope'. Available: bank.");
        assertThat(usageError("sql", "SELECT 1", "--format", "xml"))
                .startsWith("sift: error: Invalid value for option '--format': expected one of [table, csv, json]");
        assertThat(usageError("sql")).isEqualTo("sift: error: Missing required parameter: 'SQL' (try 'sift sql --help')");
        assertThat(run("sql", "SELECT 1", "--format", "xml").out()).isEmpty();
    }

    @Test
    void terminal_escape_codes_in_data_are_printed_visibly_not_sent() {
        String sql = "SELECT chr(27) || '[2J' || 'cleared' AS v";
        assertThat(ok("sql", sql).out()).contains("\\x1B[2Jcleared").doesNotContain("\u001b");
        assertThat(ok("sql", sql, "--format", "csv").out()).contains("\\x1B[2Jcleared").doesNotContain("\u001b");
        assertThat(ok("sql", sql, "--format", "json").out()).doesNotContain("\u001b");
    }

    @Test
    void every_format_streams_so_large_results_need_no_memory_for_all_rows() {
        CliHarness.Result json = ok("sql", "SELECT range AS n FROM range(300000)", "--max-rows", "5000000", "--format", "json");
        assertThat(json.json()).hasSize(300_000);
        CliHarness.Result table = ok("sql", "SELECT range AS n FROM range(3000)", "--max-rows", "5000000");
        assertThat(table.out().lines().toList()).hasSize(3003).endsWith("(3000 rows)");
        assertThat(table.out().lines().toList().get(2000)).isEqualTo("1998");
    }
}
