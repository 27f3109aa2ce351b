package dev.sift.tool.ml;

import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.PointInTime;
import dev.sift.tool.ToolContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The date half of the leakage warning for a frame a model (or user) wrote with run_sql: when its rows are entities
 * of a dataset table with a date (loan_id → loan, dated by loan.date) and a feature aggregates a time-stamped table
 * (trans) with no cut-off strictly before that date, the feature may include rows from after the prediction is made.
 * The same reading of the SQL as a prediction task's point-in-time check ({@link PointInTime}); the features named
 * are those that change when the dated table is read as empty.
 */
final class FrameDates {
    private FrameDates() { }

    /** One warning per dated table read without a cut-off, naming its features and the fix; empty when none. */
    static List<String> warnings(ToolContext ctx, TableInfo table, String entity, List<String> features) {
        Workspace ws = ctx.workspace();
        String sql = table.kind() == TableInfo.Kind.FRAME && entity != null && ws.dialect() == SqlDialect.DUCKDB
                ? ws.frameSql(table.name()).orElse(null) : null;
        if (sql == null) {
            return List.of();
        }
        Map<String, List<String>> dates = PointInTime.dateColumns(ws, sql);
        String entityTable = entityTable(ws, dates, entity);
        if (entityTable == null) {
            return List.of();
        }
        String asOf = entityTable + "." + dates.get(entityTable).get(0);
        List<String> out = new ArrayList<>();
        for (PointInTime.Gap g : PointInTime.gaps(sql, entityTable, asOf, dates)) {
            List<String> from = PointInTime.featuresFrom(ws, sql, entity, g.table(), features);
            if (from.isEmpty()) {
                continue; // the table filters or joins, no feature aggregates it
            }
            out.add("Leakage warning: feature" + (from.size() == 1 ? " '" : "s '") + String.join("', '", from) + "' of "
                    + table.name() + " read" + (from.size() == 1 ? "s" : "") + " rows of " + g.table() + " (dated by "
                    + String.join(", ", g.dateColumns()) + ") with no cut-off before " + asOf + ", the moment each "
                    + entityTable + " is predicted, so " + (from.size() == 1 ? "it" : "they")
                    + " may include rows from after it (an all-time aggregate includes the outcome's aftermath). Check"
                    + " the frame's SQL: keep only rows dated before that moment (add " + g.fix() + " where it reads "
                    + g.table() + ") and train again.");
        }
        return out;
    }

    /** The dated table whose rows the entity names: the one called after it (loan for loan_id), else the only one. */
    private static String entityTable(Workspace ws, Map<String, List<String>> dates, String entity) {
        List<String> candidates = dates.entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .filter(e -> ws.table(e.getKey()).flatMap(t -> t.column(entity)).isPresent()).map(Map.Entry::getKey)
                .toList();
        String named = entity.toLowerCase(Locale.ROOT).replaceAll("_?id$", "");
        return candidates.stream().filter(t -> t.equalsIgnoreCase(named)).findFirst()
                .orElse(candidates.size() == 1 ? candidates.get(0) : null);
    }
}
