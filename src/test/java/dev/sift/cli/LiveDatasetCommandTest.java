package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.SiftConfig;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.grounding.Grounding;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.data.engine.LiveConnect;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

import static dev.sift.cli.CliHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A live PostgreSQL dataset end to end: {@code sift connect}, then {@code sift ask} whose tool note reaches the
 * JSON's notes and the report, and an engine account whose password comes from the configuration Sift was built
 * with (not the process environment). The server asks a password of {@code reader} and trusts the others.
 */
class LiveDatasetCommandTest {
    private static final String NOTE = "Computed in this session on all 2,000 rows of loan, brought back from PostgreSQL"
            + " as frame sample_loan.";
    @TempDir
    static Path home;
    private static EmbeddedPostgres pg;

    @BeforeAll
    static void start(@TempDir Path data) throws Exception {
        CliHarness.useHome(home);
        pg = EmbeddedPostgres.builder().setDataDirectory(data.resolve("pg")).setCleanDataDirectory(true).start();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE loan (loan_id integer PRIMARY KEY, amount numeric(12,2), status char(1))");
            st.execute("INSERT INTO loan SELECT i, 1000 + i * 10, CASE WHEN i % 4 = 0 THEN 'B' ELSE 'A' END"
                    + " FROM generate_series(1, 2000) i");
            st.execute("CREATE ROLE reader LOGIN PASSWORD 'reader-secret'");
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader");
        }
        Files.writeString(data.resolve("pg/pg_hba.conf"), String.join("\n",
                "host all reader 127.0.0.1/32 scram-sha-256", "host all reader ::1/128 scram-sha-256",
                "host all all 127.0.0.1/32 trust", "host all all ::1/128 trust", "local all all trust", ""));
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_reload_conf()");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        CliHarness.clearHome();
        if (pg != null) {
            pg.close();
        }
    }

    private static String url(String user) {
        return "postgresql://" + user + "@localhost:" + pg.getPort() + "/postgres";
    }

    @Test
    void a_tool_note_reaches_the_answer_notes_of_ask_json_and_the_report() throws Exception {
        CliHarness.assumeOffline();
        ok("connect", "shop", url("postgres"));
        JsonNode o = ok("ask", "Profile the loan table", "--dataset", "shop", "--json").json();
        assertThat(o.get("steps").get(0).get("tool").asText()).as(o.toString()).isEqualTo("profile_data");
        assertThat(o.get("notes")).extracting(JsonNode::asText).contains(NOTE);
        Path report = home.resolve("profile.html");
        ok("ask", "Profile the loan table", "--dataset", "shop", "--report", report.toString());
        assertThat(Files.readString(report)).contains("<li>" + NOTE + "</li>");
    }

    @Test
    void sift_sql_runs_on_the_engine_and_streams_its_rows() {
        ok("connect", "shop_sql", url("postgres"));
        assertThat(ok("sql", "--dataset", "shop_sql", "SELECT count(*) AS n FROM loan WHERE status = 'B'").out())
                .contains("500");
        String csv = ok("sql", "--dataset", "shop_sql", "--format", "csv", "--max-rows", "3",
                "SELECT loan_id FROM loan ORDER BY loan_id").out();
        assertThat(csv.lines().toList()).startsWith("loan_id", "1", "2", "3");
        assertThat(CliHarness.usageError("sql", "--dataset", "shop_sql", "SELECT nope FROM loan"))
                .contains("does not bind on PostgreSQL");
    }

    @Test
    void the_engine_password_comes_from_the_configuration_sift_was_built_with() throws Exception {
        Path own = home.resolve("configured");
        Map<String, String> settings = Map.of("SIFT_HOME", own.toString(), "SHOP_PW", "reader-secret");
        assertThat(System.getenv("SHOP_PW")).as("the test needs SHOP_PW unset in the process").isNull();
        SiftConfig config = SiftConfig.fromEnv(settings);
        Dataset shop = LiveConnect.connect(DatasetStore.under(own), "shop_reader", url("reader"),
                Map.of("password_env", "SHOP_PW"), config.settings(), Workspace.Limits.defaults()).dataset();
        Sift sift = new Sift(config, null, Workspace.Limits.defaults(), Grounding.CHECK_ONLY,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        AgentRun run = sift.ask("How many loans are there?", shop, AgentConfig.defaults()).run();
        assertThat(run.evidence()).as(run.answer() + " / " + run.notes()).isNotEmpty();
        assertThat(run.evidence().get(0).rows().get(0).get(0)).isEqualTo(2000L);
        // without it in the configuration there is no password to send, and the message names the variable
        Sift unconfigured = new Sift(SiftConfig.fromEnv(Map.of("SIFT_HOME", own.toString())), null,
                Workspace.Limits.defaults(), Grounding.CHECK_ONLY, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        try (Workspace ws = unconfigured.open(shop)) {
            assertThatThrownBy(() -> ws.query("SELECT count(*) FROM loan")).hasMessage("Could not connect to"
                    + " PostgreSQL at localhost:" + pg.getPort() + "/postgres: Source " + url("reader") + ": environment"
                    + " variable SHOP_PW (password_env) is not set");
        }
    }

    @Test
    void the_server_asks_the_reader_for_its_password() {
        String jdbc = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
        assertThatThrownBy(() -> DriverManager.getConnection(jdbc, "reader", "wrong").close())
                .hasMessageContaining("password authentication failed for user \"reader\"");
    }
}
