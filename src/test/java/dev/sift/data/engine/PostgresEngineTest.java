package dev.sift.data.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.data.CellCuts;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgEntry;
import dev.sift.knowledge.Knowledge;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A real PostgreSQL (embedded binaries) as a live dataset, through the path any server would take. */
class PostgresEngineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedPostgres pg;
    private static Path home;
    private static DatasetStore store;
    private static Dataset shop;
    private static final Workspace.Limits LIMITS = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(3));

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        pg = EmbeddedPostgres.builder().start();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE account (account_id integer PRIMARY KEY, region text NOT NULL, opened date)");
            st.execute("CREATE TABLE loan (loan_id integer PRIMARY KEY, account_id integer REFERENCES account,"
                    + " amount numeric(12,2), status char(1))");
            st.execute("INSERT INTO account SELECT i, CASE WHEN i % 3 = 0 THEN 'north' WHEN i % 3 = 1 THEN 'south' ELSE 'west' END,"
                    + " DATE '2020-01-01' + i FROM generate_series(1, 300) i");
            st.execute("INSERT INTO loan SELECT i, 1 + i % 300, 1000 + i * 10, CASE WHEN i % 4 = 0 THEN 'B' ELSE 'A' END"
                    + " FROM generate_series(1, 2000) i");
            // keys in different formats, in a schema of their own: businessid_N on one side, businessref_0N on the other
            st.execute("CREATE SCHEMA formats");
            st.execute("CREATE TABLE formats.business (business_id text PRIMARY KEY, city text)");
            st.execute("CREATE TABLE formats.review (review_id integer PRIMARY KEY, business_ref text, rating integer)");
            st.execute("INSERT INTO formats.business SELECT 'businessid_' || i, CASE WHEN i % 2 = 0 THEN 'Reno' ELSE 'Tampa' END"
                    + " FROM generate_series(1, 10) i");
            st.execute("INSERT INTO formats.review SELECT i, 'businessref_' || lpad((1 + i % 10)::text, 2, '0'), 1 + i % 5"
                    + " FROM generate_series(1, 40) i");
            st.execute("ANALYZE");
            st.execute("CREATE ROLE reader LOGIN PASSWORD 'reader-secret'");
            st.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader");
            st.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
        }
        home = dir;
        store = new DatasetStore(dir.resolve("datasets"));
        shop = LiveConnect.connect(store, "shop", url("postgres"), Map.of(), Map.of(), LIMITS).dataset();
    }

    @AfterAll
    static void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private static String url(String user) {
        return "postgresql://" + user + "@localhost:" + pg.getPort() + "/postgres";
    }

    @Test
    void connecting_registers_the_schema_from_metadata_without_copying() {
        assertThat(shop.onEngine()).isTrue();
        assertThat(shop.live()).isEqualTo(url("postgres"));
        assertThat(shop.tables()).extracting(Dataset.TableSummary::name).containsExactly("account", "loan");
        assertThat(shop.rows("loan")).isEqualTo(2000);
        assertThat(store.root().resolve("shop.duckdb")).doesNotExist();
        EngineFile file = EngineFile.read(shop.file());
        assertThat(file.foreignKeys()).containsExactly(new dev.sift.data.TableStats.ForeignKey("loan", "account_id", "account", "account_id"));
        assertThat(file.tables().get(1).columns()).extracting(EngineFile.Column::type)
                .containsExactly("BIGINT", "BIGINT", "DOUBLE", "VARCHAR");
    }

    @Test
    void a_superuser_account_gets_the_read_only_role_advice_and_a_reader_does_not() throws Exception {
        LiveConnect.Connected admin = LiveConnect.connect(store, "shop_admin", url("postgres"), Map.of(), Map.of(), LIMITS);
        assertThat(admin.notes()).anySatisfy(n -> assertThat(n).startsWith("The engine account 'postgres' can write (it is a"
                + " superuser; INSERT, UPDATE, DELETE or TRUNCATE on 2 tables; CREATE in schema public)")
                .endsWith("connect with an account that has SELECT only."));
        LiveConnect.Connected reader = LiveConnect.connect(store, "shop_reader", url("reader"),
                Map.of("password_env", "SHOP_PW"), Map.of("SHOP_PW", "reader-secret"), LIMITS);
        assertThat(reader.notes()).isEmpty();
        assertThat(reader.file().access().canWrite()).isFalse();
        assertThat(java.nio.file.Files.readString(reader.dataset().file())).doesNotContain("reader-secret");
    }

    @Test
    void a_password_in_the_url_is_used_but_never_stored() throws Exception {
        String withPassword = "postgresql://reader:reader-secret@localhost:" + pg.getPort() + "/postgres";
        LiveConnect.Connected c = LiveConnect.connect(store, "shop_pw", withPassword, Map.of(), Map.of(), LIMITS);
        assertThat(c.notes()).contains("The password in the URL was used to connect but is not stored; later runs read it"
                + " from PGPASSWORD or from the variable given with --password-env.");
        assertThat(java.nio.file.Files.readString(c.dataset().file())).doesNotContain("reader-secret");
        assertThat(c.dataset().live()).isEqualTo("postgresql://reader:***@localhost:" + pg.getPort() + "/postgres");
    }

    @Test
    void agent_sql_runs_on_the_engine_and_a_labelled_result_comes_back_as_a_frame() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            assertThat(ws.dialect()).isEqualTo(SqlDialect.POSTGRESQL);
            QueryResult r = ws.query("SELECT status, count(*) AS n FROM loan GROUP BY status ORDER BY status");
            assertThat(r.rows()).containsExactly(List.of("A", 1500L), List.of("B", 500L));
            QueryResult saved = ws.saveFrame("by_region", "SELECT a.region, sum(l.amount) AS total FROM loan l"
                    + " JOIN account a USING (account_id) GROUP BY a.region ORDER BY a.region");
            assertThat(saved.rowCount()).isEqualTo(3);
            assertThat(ws.frames()).extracting(t -> t.name()).containsExactly("by_region");
            // frames are local DuckDB tables: DuckDB-only SQL works on them
            QueryResult local = ws.query("SELECT list(region ORDER BY region) AS regions FROM frames.by_region");
            assertThat(local.scalar()).isEqualTo("[north, south, west]");
        }
    }

    @Test
    void a_long_value_is_cut_on_the_server_with_left_and_the_cut_is_stated() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            QueryResult r = ws.query("SELECT 7 AS id, repeat('x', 200000) AS s, 2.5 AS v");
            assertThat(r.rows().get(0).get(0)).isEqualTo(7L);
            assertThat((String) r.rows().get(0).get(1)).hasSize(65536).matches("x+");
            assertThat(r.rows().get(0).get(2)).isEqualTo(2.5);
            assertThat(r.cuts().columns()).containsExactly(new CellCuts.Column("s", 1, 200_000, false));
            assertThat(r.cuts().statement()).startsWith("Cut to the result's byte budget: 1 value of s was over 64 KB (the"
                    + " largest 200,000 bytes) and kept its first 64 KB. To read more, select a part of a long value"
                    + " (substr(s, 65537, 65536) gives the next characters)");
            // ordinary text comes back whole and says nothing
            QueryResult plain = ws.query("SELECT region, count(*) AS n FROM account GROUP BY region ORDER BY region");
            assertThat(plain.rows()).containsExactly(List.of("north", 100L), List.of("south", 100L), List.of("west", 100L));
            assertThat(plain.cuts().any()).isFalse();
        }
    }

    @Test
    void multi_byte_text_and_a_kept_frame_stay_within_a_lowered_cell_budget() throws Exception {
        Workspace.Limits small = LIMITS.withBudget(4096, LIMITS.resultBytes());
        try (Workspace ws = Workspace.open(shop, small)) {
            // two-byte characters: 4,096 of them would be 8,192 bytes, so a quarter as many are kept
            QueryResult r = ws.query("SELECT repeat('é', 5000) AS e, repeat('ab', 1000) AS fits, ARRAY[repeat('y', 9000)] AS a");
            String e = (String) r.rows().get(0).get(0);
            assertThat(e.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
            assertThat(e).hasSize(1024).matches("é+");
            assertThat(r.rows().get(0).get(1)).isEqualTo("ab".repeat(1000));
            assertThat((String) r.rows().get(0).get(2)).hasSize(4096).startsWith("{");
            assertThat(r.cuts().columns()).extracting(CellCuts.Column::name).containsExactly("e", "a");
            assertThat(r.cuts().columns().get(0).largestBytes()).isEqualTo(10_000);
            QueryResult kept = ws.saveFrame("long_text", "SELECT loan_id, repeat(status, 9000) AS s FROM loan WHERE loan_id <= 3");
            assertThat(kept.cuts().columns()).containsExactly(new CellCuts.Column("s", 3, 9000, false));
            assertThat(ws.query("SELECT max(length(s)) AS longest FROM frames.long_text").scalar()).isEqualTo(4096L);
        }
    }

    @Test
    void a_query_mixing_frames_and_engine_tables_is_refused_with_the_reason() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            ws.saveFrame("big_loans", "SELECT loan_id FROM loan WHERE amount > 20000");
            assertThatThrownBy(() -> ws.query("SELECT count(*) FROM loan JOIN big_loans USING (loan_id)"))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("Refused: this query uses frames (big_loans) of the session together with tables of the"
                            + " PostgreSQL dataset (loan); they live in different places, so one query cannot join them."
                            + " Query the engine tables alone (with a label to keep the result as a frame), then combine frames.");
        }
    }

    @Test
    void the_guard_refuses_writes_and_several_statements_before_anything_runs() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            assertThatThrownBy(() -> ws.query("DELETE FROM loan"))
                    .hasMessage("Refused: only one read-only query (SELECT or WITH … SELECT) may run on PostgreSQL; this SQL"
                            + " is a DELETE statement. The dataset is read-only; save results with run_sql's label instead.");
            assertThatThrownBy(() -> ws.query("SELECT 1; DROP TABLE loan"))
                    .hasMessage("Refused: exactly one statement may run at a time; this SQL has 2. Send them one by one.");
            assertThatThrownBy(() -> ws.query("WITH gone AS (DELETE FROM loan RETURNING *) SELECT count(*) FROM gone"))
                    .isInstanceOf(QueryException.class).hasMessageStartingWith("Refused:");
            assertThatThrownBy(() -> ws.query("SELECT * FROM loan FOR UPDATE"))
                    .hasMessageStartingWith("Refused:");
            assertThat(ws.query("SELECT count(*) FROM loan").scalar()).isEqualTo(2000L);
        }
    }

    @Test
    void sql_that_does_not_bind_gets_the_engine_error_and_the_tables_there_are() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            assertThatThrownBy(() -> ws.query("SELECT amout FROM loan"))
                    .isInstanceOf(QueryException.class)
                    .satisfies(e -> assertThat(((QueryException) e).kind()).isEqualTo(QueryException.Kind.INVALID))
                    .hasMessageStartingWith("SQL does not bind on PostgreSQL: column \"amout\" does not exist");
            assertThatThrownBy(() -> ws.query("SELECT * FROM loans"))
                    .hasMessage("SQL does not bind on PostgreSQL: relation \"loans\" does not exist. Tables on PostgreSQL:"
                            + " account, loan. Send one PostgreSQL SELECT statement.");
        }
    }

    @Test
    void a_slow_query_is_cancelled_on_the_server_at_the_time_limit() throws Exception {
        Workspace.Limits quick = Workspace.Limits.defaults().withQueryTimeout(Duration.ofSeconds(1));
        try (Workspace ws = Workspace.open(shop, quick)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> ws.query("SELECT pg_sleep(20)"))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("Query cancelled on PostgreSQL after the time limit of 1 s. Aggregate more, filter earlier,"
                            + " or avoid cross joins.");
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
        }
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(20)%'")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    @Test
    void a_result_too_big_to_bring_back_stays_on_the_engine_and_the_message_suggests_an_aggregate() throws Exception {
        Dataset capped = LiveConnect.connect(store, "shop_capped", url("postgres"), Map.of("max_rows", "100"), Map.of(),
                LIMITS).dataset();
        try (Workspace ws = Workspace.open(capped, LIMITS)) {
            assertThatThrownBy(() -> ws.saveFrame("all_loans", "SELECT * FROM loan"))
                    .isInstanceOf(QueryException.class)
                    .hasMessage("The result is too big to bring back: more than 100 rows (2,000 on the engine). It stays on"
                            + " PostgreSQL: aggregate it there (GROUP BY with count, sum or avg) or filter it, and keep the"
                            + " smaller result.");
            assertThat(ws.frames()).isEmpty();
            assertThat(ws.saveFrame("few", "SELECT * FROM loan WHERE loan_id <= 100").rowCount()).isEqualTo(100);
        }
    }

    @Test
    void the_automatic_knowledge_graph_comes_from_declared_keys_and_bounded_samples() throws Exception {
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            var kg = Knowledge.build(ws, java.util.Optional.empty()).graph();
            assertThat(kg.joins()).extracting(KgEntry.Join::condition).contains("loan.account_id = account.account_id");
            assertThat(kg.column("account", "region")).get().extracting(KgEntry.Column::values)
                    .isEqualTo(List.of("north", "south", "west"));
            assertThat(kg.column("loan", "loan_id")).get().extracting(KgEntry.Column::key).isEqualTo(true);
        }
    }

    @Test
    void keys_in_different_formats_join_on_the_engine_through_the_rendered_transform() throws Exception {
        Dataset formats = LiveConnect.connect(store, "formats", url("postgres") + "?schema=formats", Map.of(), Map.of(),
                LIMITS).dataset();
        try (Workspace ws = Workspace.open(formats, LIMITS)) {
            KgEntry.Join j = Knowledge.build(ws, java.util.Optional.empty()).graph().joins().get(0);
            assertThat(j.written()).isEqualTo("review.business_ref = business.business_id");
            // the condition is DuckDB's, as all SQL Sift writes; it is rendered for PostgreSQL where it is sent
            assertThat(j.condition()).isEqualTo("ltrim(regexp_extract(CAST(review.business_ref AS VARCHAR), '([0-9]+)[^0-9]*$',"
                    + " 1), '0') = ltrim(regexp_extract(CAST(business.business_id AS VARCHAR), '([0-9]+)[^0-9]*$', 1), '0')");
            assertThat(j.approved()).isTrue();
            String rendered = ws.render("SELECT count(*) FROM review JOIN business ON " + j.condition());
            assertThat(rendered).contains("regexp_match(CAST(\"review\".\"business_ref\" AS VARCHAR)");
            assertThat(ws.query(rendered).scalar()).isEqualTo(40L);
        }
    }

    @Test
    void try_cast_reads_nan_and_infinity_as_duckdb_does_and_other_words_as_null() throws Exception {
        String sql = "SELECT s.k, TRY_CAST(s.t AS DOUBLE) AS d, TRY_CAST(s.t AS DECIMAL(18,3)) AS m FROM account"
                + " CROSS JOIN (SELECT 1 AS k, 'NaN' AS t UNION ALL SELECT 2, ' -Infinity' UNION ALL SELECT 3, 'inf'"
                + " UNION ALL SELECT 4, '+INF' UNION ALL SELECT 5, ' 2.5 ' UNION ALL SELECT 6, 'n/a') s"
                + " WHERE account.account_id = 1 ORDER BY s.k";
        List<String> duckdb = new java.util.ArrayList<>();
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE account (account_id INTEGER)");
            st.execute("INSERT INTO account VALUES (1)");
            try (java.sql.ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    duckdb.add(String.valueOf(rs.getObject(2)));
                }
            }
        }
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            assertThat(ws.render(sql)).contains("~* '^\\s*[-+]?nan\\s*$' THEN CAST('NaN' AS DOUBLE PRECISION)");
            List<List<Object>> rows = ws.trustedQuery(sql, 10).rows();
            assertThat(rows.stream().map(r -> r.get(1) + " " + r.get(2))).containsExactly("NaN null", "-Infinity null",
                    "Infinity null", "Infinity null", "2.5 2.5", "null null"); // a DECIMAL holds no NaN or infinity
            assertThat(rows.stream().map(r -> String.valueOf(r.get(1)))).containsExactlyElementsOf(duckdb);
        }
    }

    @Test
    void date_sub_over_timestamps_counts_whole_elapsed_units_as_duckdb_does() throws Exception {
        String sql = "SELECT s.k, date_sub('day', s.a, s.b) AS days, date_sub('hour', s.a, s.b) AS hours FROM account"
                + " CROSS JOIN (SELECT 1 AS k, TIMESTAMP '2020-01-01 12:00' AS a, TIMESTAMP '2020-01-02 11:00' AS b"
                + " UNION ALL SELECT 2, TIMESTAMP '2020-01-02 11:00', TIMESTAMP '2020-01-01 12:00'"
                + " UNION ALL SELECT 3, TIMESTAMP '2020-01-03 12:00', TIMESTAMP '2020-01-01 12:30') s"
                + " WHERE account.account_id = 1 ORDER BY s.k";
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            assertThat(ws.trustedQuery(sql, 10).rows()).containsExactly(List.of(1L, 0L, 23L), List.of(2L, 0L, -23L),
                    List.of(3L, -1L, -47L)); // DuckDB's values for the same timestamps
            assertThatThrownBy(() -> ws.render("SELECT date_sub('month', s.a, s.b) FROM account CROSS JOIN (SELECT"
                    + " TIMESTAMP '2020-01-01 12:00' AS a, TIMESTAMP '2020-03-01 11:00' AS b) s")).hasMessageStartingWith(
                    "Cannot write this for PostgreSQL: DuckDB's function date_sub in this form has no PostgreSQL form");
        }
    }

    @Test
    void analysis_tools_run_on_rows_brought_back_from_the_engine_and_say_so() throws Exception {
        ToolRegistry tools = Sift.defaultTools();
        try (Workspace ws = Workspace.open(shop, LIMITS)) {
            ToolResult r = tools.run(tools.prepare("profile_data", JSON.readTree("{\"source\":\"loan\"}"), ws),
                    new ToolContext(ws, null, "profile loans"));
            assertThat(r.ok()).as(r.summary()).isTrue();
            assertThat(r.note()).hasValue("Computed in this session on all 2,000 rows of loan, brought back from PostgreSQL"
                    + " as frame sample_loan.");
            assertThat(r.summary()).startsWith(r.note().get()).contains("Profile of sample_loan (2000 rows");
            ToolResult q = tools.run(tools.prepare("data_quality_report", JSON.readTree("{\"source\":\"loan\"}"), ws),
                    new ToolContext(ws, null, "check loans"));
            assertThat(q.ok()).as(q.summary()).isTrue();
            assertThat(ws.frames()).extracting(TableInfo::name).containsOnlyOnce("sample_loan");
        }
        Dataset capped = LiveConnect.connect(store, "shop_sampled", url("postgres"), Map.of("max_rows", "100"), Map.of(),
                LIMITS).dataset();
        try (Workspace ws = Workspace.open(capped, LIMITS)) {
            ToolResult r = tools.run(tools.prepare("profile_data", JSON.readTree("{\"source\":\"loan\"}"), ws),
                    new ToolContext(ws, null, "profile loans"));
            assertThat(r.note()).hasValue("Computed in this session on a bounded sample of loan brought back from PostgreSQL"
                    + " as frame sample_loan: the first 100 of ~2,000 rows (not the whole table; aggregate on the engine with"
                    + " run_sql for exact totals).");
            assertThat(r.summary()).contains("Profile of sample_loan (100 rows");
        }
    }

    @Test
    void the_offline_planner_answers_on_the_engine_in_its_dialect() throws Exception {
        Sift sift = new Sift(home, null, LIMITS);
        var run = sift.ask("What is the median amount of loans?", shop, AgentConfig.defaults()).run();
        assertThat(run.evidence()).as(run.answer() + " / " + run.notes()).isNotEmpty();
        assertThat(run.evidence().get(run.evidence().size() - 1).sql()).contains("percentile_cont(0.5) WITHIN GROUP");
        assertThat(run.answer()).startsWith("The median of loan.amount is 11,005.");
    }
}
