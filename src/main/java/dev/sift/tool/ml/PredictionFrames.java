package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Workspace;
import dev.sift.knowledge.KgSql;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.PredictionTask;
import dev.sift.ml.MlException;
import dev.sift.text.Evidence;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;
import dev.sift.tool.analysis.ExpressionCheck;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Builds the two frames of a knowledge-graph prediction task ({@link PredictionTask}): the labelled history to
 * learn from and the current rows to score, both from the task's curated features over approved joins, so a model
 * planner trains on exactly what the offline planner does. An optional filter (a SQL condition the question adds:
 * "in Prague", "60-month loans") narrows the rows to score; it may name the entity table and any table the
 * approved joins reach, and is applied as a semi-join, so a one-to-many table never duplicates an entity.
 */
public final class PredictionFrames implements Tool<PredictionFrames.Args> {
    private static final Pattern QUALIFIER = Pattern.compile("\\b([A-Za-z_][A-Za-z0-9_]*)\\s*\\.\\s*[A-Za-z_\"]");
    private static final Pattern LITERAL = Pattern.compile("'(?:[^']|'')*'");

    public record Args(
            @Arg(value = "name of the knowledge graph's prediction task (as the knowledge section names it)", aliases = {"name",
                    "prediction"}) String task,
            @Arg(value = "SQL condition narrowing the rows to score, e.g. t.duration = 60 or d.name ="
                    + " 'X' over tables the approved joins reach", required = false, aliases = {"where"})
            String filter,
            @Arg(value = "SQL condition narrowing the history to learn from as well (default: all of it)",
                    required = false, aliases = {"history_where"}) String history_filter) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("prediction_frames", "Build the frames of a prediction task of the knowledge graph: the"
                + " labelled history to train on and the rows to score, with the task's curated features over approved"
                + " joins (an optional filter narrows the rows to score). Prefer it to writing feature SQL for a"
                + " predictive question.", Args.class, "the two frames, their row counts and the next steps",
                Set.of("ml")); // not "predictive": building frames is no model (the suites' predictive check)
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        KnowledgeGraph kg = ctx.knowledge().graph();
        PredictionTask task = find(kg, args.task());
        String scoreWhere = population(kg, task, args.filter(), "filter");
        String learnWhere = population(kg, task, args.history_filter(), "history_filter");
        Workspace ws = ctx.workspace();
        String history = historyFrame(task);
        String current = currentFrame(task);
        // the task's SQL is DuckDB's, as a knowledge file writes it: rendered for a live engine, where it runs
        String historySql = ws.render(task.historySql(learnWhere));
        String currentSql = ws.render(task.currentSql(scoreWhere));
        for (String[] c : new String[][] {{args.history_filter(), historySql}, {args.filter(), currentSql}}) {
            if (c[0] == null) {
                continue;
            }
            try {
                ws.check(c[1]);
            } catch (QueryException e) {
                throw new ToolCallException("The filter '" + c[0] + "' does not work on " + task.entityTable()
                        + " and the tables its approved joins reach: " + e.getMessage());
            }
        }
        QueryResult h = ws.saveFrame(history, historySql);
        QueryResult cur = ws.saveFrame(current, currentSql);
        if (cur.rowCount() == 0) {
            throw new MlException("No " + task.current().description() + (args.filter() == null ? "" : " where "
                    + args.filter()) + ": nothing to score. Check the filter's values with sample_values.");
        }
        ctx.addEvidence(Evidence.of(h, history));
        ctx.addEvidence(Evidence.of(cur, current));
        long positives = positives(ws, history, task.label());
        return ToolResult.ok(summary(task, h, cur, positives, args), Map.of("task", task.name(), "history", history,
                "current", current), Map.of("history_rows", h.rowCount(), "current_rows", cur.rowCount(),
                "positives", positives));
    }

    public static String historyFrame(PredictionTask t) {
        return t.name() + "_history";
    }

    public static String currentFrame(PredictionTask t) {
        return t.name() + "_current";
    }

    private static PredictionTask find(KnowledgeGraph kg, String name) throws MlException {
        List<PredictionTask> all = kg.predictions();
        if (all.isEmpty()) {
            throw new MlException("The knowledge graph of this dataset has no prediction tasks. Build a labelled frame"
                    + " of past cases and a frame of cases to score with run_sql instead, then train_model.");
        }
        return all.stream().filter(t -> t.name().equalsIgnoreCase(name.strip())).findFirst().orElseThrow(() ->
                new MlException("Unknown prediction task '" + name + "'. Tasks of the knowledge graph: "
                        + all.stream().map(t -> t.name() + " (" + t.description() + ")").collect(Collectors.joining("; "))
                        + "."));
    }

    /** The extra condition on the entity table: none, or a semi-join over the tables the filter names. */
    private static String population(KnowledgeGraph kg, PredictionTask task, String filter, String arg)
            throws MlException {
        if (filter == null || filter.isBlank()) {
            return null;
        }
        String problem = ExpressionCheck.problem(filter);
        if (problem != null) {
            throw new MlException("The " + arg + " " + problem + ": give one SQL condition, e.g. "
                    + KgSql.table(task.entityTable()) + ".<column> = <value>.");
        }
        Set<String> tables = new LinkedHashSet<>(List.of(task.entityTable()));
        Matcher m = QUALIFIER.matcher(LITERAL.matcher(filter).replaceAll("''"));
        while (m.find()) {
            String t = m.group(1);
            kg.table(t).ifPresent(x -> tables.add(x.name()));
        }
        String from = KgSql.from(kg, new ArrayList<>(tables)).orElseThrow(() -> new MlException("The " + arg
                + " names " + String.join(", ", tables) + ", which the knowledge graph's joins do not connect to "
                + task.entityTable() + ". Use columns of " + task.entityTable() + " or of tables joined to it."));
        String key = KgSql.column(task.entityTable(), task.entityColumn());
        return key + " IN (SELECT " + key + " FROM " + from + " WHERE (" + filter + "))";
    }

    private static long positives(Workspace ws, String frame, String label) throws QueryException {
        Object v = ws.trustedQuery("SELECT count(*) FILTER (WHERE " + KgSql.ident(label) + " = 1) FROM memory.frames."
                + KgSql.ident(frame), 1).scalar();
        return v == null ? 0 : ((Number) v).longValue();
    }

    private static String summary(PredictionTask t, QueryResult h, QueryResult cur, long positives, Args args) {
        String history = historyFrame(t);
        String current = currentFrame(t);
        List<String> features = h.columnNames().stream().filter(c -> !c.equalsIgnoreCase(t.entityColumn())
                && !c.equalsIgnoreCase(t.label())).toList();
        return "Built prediction task " + t.name() + " (" + t.description() + ") from the knowledge graph's curated"
                + " features over approved joins.\nSaved as frame frames." + history + ": " + h.rowCount() + " rows of "
                + t.history().description() + (args.history_filter() == null ? "" : " where " + args.history_filter())
                + ", " + positives + " with " + t.label() + " = 1 (the rows to learn from).\nSaved as frame frames."
                + current + ": " + cur.rowCount() + " rows of " + t.current().description()
                + (args.filter() == null ? "" : " where " + args.filter()) + " (the rows to score)."
                + (args.filter() != null && args.history_filter() == null ? "\nNote: the model learns from all of the"
                + " history; pass history_filter to narrow it too." : "")
                + "\nColumns: " + t.entityColumn() + " (entity), " + String.join(", ", features) + "; " + t.label()
                + " (label, history only).\nNext: train_model(source=" + history + ", target=" + t.label() + ", entity="
                + t.entityColumn() + "), then predict(source=" + current + "), then explain_prediction.";
    }
}
