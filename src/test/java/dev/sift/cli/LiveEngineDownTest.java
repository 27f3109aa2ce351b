package dev.sift.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A live dataset whose engine has gone away: {@code sift ask} says so once, in one line naming the dataset, the
 * engine's address and what to do, instead of handing the planner a "fix the call" error to retry.
 */
class LiveEngineDownTest {
    @TempDir
    static Path home;
    private static EmbeddedPostgres pg;
    private static int port;

    @BeforeAll
    static void start(@TempDir Path data) throws Exception {
        CliHarness.useHome(home);
        pg = EmbeddedPostgres.builder().setDataDirectory(data.resolve("pg")).setCleanDataDirectory(true).start();
        port = pg.getPort();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE loan (loan_id integer PRIMARY KEY, amount numeric(12,2), status char(1))");
            st.execute("INSERT INTO loan SELECT i, 1000 + i, 'A' FROM generate_series(1, 20) i");
        }
        ok("connect", "wh", "postgresql://postgres@localhost:" + port + "/postgres");
        assertThat(ok("ask", "How many loans are there?", "--dataset", "wh").out()).contains("20");
        pg.close();
    }

    @AfterAll
    static void stop() {
        CliHarness.clearHome();
    }

    @Test
    void an_unreachable_engine_is_one_line_naming_the_dataset_the_address_and_the_fix() {
        for (String[] args : new String[][] {{"ask", "How many loans are there?", "--dataset", "wh"},
                {"ask", "How many loans are there?", "--dataset", "wh", "--json"}}) {
            String line = CliHarness.usageError(args);
            assertThat(line).startsWith("sift: error: Live dataset 'wh' cannot be reached: Could not connect to PostgreSQL at"
                    + " localhost:" + port + "/postgres: Connection to localhost:" + port + " refused.")
                    .endsWith("Start the engine or fix its address or credentials, then ask again (sift datasets shows"
                            + " where 'wh' points; connect it again with sift connect wh <url>).")
                    .doesNotContain("Fix the call");
        }
    }

    @Test
    void chat_says_so_for_each_question_and_keeps_the_session() {
        java.util.Deque<String> lines = new java.util.ArrayDeque<>(java.util.List.of("How many loans are there?",
                "How many loans are there?", "/quit"));
        ChatCommand.testInput = prompt -> lines.poll();
        try {
            String out = ok("chat", "--dataset", "wh").out();
            assertThat(out.lines().filter(l -> l.startsWith("Error: Live dataset 'wh' cannot be reached: Could not connect"
                    + " to PostgreSQL at localhost:" + port + "/postgres")).count()).as(out).isEqualTo(2);
            assertThat(out).contains("Session saved: ").doesNotContain("Fix the call");
        } finally {
            ChatCommand.testInput = null;
        }
    }
}
