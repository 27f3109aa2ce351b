package dev.sift.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sift's MCP resources: a saved trace ({@code sift://traces/{id}}, the run id every answer names: every step with its
 * thought, tool, arguments and observation) and a dataset's schema ({@code sift://datasets/{name}/schema}, what
 * {@code describe_dataset} returns), both JSON and both read-only.
 */
final class SiftResources {
    static final String TRACE_TEMPLATE = "sift://traces/{id}";
    static final String SCHEMA_TEMPLATE = "sift://datasets/{name}/schema";
    private static final Pattern TRACE = Pattern.compile("sift://traces/([0-9a-fA-F-]{1,64})");
    private static final Pattern SCHEMA = Pattern.compile("sift://datasets/([A-Za-z0-9_.-]{1,128})/schema");
    private static final ObjectMapper JSON = new ObjectMapper();

    private SiftResources() { }

    static String traceUri(String runId) {
        return "sift://traces/" + runId;
    }

    static String schemaUri(String dataset) {
        return "sift://datasets/" + dataset + "/schema";
    }

    static List<ResourceTemplate> templates() {
        return List.of(
                ResourceTemplate.builder(TRACE_TEMPLATE, "trace").title("A run's trace")
                        .description("Every step of a run (thought, tool, arguments, observation, time, tokens): the"
                                + " trace_uri an ask result names.").mimeType("application/json").build(),
                ResourceTemplate.builder(SCHEMA_TEMPLATE, "schema").title("A dataset's schema")
                        .description("Tables, columns, keys, approved joins and the knowledge graph's outline, as"
                                + " describe_dataset returns them.").mimeType("application/json").build());
    }

    static ReadResourceResult read(SiftMcp mcp, String uri) throws Exception {
        Matcher t = TRACE.matcher(uri);
        if (t.matches()) {
            Path file = mcp.sift().home().resolve("traces").resolve(t.group(1) + ".json");
            if (!Files.isRegularFile(file)) {
                throw McpErrors.notFound("No trace '" + t.group(1) + "': give the run_id of an answer of this Sift"
                        + " (its trace_uri).");
            }
            return contents(uri, Files.readString(file));
        }
        Matcher s = SCHEMA.matcher(uri);
        if (s.matches()) {
            return contents(uri, JSON.writeValueAsString(DatasetOutline.of(mcp.sift(), mcp.dataset(s.group(1)))));
        }
        throw McpErrors.notFound("No resource '" + dev.sift.text.SafeText.oneLine(uri) + "': Sift has "
                + TRACE_TEMPLATE + " and " + SCHEMA_TEMPLATE + ".");
    }

    private static ReadResourceResult contents(String uri, String json) {
        return new ReadResourceResult(List.of(new TextResourceContents(uri, "application/json", json)));
    }
}
