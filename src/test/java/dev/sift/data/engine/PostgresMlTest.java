package dev.sift.data.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentRun;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgLoader;
import dev.sift.knowledge.Knowledge;
import dev.sift.ml.ModelRegistry;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ML tools on a live PostgreSQL dataset, called as the loop calls them: train_model, predict and
 * explain_prediction on an engine table, and prediction_frames building a curated task's frames on the engine.
 * The status of a loan is learnable: B exactly when it is long (60 months) and large (amount over 30,000).
 */
class PostgresMlTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(10));
    private static final String TASK = """
            predictions:
              - name: loan_default
                description: probability that a running loan ends unpaid, learnt from finished loans
                triggers: [default]
                entity: loan.loan_id
                label: {name: defaulted, expression: "CASE WHEN loan.status = 'B' THEN 1 ELSE 0 END"}
                history: {filter: "loan.status IN ('A', 'B')", description: "finished loans"}
                current: {filter: "loan.status IN ('C', 'D')", description: "running loans", phrases: [running]}
                features: >-
                  SELECT loan.loan_id, loan.amount, loan.duration, account.region
                  FROM loan JOIN account ON loan.account_id = account.account_id
            """;
    private static EmbeddedPostgres pg;
    private static Path home;
    private static Dataset shop;
    private final ToolRegistry tools = Sift.defaultTools();
    private Workspace ws;
    private ToolContext ctx;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        pg = EmbeddedPostgres.builder().start();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE account (account_id integer PRIMARY KEY, region text NOT NULL)");
            st.execute("CREATE TABLE loan (loan_id integer PRIMARY KEY, account_id integer REFERENCES account,"
                    + " amount numeric(12,2), duration integer, opened date, status char(1), late integer)");
            st.execute("INSERT INTO account SELECT i, CASE WHEN i % 3 = 0 THEN 'north' WHEN i % 3 = 1 THEN 'south'"
                    + " ELSE 'west' END FROM generate_series(1, 200) i");
            // loans 1..1500 finished (A or B), 1501..1700 running (C or D); late (B or D) = long and large
            st.execute("INSERT INTO loan SELECT i, 1 + i % 200, 1000 + (i * 7919) % 60000, 12 * (1 + i % 5),"
                    + " DATE '2020-01-01' + i % 1000, CASE WHEN late = 1 THEN (CASE WHEN i <= 1500 THEN 'B' ELSE 'D' END)"
                    + " ELSE (CASE WHEN i <= 1500 THEN 'A' ELSE 'C' END) END, late FROM (SELECT i, CASE WHEN i % 5 = 4"
                    + " AND 1000 + (i * 7919) % 60000 > 30000 THEN 1 ELSE 0 END AS late FROM generate_series(1, 1700) i) s");
            st.execute("ANALYZE");
        }
        home = dir;
        DatasetStore store = new DatasetStore(dir.resolve("datasets"));
        shop = LiveConnect.connect(store, "shop", "postgresql://postgres@localhost:" + pg.getPort() + "/postgres",
                Map.of(), Map.of(), LIMITS).dataset();
    }

    @AfterAll
    static void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(shop, LIMITS);
        Knowledge knowledge = Knowledge.build(ws, Optional.of(KgLoader.parse(TASK, "shop.kg.yaml")));
        ctx = new ToolContext(ws, null, "which running loans will default?", new ModelRegistry(), () -> knowledge);
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolResult call(String tool, String args) throws Exception {
        ToolResult r = tools.run(tools.prepare(tool, JSON.readTree(args), ws), ctx);
        assertThat(r.ok()).as(tool + ": " + r.error() + " / " + r.summary()).isTrue();
        return r;
    }

    @Test
    void a_model_trains_on_an_engine_table_scores_it_and_explains_its_top_cases() throws Exception {
        ToolResult trained = call("train_model", "{\"source\":\"loan\",\"target\":\"late\","
                + "\"features\":[\"amount\",\"duration\",\"opened\"]}");
        String note = "Computed in this session on all 1,700 rows of loan, brought back from PostgreSQL as frame"
                + " sample_loan.";
        assertThat(trained.note()).hasValue(note);
        assertThat(trained.summary()).startsWith(note + "\nTrained model m1: classification of late (predicts the"
                + " probability of late = 1) on sample_loan, 1700 labelled rows, entity loan_id.");
        TrainedModel m = ctx.models().resolve(null);
        assertThat(m.encoder().columnNames()).containsExactly("amount", "duration", "opened");
        assertThat(m.provenance().metrics().get("auc")).isGreaterThan(0.9);

        ToolResult scored = call("predict", "{\"source\":\"loan\",\"model\":\"m1\"}");
        assertThat(scored.note()).hasValue(note);
        assertThat(scored.summary()).contains("Scored 1700 rows of sample_loan with model m1");
        assertThat(ws.frames()).extracting(TableInfo::name).containsOnlyOnce("sample_loan").contains("predictions");
        assertThat(ws.query("SELECT count(*) FROM frames.predictions").scalar()).isEqualTo(1700L);
        ToolResult evaluated = call("evaluate_predictions", "{\"predictions\":\"predictions\",\"truth\":\"late\"}");
        assertThat(evaluated.summary()).startsWith("Evaluated 1700 rows of predictions: classification of late");
        ToolResult drift = tools.run(tools.prepare("check_drift", JSON.readTree("{\"reference\":\"sample_loan\","
                + "\"current\":\"loan\"}"), ws), ctx);
        assertThat(drift.error()).isEqualTo("check_drift compares frames on a live dataset: loan is a table on PostgreSQL."
                + " Bring the rows to compare back as frames with run_sql and a label (e.g. SELECT * FROM loan WHERE … ),"
                + " then compare the frames.");

        ToolResult explained = call("explain_prediction", "{\"top_k\":3}");
        assertThat(explained.summary()).startsWith("Explained 3 cases of model m1");
        assertThat(ws.query("SELECT count(*) FROM frames.explanations").scalar()).isEqualTo(3L);
        // the drivers are the columns the label depends on
        assertThat(String.valueOf(ws.query("SELECT string_agg(driver_1, ' ') FROM frames.explanations").scalar()))
                .containsAnyOf("amount", "duration");
    }

    @Test
    void the_offline_planner_answers_a_predictive_question_on_the_engine_with_the_users_task() throws Exception {
        java.nio.file.Files.createDirectories(home.resolve("kg"));
        java.nio.file.Files.writeString(home.resolve("kg/shop.kg.yaml"), TASK);
        Sift sift = new Sift(home, null, LIMITS);
        AgentRun run = sift.ask("Which running loans will default?", shop, AgentConfig.defaults()).run();
        assertThat(run.steps()).extracting(s -> s.tool()).as(run.answer() + " / " + run.notes())
                .containsSubsequence("prediction_frames", "train_model", "predict", "explain_prediction");
        assertThat(run.steps()).allSatisfy(s -> assertThat(s.ok()).as(s.tool() + ": " + s.observation()).isTrue());
        assertThat(run.answer()).contains("scored 200 running loans (frame loan_default_current)");
        java.util.regex.Matcher top = java.util.regex.Pattern.compile("\\n1\\. loan (\\d+): ").matcher(run.answer());
        assertThat(top.find()).as(run.answer()).isTrue();
        try (Workspace check = Workspace.open(shop, LIMITS)) { // the riskiest running loan is one in debt
            assertThat(check.query("SELECT status FROM loan WHERE loan_id = " + top.group(1)).scalar()).isEqualTo("D");
        }
    }

    @Test
    void a_curated_prediction_task_builds_its_frames_on_the_engine_and_the_flow_runs_on_them() throws Exception {
        ToolResult frames = call("prediction_frames", "{\"task\":\"loan_default\"}");
        assertThat(frames.summary()).contains("Saved as frame frames.loan_default_history: 1500 rows of finished loans")
                .contains("Saved as frame frames.loan_default_current: 200 rows of running loans");
        long defaulted = ((Number) ws.query("SELECT count(*) FROM loan WHERE status = 'B'").scalar()).longValue();
        assertThat(ws.query("SELECT sum(defaulted) FROM frames.loan_default_history").scalar()).isEqualTo(defaulted);

        ToolResult trained = call("train_model", "{\"source\":\"loan_default_history\",\"target\":\"defaulted\","
                + "\"entity\":\"loan_id\"}");
        assertThat(trained.note()).isEmpty();
        assertThat(ctx.models().resolve(null).provenance().metrics().get("auc")).isGreaterThan(0.9);
        call("predict", "{\"source\":\"loan_default_current\"}");
        long risky = ((Number) ws.query("SELECT count(*) FROM loan WHERE status = 'D'").scalar()).longValue();
        assertThat(risky).isPositive();
        // the running loans that are in debt are the ones predicted most likely to default
        assertThat(ws.query("SELECT count(*) FROM (SELECT loan_id FROM frames.predictions ORDER BY probability DESC"
                + " LIMIT " + risky + ") top WHERE loan_id IN (SELECT loan_id FROM frames.loan_default_current"
                + " WHERE duration = 60 AND amount > 30000)").scalar()).isEqualTo(risky);
        ToolResult explained = call("explain_prediction", "{\"top_k\":2}");
        assertThat(explained.summary()).startsWith("Explained 2 cases of model m1");
    }
}
