package dev.sift.tool.narrate;

import dev.sift.data.FixableException;
import dev.sift.text.EvidenceText;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.PromptTemplate;
import dev.sift.tool.Arg;
import dev.sift.text.Evidence;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the run's query results into a short narrative that cites their numbers. With a model it writes
 * prose from the evidence only; without one (or when the model fails) it renders the evidence plainly
 * and marks the result {@code rule_based}.
 */
public final class SummarizeResult implements Tool<SummarizeResult.Args> {
    static final int EVIDENCE_ITEMS = 3;
    static final int EVIDENCE_ROWS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    public record Args(@Arg(value = "what the summary should focus on (default: the user's question)",
            required = false) String focus) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("summarize_result", "Write a short narrative of the query results so far that cites"
                + " their numbers exactly; use it before the final answer when results need explaining.", Args.class,
                "narrative text", Set.of("narrate"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        List<Evidence> all = ctx.evidence();
        if (all.isEmpty()) {
            throw new ToolCallException("There are no query results to summarize yet: run a query with run_sql first.");
        }
        List<Evidence> recent = all.subList(Math.max(0, all.size() - EVIDENCE_ITEMS), all.size());
        String plain = EvidenceText.plainText(recent);
        if (ctx.llm().isEmpty()) {
            return ToolResult.ok(plain, plain, Map.of("status", "rule_based"));
        }
        try {
            String narrative = narrate(ctx.llm().get(), args.focus() == null ? ctx.question() : args.focus(), recent);
            return ToolResult.ok(narrative, narrative, Map.of("status", "llm"));
        } catch (LlmException e) {
            return ToolResult.ok(plain + "\n(The model could not write a narrative: " + e.getMessage() + ")", plain,
                    Map.of("status", "rule_based"));
        }
    }

    private static String narrate(LlmClient llm, String focus, List<Evidence> evidence) throws LlmException {
        List<Map<String, Object>> items = evidence.stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sql", e.sql());
            m.put("columns", e.columns());
            m.put("rows", e.rows().subList(0, Math.min(EVIDENCE_ROWS, e.rows().size())));
            m.put("row_count", e.rowCount());
            return m;
        }).toList();
        String json;
        try {
            json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(items);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("Evidence could not be written as JSON", e); // plain values: a bug
        }
        String prompt = PromptTemplate.load("summarize").render(Map.of("question", focus, "evidence", json));
        return llm.complete(LlmRequest.of(LlmMessage.user(prompt)).withMaxTokens(600)).text().trim();
    }
}
