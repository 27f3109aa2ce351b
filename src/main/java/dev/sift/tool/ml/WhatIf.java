package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.FixableException;
import dev.sift.data.Numbers;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.Explanations;
import dev.sift.ml.FeatureEncoder;
import dev.sift.ml.MlData;
import dev.sift.ml.MlException;
import dev.sift.ml.Predictions;
import dev.sift.ml.TaskType;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scores one case with a model twice — as it is, and with some of its features changed — and shows the prediction
 * and each column's SHAP contribution before and after. A case given as values (no existing row) is scored once.
 * Saves frame {@code what_if} (one row per model column: value and SHAP before and after).
 */
public final class WhatIf implements Tool<WhatIf.Args> {

    public record Args(
            @Arg(value = "id of an existing case: its value of the model's entity column", required = false, aliases = {"id", "entity"})
            String case_id,
            @Arg(value = "features to change on that case, as {\"column\": value}", required = false,
                    aliases = {"change", "set"}) JsonNode changes,
            @Arg(value = "a new case as {\"column\": value} for the model's columns (those left out are missing)",
                    required = false, aliases = {"case_values"}) JsonNode values,
            @Arg(value = "table or frame holding the case (default: the model's training source, then its task's"
                    + " rows to score)", required = false, aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE)
            String source,
            @Arg(value = "model id (default: the latest trained or selected model)", required = false,
                    aliases = {"model_id"}) String model) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("what_if", "Score one case with a model as it is and with some features changed (or a new"
                + " case given as values), with each column's SHAP contribution before and after. Limits: it changes"
                + " the model's input columns only (not the data they were computed from, so related features do not"
                + " follow), and the answer is the model's, not a causal effect.", Args.class,
                "prediction and SHAP before and after", Set.of("ml"));
    }

    @Override
    public int summaryCap() {
        return 2000;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TrainedModel m = ctx.models().resolve(args.model());
        Workspace ws = ctx.workspace();
        if ((args.case_id() == null) == (args.values() == null)) {
            throw new MlException("Give case_id (an existing case, with changes) or values (a new case), not "
                    + (args.case_id() == null ? "neither" : "both") + ". The model's columns: "
                    + String.join(", ", m.encoder().columnNames()) + ".");
        }
        String before;
        String after;
        Map<String, String> changed;
        if (args.case_id() != null) {
            TableInfo src = CaseRows.holding(ctx, m, args.source(), args.case_id());
            String where = " FROM " + src.sqlName() + " WHERE " + CaseRows.entityIs(m, args.case_id());
            changed = literals(m, args.changes(), src);
            ws.saveTrustedFrame("what_if_before", "SELECT *" + where);
            ws.saveTrustedFrame("what_if_after", "SELECT * REPLACE (" + replacements(changed, src) + ")" + where);
            before = "what_if_before";
            after = "what_if_after";
        } else {
            changed = literals(m, args.values(), null);
            List<String> cols = new ArrayList<>();
            for (FeatureEncoder.ColumnPlan c : m.encoder().columns()) {
                cols.add("CAST(" + changed.getOrDefault(c.column(), "NULL") + " AS " + c.type() + ") AS " + Sql.quoteIdent(c.column()));
            }
            ws.saveTrustedFrame("what_if_after", "SELECT " + String.join(", ", cols));
            before = null;
            after = "what_if_after";
        }
        Scored b = before == null ? null : score(ws, m, before);
        Scored a = score(ws, m, after);
        save(ws, m, b, a);
        String summary = summary(m, args, changed, b, a);
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("before", b);
        payload.put("after", a);
        return ToolResult.ok(summary, payload, ToolResult.withCaveat(Map.of("model", m.id(), "frame", "what_if"),
                ctx.models().caveat(m)));
    }

    /** One scored row: the prediction, the margin's bias and each model column's value and SHAP (margin units). */
    public record Scored(double prediction, double bias, List<String> values, double[] shap) { }

    private static Scored score(Workspace ws, TrainedModel m, String frame) throws QueryException {
        MlData d = MlData.read(ws, ws.table(frame).orElseThrow(), m.encoder(), null, null, null, true);
        double p = Predictions.predict(m, d.x(), 1)[0];
        double[] shap = Explanations.byColumn(m.encoder(), Explanations.contributions(m, d.x(), 1))[0];
        int cols = m.encoder().columns().size();
        return new Scored(p, shap[cols], java.util.Arrays.asList(d.display()[0]), java.util.Arrays.copyOf(shap, cols));
    }

    /** Column → SQL literal, for columns of the model only (else one error naming them). */
    private static Map<String, String> literals(TrainedModel m, JsonNode node, TableInfo src) throws MlException {
        Map<String, String> out = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new MlException("changes and values are objects of column → value, e.g. {\"duration\": 24}; got " + node + ".");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String column = m.encoder().columnNames().stream().filter(c -> c.equalsIgnoreCase(e.getKey())).findFirst()
                    .orElseThrow(() -> new MlException("'" + e.getKey() + "' is not a column of model " + m.id()
                            + ": its columns are " + String.join(", ", m.encoder().columnNames()) + "."));
            JsonNode v = e.getValue();
            out.put(column, v.isNull() ? "NULL" : v.isNumber() ? v.asText() : v.isBoolean() ? v.asText().toUpperCase()
                    : Sql.quoteString(v.asText()));
        }
        return out;
    }

    private static String replacements(Map<String, String> changed, TableInfo src) throws MlException {
        if (changed.isEmpty()) {
            throw new MlException("changes is empty: name the features to change, e.g. {\"duration\": 24}.");
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : changed.entrySet()) {
            ColumnInfo c = src.column(e.getKey()).orElseThrow();
            out.add("CAST(" + e.getValue() + " AS " + c.type() + ") AS " + Sql.quoteIdent(c.name()));
        }
        return String.join(", ", out);
    }

    private static void save(Workspace ws, TrainedModel m, Scored b, Scored a) throws QueryException {
        List<Object[]> rows = new ArrayList<>();
        List<String> cols = m.encoder().columnNames();
        for (int i = 0; i < cols.size(); i++) {
            rows.add(new Object[] {cols.get(i), b == null ? null : b.values().get(i), a.values().get(i),
                    b == null ? null : b.shap()[i], a.shap()[i]});
        }
        rows.add(new Object[] {"(prediction)", b == null ? null : Numbers.fixed(b.prediction(), 4),
                Numbers.fixed(a.prediction(), 4), null, null});
        ws.writeFrame("what_if", List.of(new QueryResult.Column("column_name", "VARCHAR"),
                new QueryResult.Column("value_before", "VARCHAR"), new QueryResult.Column("value_after", "VARCHAR"),
                new QueryResult.Column("shap_before", "DOUBLE"), new QueryResult.Column("shap_after", "DOUBLE")), rows);
    }

    private static String summary(TrainedModel m, Args args, Map<String, String> changed, Scored b, Scored a) {
        boolean classify = m.task() == TaskType.CLASSIFICATION;
        String what = classify ? "probability of " + m.target() + " = " + m.positiveClass() : "predicted " + m.target();
        String who = Explanations.entityName(m.entity()) + " " + args.case_id();
        StringBuilder s = new StringBuilder();
        List<String> cols = m.encoder().columnNames();
        if (b == null) {
            s.append("A new case scored with model ").append(m.id()).append(": ").append(what).append(' ')
                    .append(Numbers.fixed(a.prediction(), 3)).append('.');
            List<String> missing = cols.stream().filter(c -> !changed.containsKey(c)).toList();
            if (!missing.isEmpty()) {
                s.append(" Missing (the model treats them as unknown): ").append(String.join(", ", missing)).append('.');
            }
        } else {
            List<String> parts = new ArrayList<>();
            for (String c : changed.keySet()) {
                int i = cols.indexOf(c);
                parts.add(c + " " + show(a.values().get(i)) + " (was " + show(b.values().get(i)) + ")");
            }
            s.append("What if ").append(who).append(" had ").append(String.join(", ", parts)).append(", with model ")
                    .append(m.id()).append(": ").append(what).append(' ').append(Numbers.fixed(b.prediction(), 3))
                    .append(" → ").append(Numbers.fixed(a.prediction(), 3)).append(" (")
                    .append(String.format(java.util.Locale.ROOT, "%+.3f", a.prediction() - b.prediction())).append(").");
        }
        s.append("\nSHAP by column (").append(classify ? "log-odds" : "units of " + m.target()).append(b == null ? ")"
                : ", before → after)").append(':');
        Integer[] order = new Integer[cols.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> Double.compare(Math.abs(a.shap()[y] - (b == null ? 0 : b.shap()[y]))
                + (changed.containsKey(cols.get(y)) ? 1e9 : 0), Math.abs(a.shap()[x] - (b == null ? 0 : b.shap()[x]))
                + (changed.containsKey(cols.get(x)) ? 1e9 : 0)));
        for (int k = 0; k < Math.min(8, order.length); k++) {
            int i = order[k];
            s.append("\n- ").append(cols.get(i)).append(" = ").append(show(a.values().get(i))).append(": ")
                    .append(b == null ? "" : signed(b.shap()[i]) + " → ").append(signed(a.shap()[i]));
        }
        return s.append("\nSaved as frame what_if. This is what the model computes for the changed inputs, not a"
                + " causal effect: features computed from the same data do not change with them.").toString();
    }

    private static String show(String v) {
        return v == null ? "missing" : v;
    }

    private static String signed(double v) {
        return String.format(java.util.Locale.ROOT, "%+.3f", v);
    }
}
