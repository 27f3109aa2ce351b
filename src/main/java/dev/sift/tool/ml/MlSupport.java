package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.PredictionTask;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelCard;
import dev.sift.text.Evidence;
import dev.sift.tool.ToolContext;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the ML tools share: resolving tables, reading params, saving frames and recording evidence. */
final class MlSupport {
    private static final String HISTORY = "_history";

    private MlSupport() { }

    /** A table or frame by name; the message lists what exists. */
    static TableInfo table(Workspace ws, String name, String argument) throws MlException {
        return ws.table(name).orElseThrow(() -> new MlException("Unknown " + argument + " '" + name + "'. Tables: "
                + String.join(", ", ws.datasetTables().stream().map(TableInfo::name).toList()) + ". Frames: "
                + (ws.frames().isEmpty() ? "(none yet)" : String.join(", ", ws.frames().stream().map(TableInfo::name).toList()))
                + "."));
    }

    /** The params object as numbers by name; anything else is refused. */
    static Map<String, Object> params(JsonNode node) throws MlException {
        Map<String, Object> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new MlException("params must be an object of numbers, e.g. {\"max_depth\": 4, \"num_round\": 200}; got " + node + ".");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isIntegralNumber()) {
                out.put(e.getKey(), v.asLong());
            } else if (v.isNumber()) {
                out.put(e.getKey(), v.asDouble());
            } else {
                out.put(e.getKey(), v.asText());
            }
        }
        return out;
    }

    /** The entity column: the given one, else the table's first column named id or *_id (null when none). */
    static String entity(TableInfo t, String given) {
        if (given != null) {
            return t.column(given).orElseThrow().name();
        }
        return t.columns().stream().map(c -> c.name())
                .filter(n -> n.equalsIgnoreCase("id") || n.toLowerCase(Locale.ROOT).endsWith("_id")).findFirst().orElse(null);
    }

    /** Records the first rows of a saved frame as evidence (so summaries and answers can cite them). */
    static QueryResult evidence(ToolContext ctx, String frame, String orderBy, int rows) throws QueryException {
        QueryResult r = ctx.workspace().trustedQuery("SELECT * FROM frames." + Sql.quoteIdent(frame)
                + (orderBy == null ? "" : " ORDER BY " + orderBy) + " LIMIT " + rows, rows);
        ctx.addEvidence(new Evidence(r.sql(), r.columnNames(), List.copyOf(r.rows()), ctx.workspace().table("frames." + frame)
                .map(TableInfo::rows).orElse((long) r.rows().size()), frame));
        return r;
    }

    /**
     * Where a model's training rows came from, for its card: the SQL of the source frame, the prediction task that
     * built it ({@code <task>_history}), and the latest date among the labelled rows — read from the source's first
     * date column, else (a task's frame has none) from the task's moment of prediction ({@code as_of}, e.g.
     * loan.date) of its entities — which later rows are newer than.
     */
    static ModelCard.Origin origin(ToolContext ctx, TableInfo table, String target) throws QueryException {
        Workspace ws = ctx.workspace();
        boolean frame = table.kind() == TableInfo.Kind.FRAME;
        String sql = frame ? ws.frameSql(table.name()).orElse(null) : null;
        PredictionTask task = null;
        if (frame && table.name().endsWith(HISTORY)) {
            String name = table.name().substring(0, table.name().length() - HISTORY.length());
            task = ctx.knowledge().graph().predictions().stream().filter(t -> name.equalsIgnoreCase(t.name()))
                    .findFirst().orElse(null);
        }
        String labelled = " WHERE " + Sql.quoteIdent(target) + " IS NOT NULL";
        String dateColumn = table.columns().stream().filter(c -> isDateType(c.type())).map(c -> c.name()).findFirst()
                .orElse(null);
        String through = null;
        if (dateColumn != null) {
            through = latest(ws, "SELECT max(CAST(" + Sql.quoteIdent(dateColumn) + " AS DATE)) FROM " + table.sqlName()
                    + labelled);
        } else if (task != null && task.asOf() != null && table.column(task.entityColumn()).isPresent()) {
            dateColumn = task.asOf();
            String key = Sql.quoteIdent(task.entityColumn());
            String entities = ws.table(task.entityTable()).orElseThrow().sqlName();
            String asOf = "CAST(" + Sql.quoteIdent(task.asOfColumn()) + " AS DATE)";
            through = ws.dialect() == dev.sift.data.SqlDialect.DUCKDB ? latest(ws, "SELECT max(" + asOf + ") FROM "
                    + entities + " WHERE " + key + " IN (SELECT " + key + " FROM " + table.sqlName() + labelled + ")")
                    : latestOnEngine(ws, key, asOf, entities, "SELECT DISTINCT CAST(" + key + " AS VARCHAR) FROM "
                    + table.sqlName() + labelled);
        }
        return new ModelCard.Origin(sql, task == null ? null : task.name(), null, through,
                through == null ? null : dateColumn);
    }

    private static String latest(Workspace ws, String maxSql) throws QueryException {
        Object v = ws.trustedQuery("SELECT CAST((" + maxSql + ") AS VARCHAR)", 1).scalar();
        return v == null ? null : v.toString();
    }

    /**
     * The latest moment of prediction among the history's entities on a live dataset, where the entities are engine
     * tables and the history a frame, which one query cannot join: the frame's keys are read here, then the entities'.
     */
    private static String latestOnEngine(Workspace ws, String key, String asOf, String entities, String historyKeys)
            throws QueryException {
        java.util.Set<String> keys = ws.trustedRead(historyKeys, rs -> {
            java.util.Set<String> out = new java.util.HashSet<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        });
        return ws.trustedRead("SELECT CAST(" + key + " AS VARCHAR), CAST(" + asOf + " AS VARCHAR) FROM " + entities, rs -> {
            String max = null; // ISO dates order as text
            while (rs.next()) {
                String at = rs.getString(2);
                if (at != null && keys.contains(rs.getString(1)) && (max == null || at.compareTo(max) > 0)) {
                    max = at;
                }
            }
            return max;
        });
    }

    static boolean isDateType(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.equals("DATE") || t.startsWith("TIMESTAMP");
    }

    static boolean isNumericType(String type) {
        String t = type.toUpperCase(Locale.ROOT);
        return t.startsWith("DECIMAL") || List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                "USMALLINT", "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE", "REAL").contains(t);
    }
}
