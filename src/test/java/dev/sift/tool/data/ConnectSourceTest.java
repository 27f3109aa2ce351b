package dev.sift.tool.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.DatasetStore;
import dev.sift.data.Workspace;
import dev.sift.data.source.AllowedSources;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** connect_source called as the loop calls it: through the registry, on a workspace over the small bank. */
class ConnectSourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private Path allowed;
    private Path outside;
    private DatasetStore store;
    private Workspace ws;

    @BeforeEach
    void open() throws Exception {
        allowed = Files.createDirectories(tmp.resolve("allowed"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        store = new DatasetStore(tmp.resolve("home/datasets"));
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolRegistry tools(String setting) {
        return Sift.defaultTools(new ConnectSource(store, AllowedSources.of(setting, tmp.resolve("home"), tmp, Map.of())));
    }

    private ToolResult call(ToolRegistry tools, String tool, Map<String, Object> args) throws Exception {
        return tools.run(tools.prepare(tool, JSON.valueToTree(args), ws), new ToolContext(ws, null, "question"));
    }

    private ToolResult connect(String setting, String source) throws Exception {
        return call(tools(setting), "connect_source", Map.of("source", source));
    }

    private Path write(Path dir, String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void an_allowed_csv_file_becomes_the_session_dataset_and_the_frames_made_before_stay() throws Exception {
        write(allowed, "orders.csv", "order_id,amount\n1,10.5\n2,20\n3,4.5\n");
        ToolRegistry tools = tools(allowed.toString());
        assertThat(call(tools, "run_sql", Map.of("sql", "SELECT count(*) AS loans FROM loan", "label", "loans")).ok()).isTrue();
        ToolResult r = call(tools, "connect_source", Map.of("source", allowed.resolve("orders.csv").toString(), "name", "sales"));
        assertThat(r.ok()).as(r.summary()).isTrue();
        assertThat(r.summary()).startsWith("Connected ").contains("as dataset 'sales', now this session's dataset in place"
                + " of 'bank': 1 table, queried by name; frames made so far stay.").contains("table orders (3 rows): order_id BIGINT");
        assertThat(ws.dataset().name()).isEqualTo("sales");
        assertThat(ws.datasetTables()).extracting(dev.sift.data.TableInfo::name).containsExactly("orders");

        ToolResult sum = call(tools, "run_sql", Map.of("sql", "SELECT sum(amount) AS total, (SELECT loans FROM frames.loans)"
                + " AS loans FROM orders", "label", "totals"));
        assertThat(sum.ok()).as(sum.summary()).isTrue();
        assertThat(ws.query("SELECT total, loans FROM totals").rows())
                .containsExactly(List.of(35.0, TestDatasets.bank().rows("loan")));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> call(tools, "run_sql", Map.of("sql",
                "SELECT count(*) FROM loan")))).hasMessageContaining("Table with name loan does not exist");
        assertThat(store.find("sales")).isPresent(); // built once into the store, like sift load
    }

    @Test
    void in_a_run_connect_source_then_run_sql_queries_the_new_dataset_and_the_prompt_shows_its_schema() throws Exception {
        Path orders = write(allowed, "orders.csv", "order_id,amount\n1,10.5\n2,20\n3,4.5\n");
        dev.sift.llm.ScriptedLlm llm = new dev.sift.llm.ScriptedLlm(
                "{\"thought\":\"the user named a file\",\"tool\":\"connect_source\",\"args\":{\"source\":"
                        + JSON.writeValueAsString(orders.toString()) + ",\"name\":\"sales\"}}",
                "{\"thought\":\"sum them\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT sum(amount) AS total FROM orders\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"The orders total 35.\"}");
        dev.sift.agent.AgentRun run = new dev.sift.agent.AgentLoop(new dev.sift.planner.LlmPlanner(llm), tools(allowed.toString()),
                ws, llm, dev.sift.agent.AgentConfig.defaults()).run("What do the orders in " + orders + " total?");

        assertThat(run.steps()).extracting(dev.sift.agent.Step::tool, dev.sift.agent.Step::ok).containsExactly(
                org.assertj.core.groups.Tuple.tuple("connect_source", true), org.assertj.core.groups.Tuple.tuple("run_sql", true));
        assertThat(run.evidence()).singleElement().satisfies(e -> assertThat(e.rows()).containsExactly(List.of(35.0)));
        assertThat(run.answer()).isEqualTo("The orders total 35.");
        assertThat(run.dataset()).isEqualTo("sales");
        String before = llm.requests().get(0).messages().get(1).content();
        String after = llm.requests().get(1).messages().get(1).content();
        assertThat(before).contains("table order (").contains("loan (").doesNotContain("table orders (");
        assertThat(after).contains("table orders (3 rows): order_id BIGINT").doesNotContain("table loan (");
    }

    @Test
    void a_sqlite_file_in_the_working_directory_is_allowed_by_default_and_connecting_again_reuses_it() throws Exception {
        Path db = tmp.resolve("crm.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE client (id INTEGER PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO client VALUES (1, 'Ana'), (2, 'Ben')");
        }
        ToolResult first = connect(null, "crm.sqlite");
        assertThat(first.ok()).as(first.summary()).isTrue();
        assertThat(first.summary()).contains("table client (2 rows)");
        String builtAt = store.get("crm").builtAt();
        ToolResult again = connect(null, "crm.sqlite");
        assertThat(again.ok()).as(again.summary()).isTrue();
        assertThat(again.summary()).contains("as dataset 'crm', now this session's dataset: 1 table");
        assertThat(store.get("crm").builtAt()).isEqualTo(builtAt);
        assertThat(ws.query("SELECT name FROM client ORDER BY id").rows()).containsExactly(List.of("Ana"), List.of("Ben"));
    }

    @Test
    void a_path_outside_the_allowed_folders_is_refused_naming_the_setting() throws Exception {
        Path secret = write(outside, "secret.csv", "a\n1\n");
        ToolResult r = connect(allowed.toString(), secret.toString());
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).isEqualTo("Source " + secret + " is outside the folders Sift may read (" + allowed
                + "). The operator allows folders and URLs in SIFT_ALLOWED_SOURCES; ask the user to put the file there"
                + " or to load it with sift load.");
        assertThat(ws.dataset().name()).isEqualTo("bank");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void a_relative_path_that_climbs_out_of_the_allowed_folder_is_refused() throws Exception {
        write(outside, "secret.csv", "a\n1\n");
        ToolResult r = connect(allowed.toString(), "allowed/../outside/secret.csv");
        assertThat(r.error()).startsWith("Source allowed/../outside/secret.csv is outside the folders Sift may read");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void a_link_inside_the_allowed_folder_that_leads_outside_is_refused() throws Exception {
        Path secret = write(outside, "secret.csv", "a\n1\n");
        Path link = Files.createSymbolicLink(allowed.resolve("innocent.csv"), secret);
        ToolResult r = connect(allowed.toString(), link.toString());
        assertThat(r.error()).isEqualTo("Source " + link + " is a link that leads outside the allowed folders (" + allowed
                + "); the folders are set by the operator in SIFT_ALLOWED_SOURCES.");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void a_dump_folder_holding_a_link_out_of_the_allowed_folders_is_refused() throws Exception {
        Path dump = Files.createDirectories(allowed.resolve("dump"));
        write(dump, "users.metadata.json", "{}");
        Files.createSymbolicLink(dump.resolve("users.bson"), write(outside, "other.bson", ""));
        ToolResult r = connect(allowed.toString(), dump.toString());
        assertThat(r.error()).startsWith("Folder " + dump + " holds users.bson, a link that leads outside the allowed folders");
    }

    @Test
    void url_schemes_sift_does_not_connect_to_are_refused() throws Exception {
        assertThat(connect(allowed + ",postgresql://db.internal", "file:///etc/passwd").error())
                .isEqualTo("Source file:///etc/passwd: the scheme 'file' is not one Sift connects to; use a path, or"
                        + " postgresql://, mysql://, mariadb://, mongodb:// or s3:// under a prefix allowed in SIFT_ALLOWED_SOURCES.");
        assertThat(connect(null, "http://169.254.169.254/latest/meta-data").error())
                .startsWith("Source http://169.254.169.254/latest/meta-data: the scheme 'http' is not one Sift connects to");
    }

    @Test
    void urls_are_allowed_only_under_a_configured_prefix_without_driver_options() throws Exception {
        AllowedSources policy = AllowedSources.of("postgresql://db.internal/shop, s3://lake/public", tmp, tmp, Map.of());
        assertThat(policy.check("postgresql://sift@db.internal:5432/shop?schema=sales"))
                .isEqualTo("postgresql://sift@db.internal:5432/shop?schema=sales");
        assertThat(policy.check("s3://lake/public/2024/orders.parquet")).isEqualTo("s3://lake/public/2024/orders.parquet");
        for (String refused : List.of("postgresql://db.internal.evil.example/shop", "postgresql://db.internal:6543/shop",
                "postgresql://db.internal/shopping", "mysql://db.internal/shop", "s3://lake/publicity/x.csv",
                "s3://lake/public/../private/x.csv")) {
            assertThat(connect("postgresql://db.internal/shop, s3://lake/public", refused).ok()).as(refused).isFalse();
        }
        assertThat(connect("postgresql://db.internal/shop", "postgresql://db.internal/shopping").error())
                .isEqualTo("Source postgresql://db.internal/shopping is not under a URL prefix the operator allows"
                        + " (postgresql://db.internal/shop). Allowed sources are set in SIFT_ALLOWED_SOURCES.");
        assertThat(connect("s3://lake/public", "s3://lake/public/x.csv?endpoint=http://attacker.example").error())
                .isEqualTo("Source s3://lake/public/x.csv?endpoint=http://attacker.example: the option 'endpoint' cannot"
                        + " be set when connecting from a conversation (only ?schema= can); the operator sets driver options"
                        + " with sift load.");
        assertThat(connect(null, "postgresql://db.internal/shop").error()).contains("(none are set)");
    }

    @Test
    void the_registry_built_without_configuration_refuses_every_source() throws Exception {
        write(tmp, "orders.csv", "a\n1\n");
        ToolRegistry plain = Sift.defaultTools();
        ToolResult r = plain.run(plain.prepare("connect_source", JSON.valueToTree(Map.of("source", tmp.resolve("orders.csv")
                .toString())), ws), new ToolContext(ws, null, "q"));
        assertThat(r.error()).contains("is outside the folders Sift may read (none)").contains("SIFT_ALLOWED_SOURCES");
    }

    @Test
    void a_name_taken_by_a_dataset_of_other_sources_is_refused_with_what_to_do() throws Exception {
        write(allowed, "a.csv", "x\n1\n");
        write(allowed, "b.csv", "x\n2\n");
        ToolRegistry tools = tools(allowed.toString());
        assertThat(call(tools, "connect_source", Map.of("source", allowed.resolve("a.csv").toString(), "name", "t")).ok()).isTrue();
        ToolResult r = call(tools, "connect_source", Map.of("source", allowed.resolve("b.csv").toString(), "name", "t"));
        assertThat(r.error()).isEqualTo("A dataset named 't' already exists, built from other sources: call connect_source"
                + " again with another name=.");
        assertThat(call(tools, "connect_source", Map.of("source", allowed.resolve("b.csv").toString(), "name", "bank")).error())
                .isEqualTo("'bank' is a demo dataset's name: call connect_source again with another name=.");
    }

    @Test
    void switching_opens_no_other_file_even_to_sql_the_guard_does_not_parse() throws Exception {
        write(allowed, "orders.csv", "order_id\n1\n");
        Path other = write(allowed, "other.csv", "x\n1\n");
        assertThat(connect(allowed.toString(), allowed.resolve("orders.csv").toString()).ok()).isTrue();
        for (String sql : List.of("SELECT * FROM read_csv(" + dev.sift.data.Sql.quoteString(other.toString()) + ")",
                "SELECT * FROM read_text(" + dev.sift.data.Sql.quoteString(store.root().resolve("orders.json").toString()) + ")")) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ws.trustedQuery(sql, 10))).as(sql)
                    .isInstanceOf(dev.sift.data.QueryException.class).hasMessageContaining("disabled by configuration");
        }
    }

    @Test
    void a_missing_file_inside_the_allowed_folder_says_so() throws Exception {
        assertThat(connect(allowed.toString(), allowed.resolve("nope.csv").toString()).error())
                .isEqualTo("File not found: " + allowed.resolve("nope.csv") + ".");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, unit = java.util.concurrent.TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void a_named_pipe_inside_the_allowed_folder_is_refused_without_being_opened() throws Exception {
        Path pipe = allowed.resolve("feed.csv");
        Process p = new ProcessBuilder("mkfifo", pipe.toString()).start();
        assertThat(p.waitFor()).isZero();
        assertThat(connect(allowed.toString(), pipe.toString()).error()).isEqualTo("Could not connect " + pipe + ": File "
                + pipe + " is not a regular file (a named pipe, socket or device), so Sift does not open it: give a"
                + " regular file");
    }
}
