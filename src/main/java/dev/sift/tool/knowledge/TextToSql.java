package dev.sift.tool.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgContext;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.SchemaLinker;
import dev.sift.knowledge.ValueIndex;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.llm.LlmMessage;
import dev.sift.llm.LlmRequest;
import dev.sift.llm.LlmResponse;
import dev.sift.llm.PromptTemplate;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Writes DuckDB SQL for a question with the configured model, from the linked schema (with samples), the
 * relevant knowledge-graph entries, the values the question names and DuckDB dialect notes. Modes:
 * {@code analytic} (one SQL), {@code predictive} (a task spec plus {@code context_sql} for labelled rows and
 * {@code predict_sql} for rows to score) and {@code auto} (the model decides). Every SQL passes the guard;
 * a failure gets one repair round with the error text. Returns the SQL and the KG facts it used; it does not
 * run it. Without a model it says so and writes nothing.
 */
public final class TextToSql implements Tool<TextToSql.Args> {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_TOKENS = 1200;
    static final int SCHEMA_BUDGET = 5000;
    static final int KNOWLEDGE_BUDGET = 2500;
    static final Set<String> MODES = Set.of("analytic", "predictive", "auto");

    public record Args(
            @Arg(value = "the question to translate; defaults to the user's question", required = false)
            String question,
            @Arg(value = "analytic (one SQL), predictive (training and scoring SQL with a task spec) or auto"
                    + " (default)", required = false) String mode) { }

    /** What the model produced, checked. {@code task} and the two SQLs are set in predictive mode only. */
    public record Sql(String mode, String sql, String contextSql, String predictSql, Map<String, String> task,
                      List<String> kgFacts, boolean repaired) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("text_to_sql", "Write checked DuckDB SQL for a question using the schema, the knowledge"
                + " graph and the stored values (analytic: one query; predictive: training and scoring queries with"
                + " target and entity). Returns the SQL to run with run_sql; it does not run it.",
                Args.class, "SQL and the knowledge-graph facts it used", Set.of("sql", "knowledge"));
    }

    @Override
    public int summaryCap() {
        return 3000;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        String mode = args.mode() == null ? "auto" : args.mode().trim().toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw new ToolCallException("mode must be analytic, predictive or auto; got '" + args.mode() + "'.");
        }
        if (ctx.llm().isEmpty()) {
            throw new ToolCallException("text_to_sql needs a language model and none is configured, so it wrote no SQL"
                    + " (it does not guess). Write the query with run_sql instead, using query_kg and sample_values"
                    + " to find the right columns and values.");
        }
        String question = args.question() == null || args.question().isBlank() ? ctx.question() : args.question();
        Workspace ws = ctx.workspace();
        Knowledge k = ctx.knowledge();
        KgContext facts = KgContext.forQuestion(k, question);
        String prompt = PromptTemplate.load("text_to_sql").render(Map.of(
                "dataset", ws.dataset().name(),
                "mode", switch (mode) {
                    case "analytic" -> "Mode analytic: write one SQL query that answers the question.";
                    case "predictive" -> "Mode predictive: the question asks to predict or score something; write"
                            + " the task spec, context_sql and predict_sql.";
                    default -> "Mode auto: choose analytic for questions answered by a query, predictive for"
                            + " questions that ask to predict, score or estimate a risk for rows.";
                },
                "schema", SchemaLinker.link(question, k, SCHEMA_BUDGET).block(),
                "knowledge", facts.entries().isEmpty() ? "(none matched)" : facts.render(KNOWLEDGE_BUDGET),
                "values", values(facts),
                "question", question));
        List<LlmMessage> messages = new ArrayList<>(List.of(LlmMessage.system(prompt), LlmMessage.user(question)));
        LlmClient llm = ctx.llm().get();
        String reply;
        try {
            reply = complete(llm, messages);
        } catch (LlmException e) {
            throw new ToolCallException("The model could not be reached for text_to_sql: " + e.getMessage());
        }
        Attempt first = check(reply, mode, ws);
        Attempt result = first;
        boolean repaired = false;
        if (first.error != null) {
            messages.add(LlmMessage.assistant(reply));
            messages.add(LlmMessage.user("That did not pass the check: " + first.error + " Reply again with the"
                    + " corrected JSON object only."));
            try {
                reply = complete(llm, messages);
            } catch (LlmException e) {
                throw new ToolCallException("The model could not be reached for the repair round of text_to_sql: "
                        + e.getMessage());
            }
            result = check(reply, mode, ws);
            repaired = true;
            if (result.error != null) {
                throw new ToolCallException("text_to_sql could not produce valid SQL, even after one repair round: "
                        + result.error + " Write the query with run_sql instead.");
            }
        }
        List<String> used = new ArrayList<>(new LinkedHashSet<>(facts.usedBy(String.join("\n", result.sqls()))));
        Sql out = new Sql(result.mode, result.sql, result.contextSql, result.predictSql, result.task, used, repaired);
        return ToolResult.ok(summary(out), out, Map.of("repaired", repaired));
    }

    private static String values(KgContext facts) {
        if (facts.values().isEmpty()) {
            return "(none recognised)";
        }
        StringBuilder b = new StringBuilder();
        for (ValueIndex.Match v : facts.values()) {
            b.append("- ").append(v.describe()).append('\n');
        }
        return b.toString().trim();
    }

    private static String complete(LlmClient llm, List<LlmMessage> messages) throws LlmException {
        LlmResponse r = llm.complete(new LlmRequest(messages, 0.0, MAX_TOKENS, false));
        return r.text();
    }

    private static String summary(Sql s) {
        StringBuilder b = new StringBuilder();
        if (s.mode().equals("analytic")) {
            b.append("Analytic SQL (checked against the schema, not run yet; run it with run_sql):\n").append(s.sql());
        } else {
            b.append("Predictive task: ").append(s.task().get("type")).append(" of ").append(s.task().get("target"))
                    .append(" per ").append(s.task().get("entity")).append(" (checked, not run yet).\ncontext_sql (rows"
                    + " with a known target):\n").append(s.contextSql()).append("\npredict_sql (rows to score):\n")
                    .append(s.predictSql());
        }
        b.append("\nKnowledge-graph facts used: ").append(s.kgFacts().isEmpty() ? "none" : String.join(", ", s.kgFacts()));
        if (s.repaired()) {
            b.append("\n(The first draft failed the check and was repaired once.)");
        }
        return b.toString();
    }

    /** One parsed and checked reply; {@code error} says what to fix. */
    private static final class Attempt {
        String mode;
        String sql;
        String contextSql;
        String predictSql;
        Map<String, String> task;
        String error;

        List<String> sqls() {
            List<String> out = new ArrayList<>();
            for (String s : new String[] {sql, contextSql, predictSql}) {
                if (s != null) {
                    out.add(s);
                }
            }
            return out;
        }
    }

    /** Parses a reply and checks it for the requested mode: the mode's fields, the guard, then the task's columns. */
    private static Attempt check(String reply, String requested, Workspace ws) {
        Attempt a = new Attempt();
        JsonNode o;
        try {
            o = JSON.readTree(stripFences(reply));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            o = null;
        }
        if (o == null || !o.isObject()) {
            a.error = "the reply was not one JSON object.";
            return a;
        }
        a.mode = o.path("mode").asText(requested.equals("auto") ? (o.has("context_sql") ? "predictive" : "analytic")
                : requested);
        if (!requested.equals("auto") && !a.mode.equals(requested)) {
            a.error = "mode " + requested + " was asked for, the reply is " + a.mode + ".";
        } else if (a.mode.equals("analytic")) {
            a.sql = text(o, "sql");
            a.error = a.sql == null ? "an analytic reply needs \"sql\"." : guard(ws, "sql", a.sql);
        } else if (a.mode.equals("predictive")) {
            a.error = checkPredictive(a, o, ws);
        } else {
            a.error = "mode must be analytic or predictive, got '" + a.mode + "'.";
        }
        return a;
    }

    /** Reads a predictive reply into {@code a}: what is missing or wrong, or null when its parts pass. */
    private static String checkPredictive(Attempt a, JsonNode o, Workspace ws) {
        a.contextSql = text(o, "context_sql");
        a.predictSql = text(o, "predict_sql");
        JsonNode task = o.path("task");
        a.task = new LinkedHashMap<>();
        for (String f : List.of("type", "target", "entity")) {
            if (task.hasNonNull(f)) {
                a.task.put(f, task.get(f).asText());
            }
        }
        if (a.contextSql == null || a.predictSql == null || a.task.size() < 3) {
            return "a predictive reply needs \"task\" {type, target, entity}, \"context_sql\" and \"predict_sql\".";
        }
        if (!Set.of("classification", "regression").contains(a.task.get("type"))) {
            return "task.type must be classification or regression, got '" + a.task.get("type") + "'.";
        }
        String error = guard(ws, "context_sql", a.contextSql);
        if (error == null) {
            error = guard(ws, "predict_sql", a.predictSql);
        }
        return error != null ? error : taskColumns(a, ws);
    }

    /** Whether the task's target is a column of context_sql and its entity a column of both queries. */
    private static String taskColumns(Attempt a, Workspace ws) {
        try {
            List<String> context = columns(ws, a.contextSql);
            List<String> predict = columns(ws, a.predictSql);
            String target = a.task.get("target");
            String entity = a.task.get("entity");
            if (!contains(context, target)) {
                return "task.target '" + target + "' is not a column of context_sql (its columns: "
                        + String.join(", ", context) + ").";
            }
            if (!contains(context, entity) || !contains(predict, entity)) {
                return "task.entity '" + entity + "' must be a column of both context_sql (" + String.join(", ", context)
                        + ") and predict_sql (" + String.join(", ", predict) + ").";
            }
            return null;
        } catch (QueryException e) {
            return e.getMessage();
        }
    }

    private static boolean contains(List<String> columns, String name) {
        return columns.stream().anyMatch(c -> c.equalsIgnoreCase(name));
    }

    private static List<String> columns(Workspace ws, String sql) throws QueryException {
        QueryResult r = ws.query("SELECT * FROM (" + sql.strip().replaceAll(";+$", "") + "\n) AS q LIMIT 0");
        return r.columnNames();
    }

    private static String guard(Workspace ws, String field, String sql) {
        try {
            ws.check(sql);
            return null;
        } catch (QueryException e) {
            return field + ": " + e.getMessage();
        }
    }

    private static String text(JsonNode o, String f) {
        JsonNode v = o.get(f);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText().trim();
    }

    static String stripFences(String s) {
        String t = s.trim();
        if (t.startsWith("```")) {
            t = t.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("\\s*```\\s*$", "");
        }
        int start = t.indexOf('{');
        int end = t.lastIndexOf('}');
        return start >= 0 && end > start ? t.substring(start, end + 1) : t;
    }
}
