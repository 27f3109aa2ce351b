package dev.sift.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code sift ask --report FILE.html}: a standalone report with the answer, its tables and a chart. */
class AskReportTest {
    @TempDir
    static Path home;

    @BeforeAll
    static void smallBank() {
        CliHarness.useHome(home);
        CliHarness.loadSmallBank();
        CliHarness.assumeOffline();
    }

    @AfterAll
    static void clear() {
        CliHarness.clearHome();
    }

    @Test
    void report_is_standalone_html_with_answer_evidence_and_chart() throws Exception {
        Path report = home.resolve("status.html");
        CliHarness.Result r = ok("ask", "What values does loan.status take?", "--report", report.toString());
        assertThat(r.out()).contains("loan.status has");
        String html = Files.readString(report);
        assertThat(html).startsWith("<!doctype html>").contains("What values does loan.status take?",
                "<span class=\"badge rule_based\">rule_based</span>", "<th>value</th><th>n</th>",
                "vegaEmbed('#chart0'", "\"mark\":{\"type\":\"bar\"");
        assertThat(html).doesNotContain("<script src=");
    }

    @Test
    void report_of_a_count_has_no_chart_and_no_scripts() throws Exception {
        Path report = home.resolve("count.html");
        ok("ask", "How many loans are there?", "--report", report.toString());
        String html = Files.readString(report);
        assertThat(html).contains("<h2>Evidence</h2>").doesNotContain("<script");
    }
}
