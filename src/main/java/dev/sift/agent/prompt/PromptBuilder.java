package dev.sift.agent.prompt;

import dev.sift.data.Workspace;
import dev.sift.llm.PromptTemplate;
import dev.sift.tool.JsonSchemas;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.data.SchemaRenderer;

import java.util.Map;

/** Builds the system prompt once per run: framing, the tool catalog and the budgeted dataset block. */
public final class PromptBuilder {
    /** Characters of schema in the system prompt; inspect_data shows the rest on demand. */
    public static final int SCHEMA_BUDGET = 6000;

    private PromptBuilder() { }

    public static String system(Workspace ws, ToolRegistry tools) {
        return PromptTemplate.load("system").render(Map.of(
                "dataset", ws.dataset().name(),
                "tools", catalog(tools),
                "schema", SchemaRenderer.render(ws.tables(), SCHEMA_BUDGET)));
    }

    /** One line per tool: {@code - run_sql(sql: string, label?: string): description}. */
    public static String catalog(ToolRegistry tools) {
        StringBuilder b = new StringBuilder();
        for (Tool<?> t : tools.tools()) {
            b.append("- ").append(JsonSchemas.signature(t.spec())).append(": ").append(t.spec().description()).append('\n');
        }
        return b.toString().trim();
    }
}
