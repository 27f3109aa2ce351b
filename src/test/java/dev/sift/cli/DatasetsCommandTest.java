package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.sift.cli.CliHarness.count;
import static dev.sift.cli.CliHarness.ok;
import static dev.sift.cli.CliHarness.usageError;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift datasets}, and the top-level command's help, version and usage errors. */
class DatasetsCommandTest {
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

    @Test
    void an_empty_home_gets_a_hint() throws Exception {
        Path empty = home.resolve("empty-home");
        CliHarness.useHome(empty);
        try {
            CliHarness.Result r = ok("datasets");
            assertThat(r.out().lines().toList()).containsExactly("No datasets yet in " + empty.resolve("datasets")
                    + ". './sift ask' builds the demo dataset 'bank' on first use; './sift load NAME FILE...' adds your own.");
            assertThat(r.err()).isEmpty();
            assertThat(empty.resolve("datasets")).as("listing creates nothing, builds nothing").doesNotExist();

            assertThat(usageError("sql", "SELECT 1", "--dataset", "mine")).isEqualTo("sift: error: Unknown dataset"
                    + " 'mine'. No datasets are built yet; the demo dataset 'bank' is built on first use.");
        } finally {
            CliHarness.useHome(home);
        }
    }

    @Test
    void lists_each_dataset_with_its_tables_and_row_counts() throws Exception {
        CliHarness.Result r = ok("datasets");
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).startsWith("bank — synthetic demo bank (PKDD'99 schema; seed ")
                .contains("scale 0.02").matches(".*\\(built \\d{4}-\\d{2}-\\d{2}T.*\\)$");
        assertThat(lines).hasSize(1 + 8);
        for (String table : List.of("account", "card", "client", "disp", "district", "loan", "order", "trans")) {
            long rows = count(home, "bank", "SELECT count(*) FROM \"" + table + "\"");
            assertThat(lines).contains(String.format("  %-12s %,d rows", table, rows));
        }
        assertThat(r.err()).isEmpty();
    }

    @Test
    void stray_files_in_the_store_are_not_datasets() throws Exception {
        Path stray = Files.writeString(home.resolve("datasets/.half.1234.building"), "junk");
        Path orphan = Files.writeString(home.resolve("datasets/orphan.json"), "{}");
        try {
            CliHarness.Result r = ok("datasets");
            assertThat(r.out()).doesNotContain("half").doesNotContain("orphan").contains("bank — ");
        } finally {
            Files.delete(stray);
            Files.delete(orphan);
        }
    }

    @Test
    void the_standard_streams_entry_point_prints_to_system_out_and_err() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
        ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        int version;
        int unknown;
        try {
            System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
            version = Main.run("--version");
            unknown = Main.run("sql", "SELECT 1", "--dataset", "nope");
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertThat(version).isZero();
        assertThat(unknown).isEqualTo(Main.USAGE_ERROR);
        assertThat(capturedOut.toString(StandardCharsets.UTF_8).strip()).isEqualTo("sift 0.1.0");
        assertThat(capturedErr.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo("sift: error: Unknown dataset 'nope'. Available: bank.");
    }

    @Test
    void extra_arguments_are_a_usage_error() {
        assertThat(usageError("datasets", "bank"))
                .isEqualTo("sift: error: Unmatched argument at index 1: 'bank' (try 'sift datasets --help')");
    }

    @Test
    void help_and_version_exit_zero() {
        CliHarness.Result help = ok("--help");
        assertThat(help.out()).contains("Usage: sift").contains("ask").contains("sql").contains("load")
                .contains("datasets").contains("--version");
        // a subcommand's run specifies only that subcommand; help lists them all, those of other modules too
        assertThat(help.out()).contains("models").contains("grounding").contains("bench").contains("serve")
                .contains("chat");
        assertThat(help.err()).isEmpty();
        assertThat(ok("bench", "--help").out()).contains("Usage: sift bench");
        assertThat(ok("serve", "--help").out()).contains("Usage: sift serve");

        CliHarness.Result version = ok("--version");
        assertThat(version.out().strip()).isEqualTo("sift 0.1.0");
        assertThat(version.err()).isEmpty();

        assertThat(ok().out()).as("no subcommand prints the usage").contains("Usage: sift");

        assertThat(ok("ask", "--help").out()).contains("Usage: sift ask").contains("QUESTION").contains("--max-steps")
                .contains("--json").contains("--dataset");
        assertThat(ok("sql", "--help").out()).contains("Usage: sift sql").contains("--format").contains("--max-rows");
        assertThat(ok("load", "--help").out()).contains("Usage: sift load").contains("--from").contains("--scale");
        assertThat(ok("datasets", "--help").out()).contains("Usage: sift datasets");
        assertThat(ok("ask", "-h").out()).contains("Usage: sift ask");
        assertThat(ok("sql", "--version").out().strip()).isEqualTo("sift 0.1.0");
        // the usage error's own hint must work
        assertThat(usageError("ask")).endsWith("(try 'sift ask --help')");
        assertThat(ok("ask", "--help").err()).isEmpty();
    }

    /** Every command's help renders cleanly: a stray '%' in a description makes picocli warn on System.err. */
    @Test
    void every_commands_help_renders_without_a_warning() {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<String> commands;
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            commands = List.of("ask", "sql", "load", "connect", "datasets", "kg", "health", "serve", "chat", "bench");
            for (String command : commands) {
                assertThat(ok(command, "--help").out()).contains("Usage: sift " + command);
            }
        } finally {
            System.setErr(err);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(ok("load", "--help").out()).contains("orders.order_date=date:%d/%m/%Y");
    }
}
