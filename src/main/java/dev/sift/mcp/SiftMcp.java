package dev.sift.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.StepListener;
import dev.sift.agent.TraceStore;
import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.session.Conversation;
import dev.sift.session.SessionStore;
import dev.sift.session.Sessions;
import dev.sift.text.ResultText;
import dev.sift.text.SafeText;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What Sift's MCP tools do, whatever the transport: {@code ask} runs a conversation turn (the whole loop, in a
 * session that the answer names so that the next ask can continue it), {@code sql} runs one statement through the
 * agent's SQL guard, {@code list_datasets} and {@code describe_dataset} tell what there is to ask about. Every result
 * carries a short text for the model and the same facts as structured content. Nothing here writes to a dataset:
 * workspaces attach datasets read-only, the guard admits one SELECT, and the runs' tools connect no new source.
 */
public final class SiftMcp implements AutoCloseable {
    /** Rows {@code sql} returns when {@code max_rows} is not given, and at most. */
    static final int SQL_ROWS = 100;
    static final int MAX_SQL_ROWS = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Sift sift;
    private final Sessions sessions;
    private final boolean ownsSessions;
    private final Conversation.Engine engine;
    private final AgentConfig config = AgentConfig.defaults();

    /**
     * {@code sessions} are the process's active sessions (a server shares its own, so a session begun over MCP is
     * one of the app's); {@code owns} says whether closing this closes them.
     */
    public SiftMcp(Sift sift, Sessions sessions, boolean owns) {
        this.sift = sift;
        this.sessions = sessions;
        this.ownsSessions = owns;
        // the product's tools with a connect_source that refuses every source: an MCP client attaches nothing
        this.engine = sift.engine(Sift.defaultTools(), new TraceStore(sift.home().resolve("traces")));
    }

    /** With sessions of its own (at most {@code maxOpen} open at once). */
    public static SiftMcp standalone(Sift sift, int maxOpen) {
        return new SiftMcp(sift, sift.sessions(maxOpen), true);
    }

    Sift sift() {
        return sift;
    }

    /** Which planner answers: the configured model's, else the offline one. */
    String planner() {
        return sift.llm().isPresent() ? "model" : "offline";
    }

    CallToolResult ask(McpArgs.Ask a) throws Exception {
        if (a.question().isBlank()) {
            throw McpErrors.invalid("ask: the question is empty. Ask something about the data, e.g. {\"question\":"
                    + " \"How many loans are there?\"}.");
        }
        Conversation c = conversation(a);
        Conversation.Outcome o = c.ask(a.question(), engine, config, StepListener.NONE, null, null);
        ObjectNode json = o.json();
        json.put("session", o.session().id());
        json.put("trace_uri", SiftResources.traceUri(o.run().runId()));
        return result(McpText.answer(json), json, false);
    }

    /** The session named, or a new one on the dataset named (the demo when none is). */
    private Conversation conversation(McpArgs.Ask a) throws Exception {
        if (a.session() == null) {
            return sessions.create(dataset(a.dataset()).name());
        }
        Optional<Conversation> c = SessionStore.validId(a.session()) ? sessions.get(a.session()) : Optional.empty();
        if (c.isEmpty()) {
            throw McpErrors.invalid("ask: no session '" + SafeText.oneLine(a.session()) + "'. Give the 'session' an"
                    + " earlier ask returned, or omit it to start a new session.");
        }
        String on = c.get().session().dataset();
        if (a.dataset() != null && !a.dataset().equals(on)) {
            throw McpErrors.invalid("ask: session '" + a.session() + "' is on dataset '" + on + "', not '"
                    + SafeText.oneLine(a.dataset()) + "'. Omit 'dataset' to continue the session, or omit 'session' to"
                    + " ask '" + SafeText.oneLine(a.dataset()) + "' in a new one.");
        }
        return c.get();
    }

    CallToolResult sql(McpArgs.Sql a) throws Exception {
        int max = a.max_rows() == null ? SQL_ROWS : a.max_rows();
        if (max < 1 || max > MAX_SQL_ROWS) {
            throw McpErrors.invalid("sql: max_rows " + max + " is out of range: give 1 to " + MAX_SQL_ROWS
                    + " (row_count counts every row in any case).");
        }
        if (a.query().isBlank()) {
            throw McpErrors.invalid("sql: the query is empty. Give one SELECT statement, e.g. {\"query\":"
                    + " \"SELECT count(*) FROM loan\"}.");
        }
        Dataset ds = dataset(a.dataset());
        Rows rows = new Rows();
        long total;
        try (Workspace ws = sift.open(ds)) {
            total = ws.stream(a.query(), max, rows);
        } catch (QueryException e) {
            return refused("The query was not run: " + e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dataset", ds.name());
        out.put("sql", a.query());
        out.put("columns", rows.names);
        out.put("rows", rows.rows);
        out.put("row_count", total < 0 ? null : total);
        out.put("truncated", total < 0 || total > rows.rows.size());
        return result(McpText.rows(ds.name(), rows.names, rows.rows, total), out, false);
    }

    CallToolResult listDatasets() throws Exception {
        sift.dataset(Sift.DEMO_DATASET, Progress.NONE); // the demo exists from the first call on
        List<Map<String, Object>> all = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (Dataset d : sift.store().list()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", d.name());
            m.put("description", d.description());
            m.put("built_at", d.builtAt());
            m.put("engine", d.onEngine() ? "live" : "duckdb");
            m.put("tables", d.tables().stream().map(t -> Map.of("name", t.name(), "rows", t.rows())).toList());
            all.add(m);
            text.append(d.name()).append(" — ").append(SafeText.oneLine(d.description())).append(": ")
                    .append(String.join(", ", d.tables().stream().map(t -> t.name() + " (" + t.rows() + " rows)")
                            .toList())).append('\n');
        }
        return result(text.toString().strip(), Map.of("datasets", all), false);
    }

    CallToolResult describeDataset(McpArgs.DescribeDataset a) throws Exception {
        Map<String, Object> d = DatasetOutline.of(sift, dataset(a.dataset()));
        return result(DatasetOutline.text(d), d, false);
    }

    /** The named dataset (the demo when none is named, built on first use); unknown names get the list. */
    Dataset dataset(String name) throws Exception {
        String n = name == null || name.isBlank() ? Sift.DEMO_DATASET : name;
        if (n.equals(Sift.DEMO_DATASET)) {
            return sift.dataset(n, Progress.NONE);
        }
        Optional<Dataset> d = sift.store().find(n);
        if (d.isEmpty()) {
            throw McpErrors.invalid("No dataset '" + SafeText.oneLine(n) + "'. Datasets: " + String.join(", ",
                    sift.store().list().stream().map(Dataset::name).toList()) + " (list_datasets describes them).");
        }
        return d.get();
    }

    static CallToolResult result(String text, Object structured, boolean error) {
        Object content = structured instanceof ObjectNode node ? JSON.convertValue(node, Map.class) : structured;
        return CallToolResult.builder().content(List.of(TextContent.builder(text).build()))
                .structuredContent(content).isError(error).build();
    }

    /**
     * A call that was understood but refused (the guard, a write): an error result the model can read and fix. It has
     * no structured content, which clients check against the tool's output schema even on errors.
     */
    static CallToolResult refused(String message) {
        return CallToolResult.builder().content(List.of(TextContent.builder(message).build())).isError(true).build();
    }

    /** A result's first rows, with values as JSON can carry them. */
    private static final class Rows implements Workspace.RowSink {
        List<String> names = List.of();
        final List<List<Object>> rows = new ArrayList<>();

        @Override
        public void columns(List<QueryResult.Column> columns) {
            names = columns.stream().map(QueryResult.Column::name).toList();
        }

        @Override
        public void row(List<Object> row) {
            rows.add(row.stream().map(Rows::json).toList());
        }

        private static Object json(Object v) {
            return v == null || v instanceof Number || v instanceof Boolean || v instanceof String ? v : ResultText.cell(v);
        }
    }

    @Override
    public void close() {
        if (ownsSessions) {
            sessions.close();
        }
    }
}
