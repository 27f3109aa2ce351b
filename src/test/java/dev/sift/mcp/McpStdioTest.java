package dev.sift.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.tool.JsonSchemas;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Drives the real {@code sift mcp} process over stdio with the official SDK's client, as a desktop assistant would:
 * one process for the class, on a Sift home holding the full demo bank, planning offline.
 */
@Timeout(180)
class McpStdioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        client = McpClient.sync(new StdioClientTransport(process(FullBank.home()), new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
    }

    /** {@code java -cp <the tests' class path> dev.sift.cli.Main mcp}, offline, on {@code home}. */
    static ServerParameters process(Path home) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return ServerParameters.builder(java)
                .args("-Xmx1g", "-cp", System.getProperty("java.class.path"), "dev.sift.cli.Main", "mcp")
                .env(Map.of("SIFT_HOME", home.toString(), "SIFT_LLM_PROVIDER", "none")).build();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully(); // ends the process
        }
    }

    static CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new CallToolRequest(tool, args));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    static String text(CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    @SuppressWarnings("unchecked")
    void lists_the_four_tools_with_input_schemas_derived_from_their_argument_records() {
        assertThat(client.getServerInfo().name()).isEqualTo("sift");
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("ask", "sql", "list_datasets", "describe_dataset");
        McpSchema.Tool ask = tools.get(0);
        Map<String, Object> expected = JSON.convertValue(JsonSchemas.of(McpArgs.Ask.class), Map.class);
        assertThat(JSON.convertValue(ask.inputSchema(), Map.class)).isEqualTo(expected);
        assertThat((List<String>) ask.inputSchema().get("required")).containsExactly("question");
        assertThat(ask.annotations().readOnlyHint()).isTrue();
        assertThat((Map<String, Object>) tools.get(1).inputSchema().get("properties"))
                .containsOnlyKeys("query", "dataset", "max_rows");
    }

    @Test
    @SuppressWarnings("unchecked")
    void ask_answers_how_many_loans_with_its_evidence_session_and_trace() throws Exception {
        CallToolResult r = call("ask", Map.of("question", "How many loans are there?"));
        assertThat(r.isError()).isFalse();
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("kind", "answer").containsEntry("status", "rule_based")
                .containsEntry("planner", "offline");
        assertThat((String) s.get("answer")).startsWith("There are 691 loans.");
        Map<String, Object> evidence = ((List<Map<String, Object>>) s.get("evidence")).get(0);
        assertThat(evidence).containsEntry("sql", "SELECT count(*) AS n FROM loan").containsEntry("row_count", 1)
                .containsEntry("rows", List.of(List.of(691)));
        assertThat(text(r)).contains("There are 691 loans.", "Evidence: SELECT count(*) AS n FROM loan");
        assertThat((String) s.get("session")).matches("[0-9a-f-]{36}");

        String uri = (String) s.get("trace_uri");
        assertThat(uri).isEqualTo("sift://traces/" + s.get("run_id"));
        var trace = client.readResource(new McpSchema.ReadResourceRequest(uri));
        McpSchema.TextResourceContents contents = (McpSchema.TextResourceContents) trace.contents().get(0);
        assertThat(contents.mimeType()).isEqualTo("application/json");
        assertThat(JSON.readTree(contents.text()).toString()).contains("SELECT count(*) AS n FROM loan");
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_clarification_comes_back_as_such_and_the_reply_in_its_session_answers_it() {
        Map<String, Object> asked = structured(call("ask", Map.of("question", "What is the total amount?")));
        assertThat(asked).containsEntry("kind", "clarification");
        assertThat((List<?>) asked.get("evidence")).isEmpty();

        Map<String, Object> reply = structured(call("ask", Map.of("question", "loans", "session", asked.get("session"))));
        assertThat(reply).containsEntry("kind", "answer").containsEntry("session", asked.get("session"));
        assertThat((Map<String, Object>) reply.get("turn")).containsEntry("kind", "reply")
                .containsEntry("question", "What is the total amount of loans?");
        Map<String, Object> evidence = ((List<Map<String, Object>>) reply.get("evidence")).get(0);
        assertThat((String) evidence.get("sql")).contains("sum(loan.amount)");
    }

    @Test
    void a_write_is_refused_and_the_data_stays_as_it_was() {
        CallToolResult r = call("sql", Map.of("query", "DELETE FROM loan"));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).startsWith("The query was not run: Refused: only one read-only query (SELECT or WITH …"
                + " SELECT) may run here; this SQL is a DELETE statement.");
        CallToolResult attach = call("sql", Map.of("query", "ATTACH '/tmp/x.duckdb' AS x"));
        assertThat(attach.isError()).isTrue();

        CallToolResult count = call("sql", Map.of("query", "SELECT count(*) AS n FROM loan"));
        assertThat(structured(count)).containsEntry("rows", List.of(List.of(691))).containsEntry("row_count", 1)
                .containsEntry("truncated", false);
    }

    @Test
    @SuppressWarnings("unchecked")
    void sql_returns_the_first_rows_and_counts_them_all() {
        Map<String, Object> s = structured(call("sql", Map.of("query", "SELECT loan_id FROM loan ORDER BY loan_id",
                "max_rows", 3)));
        assertThat((List<String>) s.get("columns")).containsExactly("loan_id");
        assertThat((List<?>) s.get("rows")).hasSize(3);
        assertThat(s).containsEntry("row_count", 691).containsEntry("truncated", true);
    }

    @Test
    void bad_arguments_get_invalid_params_errors_that_name_the_fix() {
        assertInvalid("sql", Map.of("sql", "SELECT 1"), "sql has no argument 'sql'. Its arguments are: query (string,"
                + " required), dataset (string), max_rows (integer).");
        assertInvalid("ask", Map.of(), "ask needs argument 'question' (the question about the data, in plain words"
                + " (e.g. \"How many loans are there?\")). Arguments: question (string, required), dataset (string),"
                + " session (string).");
        assertInvalid("sql", Map.of("query", "SELECT 1", "max_rows", 0), "sql: max_rows 0 is out of range: give 1 to"
                + " 1000 (row_count counts every row in any case).");
        assertInvalid("sql", Map.of("query", "SELECT 1", "max_rows", "many"), "sql argument 'max_rows' must be a whole"
                + " number, got \"many\".");
        assertInvalid("describe_dataset", Map.of("dataset", "nope"), "No dataset 'nope'. Datasets: bank"
                + " (list_datasets describes them).");
        assertInvalid("ask", Map.of("question", "loans", "session", "no-such-session"), "ask: no session"
                + " 'no-such-session'. Give the 'session' an earlier ask returned, or omit it to start a new session.");
    }

    private static void assertInvalid(String tool, Map<String, Object> args, String message) {
        assertThatThrownBy(() -> call(tool, args)).isInstanceOfSatisfying(McpError.class, e -> {
            assertThat(e.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
            assertThat(e.getJsonRpcError().message()).isEqualTo(message);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void lists_and_describes_the_datasets_with_keys_and_approved_joins() {
        Map<String, Object> list = structured(call("list_datasets", Map.of()));
        assertThat((List<Map<String, Object>>) list.get("datasets")).extracting(d -> d.get("name")).containsExactly("bank");

        Map<String, Object> d = structured(call("describe_dataset", Map.of("dataset", "bank")));
        List<Map<String, Object>> tables = (List<Map<String, Object>>) d.get("tables");
        assertThat(tables).extracting(t -> t.get("name")).contains("loan", "account", "client", "district");
        Map<String, Object> loan = tables.stream().filter(t -> t.get("name").equals("loan")).findFirst().orElseThrow();
        assertThat(loan).containsEntry("rows", 691);
        assertThat((List<Map<String, Object>>) d.get("joins")).anySatisfy(j ->
                assertThat(j).containsEntry("from", "loan.account_id").containsEntry("to", "account.account_id"));
        var schema = client.readResource(new McpSchema.ReadResourceRequest("sift://datasets/bank/schema"));
        assertThat(((McpSchema.TextResourceContents) schema.contents().get(0)).text()).contains("\"loan.account_id\"");
    }
}
