package dev.sift.data.engine;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.agent.Step;
import dev.sift.bench.EngineCopy;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgException;
import dev.sift.knowledge.KgLoader;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The demo bank's tables in a real PostgreSQL as a warehouse holds them: PKDD's column names kept exactly
 * ({@code "A1"}, {@code "A11"}: unquoted SQL would fold them to lower case and miss them), read through a role that
 * may only read. Sift's own SQL (the offline planner's, the knowledge file's, the prediction task's) is DuckDB's and
 * is rendered for the engine; every answer is compared with the same question on the DuckDB copy.
 */
class PostgresMixedCaseTest {
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(30));
    private static final Path PKDD_KG = Path.of("src/main/resources/kg/pkdd.kg.yaml");
    private static EmbeddedPostgres pg;
    private static Dataset duck;
    private static Dataset live;
    private static Sift sift;

    @BeforeAll
    static void start(@TempDir Path home) throws Exception {
        pg = EmbeddedPostgres.builder().start();
        duck = TestDatasets.bank();
        try (Connection admin = pg.getPostgresDatabase().getConnection()) {
            EngineCopy.toPostgres(duck, admin, "reader-pw");
        }
        DatasetStore store = new DatasetStore(home.resolve("datasets"));
        Path credentials = Files.writeString(home.resolve("pgbank.credentials"), "password=reader-pw\n");
        live = LiveConnect.connect(store, "pgbank", "postgresql://" + EngineCopy.READER + "@localhost:" + pg.getPort()
                + "/postgres", Map.of("credentials_file", credentials.toString()), Map.of(), LIMITS).dataset();
        sift = new Sift(home, null, LIMITS);
        Files.createDirectories(home.resolve("kg"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private static dev.sift.text.Evidence lastEvidence(AgentRun run) {
        List<dev.sift.text.Evidence> evidence = run.evidence();
        assertThat(evidence).as(run.answer()).isNotEmpty();
        return evidence.get(evidence.size() - 1);
    }

    @Test
    void the_tables_keep_their_mixed_case_names_on_the_engine() {
        assertThat(live.tables()).extracting(Dataset.TableSummary::name).contains("district", "loan", "trans");
        try (Workspace ws = Workspace.open(live, LIMITS)) {
            assertThat(ws.table("district").orElseThrow().columns()).extracting(c -> c.name()).contains("A1", "A2", "A11");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void how_many_clients_live_in_prague_is_answered_on_the_engine_as_on_duckdb() throws Exception {
        String q = "How many clients live in Prague?";
        AgentRun onEngine = sift.ask(q, live, AgentConfig.defaults()).run();
        AgentRun onDuck = sift.ask(q, duck, AgentConfig.defaults()).run();
        dev.sift.text.Evidence e = lastEvidence(onEngine);
        assertThat(e.sql()).contains("\"district\".\"A1\"");
        assertThat(e.rows()).isEqualTo(lastEvidence(onDuck).rows());
        assertThat(onEngine.answer()).isEqualTo(onDuck.answer());
    }

    @Test
    void the_pkdd_knowledge_file_binds_on_the_engine_and_its_metrics_give_duckdbs_numbers() throws Exception {
        var curated = KgLoader.read(PKDD_KG);
        try (Workspace ws = Workspace.open(live, LIMITS); Workspace local = Workspace.open(duck, LIMITS)) {
            Knowledge k = Knowledge.build(ws, Optional.of(curated)); // validates every entry on PostgreSQL
            for (KgEntry e : k.graph().entries()) {
                // last_balance is arg_max(balance, date): several transactions share the last date, and which one an
                // engine picks among them is not defined (DuckDB's pick differs from PostgreSQL's); checked apart below
                if (e instanceof KgEntry.Metric m && m.curated() && !m.name().equals("last_balance")) {
                    String sql = "SELECT " + m.expression() + " FROM " + dev.sift.knowledge.KgSql.from(k.graph(), m.tables()).orElseThrow();
                    Object there = ws.trustedQuery(sql, 1).scalar();
                    Object here = local.trustedQuery(sql, 1).scalar();
                    assertThat(((Number) there).doubleValue()).as(m.name()).isCloseTo(((Number) here).doubleValue(),
                            org.assertj.core.data.Percentage.withPercentage(1e-9));
                }
            }
            String lastBalance = "SELECT arg_max(trans.balance, trans.date) FROM trans";
            Object picked = ws.trustedQuery(lastBalance, 1).scalar();
            assertThat(local.trustedQuery("SELECT count(*) FROM trans WHERE date = (SELECT max(date) FROM trans) AND balance = "
                    + picked, 1).scalar()).isEqualTo(1L);
            String age = "SELECT sum(date_sub('year', client.birth_date, DATE '1999-01-01')), sum(date_sub('month', "
                    + "client.birth_date, DATE '1996-02-29')) FROM client";
            List<Object> there = ws.trustedQuery(age, 1).rows().get(0); // sums of BIGINT: NUMERIC there, HUGEINT here
            List<Object> here = local.trustedQuery(age, 1).rows().get(0);
            for (int i = 0; i < 2; i++) {
                assertThat(((Number) there.get(i)).longValue()).isEqualTo(((Number) here.get(i)).longValue());
            }
        }
    }

    @Test
    void a_knowledge_file_that_does_not_fit_the_engine_is_a_user_error_naming_each_entry() throws Exception {
        String kg = """
                metrics:
                  - name: total_salary
                    tables: [district]
                    grain: district
                    expression: sum(district.A99)
                  - name: sorted_types
                    tables: [trans]
                    grain: trans
                    expression: list_sort(list(trans.type))
                """;
        try (Workspace ws = Workspace.open(live, LIMITS)) {
            assertThatThrownBy(() -> Knowledge.build(ws, Optional.of(KgLoader.parse(kg, "my.kg.yaml"))))
                    .isInstanceOf(KgException.class)
                    .satisfies(e -> assertThat(((KgException) e).problems()).containsExactly(
                            "my.kg.yaml: metrics[total_salary]: column district.A99 does not exist. Table district has"
                                    + " columns: A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16. Did you"
                                    + " mean 'A9'?",
                            "my.kg.yaml: metrics[sorted_types]: expression 'list_sort(list(trans.type))' does not run: Cannot"
                                    + " write this for PostgreSQL: DuckDB's function list has no PostgreSQL form in Sift's SQL"
                                    + " renderer (Sift's own SQL is DuckDB's and is rendered for the engine). Write it with"
                                    + " functions both have."));
        }
    }

    @Test
    void the_predictive_question_trains_predicts_and_explains_on_the_engine_with_the_knowledge_file() throws Exception {
        sift.knowledge().useFile(live.name(), PKDD_KG);
        AgentRun run = sift.ask("Which running loans are likely to default?", live, AgentConfig.defaults()).run();
        assertThat(run.steps()).extracting(Step::tool).as(run.answer() + " / " + run.notes())
                .containsSubsequence("prediction_frames", "train_model", "predict", "explain_prediction");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.tool() + ": " + s.observation()).isTrue());
        try (Workspace ws = Workspace.open(duck, LIMITS)) {
            long running = ((Number) ws.query("SELECT count(*) FROM loan WHERE status IN ('C', 'D')").scalar()).longValue();
            assertThat(run.answer()).contains("scored " + running + " running loans");
            // the model card records the latest moment of prediction among the training loans, as on DuckDB
            dev.sift.ml.ModelCard card = sift.models().list(live.name()).get(0).card();
            assertThat(card.trainedThrough()).isEqualTo(ws.query("SELECT CAST(max(date) AS VARCHAR) FROM loan"
                    + " WHERE status IN ('A', 'B')").scalar());
            assertThat(card.trainedThroughColumn()).isEqualTo("loan.date");
        }
    }
}
