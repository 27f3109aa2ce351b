package dev.sift.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.tool.ArgsBinder;
import dev.sift.tool.JsonSchemas;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Sift's MCP server on the official SDK: the four tools and two resource templates of {@link SiftMcp}, over stdio
 * (one client, the process that started Sift) or over a stateless transport (the server's {@code /mcp}). Each tool's
 * input schema is derived from its argument record, and calls are bound to that record by the same strict binder as
 * the planner's tool calls, so an unknown, missing or mistyped argument is an invalid-params error naming the
 * arguments there are. The SDK's own schema check is off: the binder's messages say how to call instead.
 */
public final class McpServers {
    private static final Logger LOG = LoggerFactory.getLogger(McpServers.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String NAME = "sift";
    static final String VERSION = "0.1.0";
    static final String INSTRUCTIONS = "Sift answers questions about tabular datasets from the data and shows its work."
            + " Use ask for questions in plain words: the answer comes with its status (how it was checked), the SQL"
            + " and rows it rests on, and a session id; when Sift asks a question back (kind 'clarification'), reply"
            + " with ask and the same session. Use sql for one read-only SELECT, list_datasets and describe_dataset to"
            + " see what there is. Sift never writes to a dataset and refuses rather than guesses.";

    /** What a tool does with its bound arguments. */
    @FunctionalInterface
    interface Call<A extends Record> {
        CallToolResult run(A args) throws Exception;
    }

    /** One tool: its wire name, what it is for, its argument record and what runs it. */
    record Def<A extends Record>(String name, String title, String description, Class<A> args, Call<A> call) {
        McpSchema.Tool tool() {
            @SuppressWarnings("unchecked")
            Map<String, Object> schema = JSON.convertValue(JsonSchemas.of(args), Map.class);
            return McpSchema.Tool.builder().name(name).title(title).description(description).inputSchema(schema)
                    .outputSchema(outputSchema(name))
                    .annotations(new McpSchema.ToolAnnotations(title, true, false, !name.equals("ask"), false, null))
                    .build();
        }

        CallToolResult handle(Map<String, Object> arguments) {
            A bound;
            try {
                JsonNode in = JSON.valueToTree(arguments == null ? Map.of() : arguments);
                bound = ArgsBinder.bind(new ToolSpec(name, description, args, "", Set.of()), in);
            } catch (ToolCallException e) {
                throw McpErrors.invalid(e.getMessage());
            }
            try {
                return call.run(bound);
            } catch (McpError e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw McpErrors.invalid(name + ": " + e.getMessage());
            } catch (Exception | Error e) {
                String ref = UUID.randomUUID().toString().substring(0, 8);
                LOG.error("MCP tool {} failed (reference {})", name, ref, e);
                return SiftMcp.refused(name + " failed with an internal error (reference " + ref + "); the Sift log"
                        + " has the details.");
            }
        }
    }

    private McpServers() { }

    /** What a tool's structured content holds: {@code mcp/<tool>.output.json}. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> outputSchema(String tool) {
        try (InputStream in = McpServers.class.getResourceAsStream("/mcp/" + tool + ".output.json")) {
            if (in == null) {
                throw new IllegalStateException("No output schema for MCP tool " + tool);
            }
            return JSON.readValue(in, Map.class);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<Def<?>> tools(SiftMcp mcp) {
        return List.of(
                new Def<>("ask", "Ask Sift", "Answer a question about a dataset from the data: Sift plans over its"
                        + " checked tools (SQL, knowledge graph, ML, charts) and returns the answer with kind (answer,"
                        + " clarification, refusal…), status (how it was checked), evidence (SQL, row counts, first"
                        + " rows), notes, charts (Vega-Lite), the session to continue in and the trace.",
                        McpArgs.Ask.class, mcp::ask),
                new Def<>("sql", "Run read-only SQL", "Run one read-only SELECT (or WITH … SELECT) on a dataset through"
                        + " Sift's SQL guard (one statement, bind-checked, time and memory limits); returns columns,"
                        + " the first rows and the full row count. Anything that would write is refused.",
                        McpArgs.Sql.class, mcp::sql),
                new Def<>("list_datasets", "List datasets", "The datasets Sift can answer about, with their tables"
                        + " and row counts.", McpArgs.ListDatasets.class, a -> mcp.listDatasets()),
                new Def<>("describe_dataset", "Describe a dataset", "A dataset's tables and columns (types, keys,"
                        + " descriptions, sample values), approved joins and the knowledge graph's metrics and"
                        + " concepts.", McpArgs.DescribeDataset.class, mcp::describeDataset));
    }

    static McpJsonMapper jsonMapper() {
        return new JacksonMcpJsonMapper(new ObjectMapper());
    }

    private static McpSchema.ServerCapabilities capabilities() {
        return McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build();
    }

    /** The server on this process's standard input and output; tool calls run on the SDK's worker threads. */
    public static McpSyncServer stdio(SiftMcp mcp, InputStream in, OutputStream out) {
        var spec = McpServer.sync(new StdioServerTransportProvider(jsonMapper(), in, out))
                .serverInfo(NAME, VERSION).instructions(INSTRUCTIONS).capabilities(capabilities())
                .validateToolInputs(false);
        for (Def<?> d : tools(mcp)) {
            spec.toolCall(d.tool(), (exchange, req) -> d.handle(req.arguments()));
        }
        for (McpSchema.ResourceTemplate t : SiftResources.templates()) {
            spec.resourceTemplates(new McpServerFeatures.SyncResourceTemplateSpecification(t,
                    (exchange, req) -> read(mcp, req.uri())));
        }
        return spec.build();
    }

    /** The server behind a stateless transport (each request answered on the thread that carries it). */
    public static McpStatelessSyncServer stateless(SiftMcp mcp, McpStatelessServerTransport transport) {
        var spec = McpServer.sync(transport).serverInfo(NAME, VERSION).instructions(INSTRUCTIONS)
                .capabilities(capabilities()).validateToolInputs(false).immediateExecution(true);
        for (Def<?> d : tools(mcp)) {
            spec.toolCall(d.tool(), (ctx, req) -> d.handle(req.arguments()));
        }
        for (McpSchema.ResourceTemplate t : SiftResources.templates()) {
            spec.resourceTemplates(new McpStatelessServerFeatures.SyncResourceTemplateSpecification(t,
                    (ctx, req) -> read(mcp, req.uri())));
        }
        return spec.build();
    }

    private static ReadResourceResult read(SiftMcp mcp, String uri) {
        try {
            return SiftResources.read(mcp, uri);
        } catch (McpError e) {
            throw e;
        } catch (Exception e) {
            String ref = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("MCP resource {} failed (reference {})", uri, ref, e);
            throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message("Reading " + uri + " failed with an"
                    + " internal error (reference " + ref + "); the Sift log has the details.").build();
        }
    }
}
