package dev.sift.mcp;

import dev.sift.tool.Arg;

/**
 * The arguments of Sift's MCP tools, as typed records described the way the planner's tools are: the tools' JSON
 * input schemas are derived from them ({@link dev.sift.tool.JsonSchemas}) and calls are bound to them strictly
 * ({@link dev.sift.tool.ArgsBinder}: an unknown or missing argument is an error that names the arguments there are).
 * Component names are the wire names, hence {@code max_rows}.
 */
public final class McpArgs {
    private McpArgs() { }

    public record Ask(
            @Arg("the question about the data, in plain words (e.g. \"How many loans are there?\")") String question,
            @Arg(value = "dataset to ask (default: bank, the demo); with a session, the session's own dataset",
                    required = false) String dataset,
            @Arg(value = "session id an earlier ask returned: continues that conversation (a reply to a question back,"
                    + " or a follow-up); omit to start a new session", required = false) String session) { }

    public record Sql(
            @Arg(value = "one read-only SELECT (or WITH … SELECT) statement in DuckDB's SQL", kind = Arg.Kind.SQL)
            String query,
            @Arg(value = "dataset to query (default: bank, the demo)", required = false) String dataset,
            @Arg(value = "rows to return at most, 1 to " + SiftMcp.MAX_SQL_ROWS + " (default: " + SiftMcp.SQL_ROWS + ");"
                    + " row_count still counts them all", required = false) Integer max_rows) { }

    public record ListDatasets() { }

    public record DescribeDataset(
            @Arg("dataset to describe, as list_datasets names it") String dataset) { }
}
