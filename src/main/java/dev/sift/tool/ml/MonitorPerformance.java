package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.PredictionTask;
import dev.sift.ml.Drift;
import dev.sift.ml.MlData;
import dev.sift.ml.MlException;
import dev.sift.ml.ModelCard;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether a saved model still holds: its metrics on labelled rows newer than its training data, per period, the
 * drift of its inputs from the training rows to the newer ones ({@link CheckDrift}), and a verdict with its evidence
 * ({@link PerformanceVerdict}). Newer means dated after the latest training row, by the training source's date
 * column or, for a model of a prediction task, by the task's moment of prediction ({@code as_of}). Saves frames
 * {@code monitor_performance} (one row per period) and {@code drift}.
 */
public final class MonitorPerformance implements Tool<MonitorPerformance.Args> {
    static final String FRAME = "monitor_performance";
    private static final String DATE = "monitor_date";
    private static final String PERIOD = "monitor_period";
    private static final Map<String, String> PERIODS = Map.of(
            "month", "strftime(" + DATE + ", '%Y-%m')",
            "quarter", "CAST(year(" + DATE + ") AS VARCHAR) || '-Q' || CAST(quarter(" + DATE + ") AS VARCHAR)",
            "year", "CAST(year(" + DATE + ") AS VARCHAR)");

    public record Args(
            @Arg(value = "model id (default: the selected model, else the latest saved one)", required = false,
                    aliases = {"model_id"}) String model,
            @Arg(value = "table or frame of labelled rows with the model's columns (default: the model's prediction"
                    + " task's labelled rows as they are now, else its training source)", required = false,
                    aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "'month', 'quarter' or 'year' (default year)", required = false, aliases = {"by", "per"})
            String period,
            @Arg(value = "rows dated after this day (YYYY-MM-DD) count as newer (default: the day the model's training"
                    + " rows end)", required = false, aliases = {"since"}) String after,
            @Arg(value = "the date column of source (default: the one the model's training rows were dated by)",
                    required = false) String date_column) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("monitor_performance", "Check whether a saved model is still good (still working, holding"
                + " up, degrading, stale): its metrics on labelled rows newer than its training data, per period, the"
                + " drift of its inputs, and a verdict (holding or degrading) with the evidence.", Args.class,
                "metrics per period, drifted inputs and a verdict", Set.of("ml"));
    }

    @Override
    public int summaryCap() {
        return 2400;
    }

    /** One period's figures: rows, positives (classification) and the metrics of {@link PerformanceVerdict}. */
    public record Period(String period, int rows, long positives, Map<String, Double> metrics) { }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        TrainedModel m = model(ctx, args.model());
        String period = args.period() == null ? "year" : args.period().strip().toLowerCase(Locale.ROOT);
        if (!PERIODS.containsKey(period)) {
            throw new MlException("period '" + args.period() + "' is not one of month, quarter, year.");
        }
        ModelCard.Origin origin = ctx.models().origin(m.id()).orElse(ModelCard.Origin.NONE);
        String after = after(m, args.after(), origin);
        Workspace ws = ctx.workspace();
        TableInfo source = source(ctx, m, args.source(), origin);
        String dateSql = dateSql(ctx, m, source, args.date_column(), origin);
        ws.saveTrustedFrame("monitor_labelled", "SELECT s.*, " + dateSql + " AS " + DATE + " FROM " + source.sqlName()
                + " AS s" + dateJoin(ctx, m, source, args.date_column(), origin) + " WHERE s." + Sql.quoteIdent(m.target())
                + " IS NOT NULL AND " + dateSql + " IS NOT NULL");
        String cut = "DATE " + Sql.quoteString(after);
        ws.saveTrustedFrame("monitor_reference", "SELECT * FROM frames.monitor_labelled WHERE " + DATE + " <= " + cut);
        ws.saveTrustedFrame("monitor_newer", "SELECT *, " + PERIODS.get(period) + " AS " + PERIOD
                + " FROM frames.monitor_labelled WHERE " + DATE + " > " + cut);
        TableInfo newer = ws.table("monitor_newer").orElseThrow();
        if (newer.rows() == 0) {
            return ToolResult.ok("Model " + m.id() + " cannot be monitored yet: " + source.name() + " has no labelled row"
                    + " dated after " + after + ", the day its training rows end, so every labelled row is one it learnt"
                    + " from. Its quality is what training measured: " + m.headline() + ".",
                    Map.of("verdict", PerformanceVerdict.Verdict.UNKNOWN.label(), "newer_rows", 0));
        }
        List<Period> periods = new ArrayList<>();
        for (String p : periods(ws)) {
            periods.add(measure(ws, m, newer, p, PERIOD + " = " + Sql.quoteString(p)));
        }
        Period all = measure(ws, m, newer, "all newer rows", null);
        save(ws, periods);
        TableInfo reference = ws.table("monitor_reference").orElseThrow();
        List<Drift.ColumnDrift> drift = reference.rows() == 0 ? List.of()
                : CheckDrift.compare(ws, reference, newer, m.encoder().columnNames());
        PerformanceVerdict v = PerformanceVerdict.of(m, all, drift);
        MlSupport.evidence(ctx, FRAME, "period", periods.size());
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("verdict", v.verdict().label());
        payload.put("evidence", v.evidence());
        payload.put("all", all);
        payload.put("periods", periods);
        return ToolResult.ok(v.summary(m, source.name(), after, period, periods, reference.rows()), payload,
                ToolResult.withCaveat(Map.of("model", m.id(), "frame", FRAME), ctx.models().caveat(m)));
    }

    /** The named model, else the selected one, else (a new session asking about "the model") the latest saved one. */
    private static TrainedModel model(ToolContext ctx, String id) throws MlException {
        List<TrainedModel> all = ctx.models().all();
        if (id != null || ctx.models().selected().isPresent() || all.isEmpty()) {
            return ctx.models().resolve(id);
        }
        return all.get(all.size() - 1);
    }

    /** The day the training rows end: given, else recorded when the model was trained. */
    private static String after(TrainedModel m, String given, ModelCard.Origin origin) throws MlException {
        if (given != null) {
            try {
                return LocalDate.parse(given.strip()).toString();
            } catch (DateTimeParseException e) {
                throw new MlException("after '" + given + "' is not a day: write it as YYYY-MM-DD, e.g. 1997-01-01.");
            }
        }
        if (origin.trainedThrough() == null) {
            throw new MlException("Model " + m.id() + "'s training rows (" + m.source() + ") carry no date, so rows"
                    + " newer than them cannot be told apart: give after (YYYY-MM-DD, the day the training rows end),"
                    + " and source and date_column for labelled rows with a date.");
        }
        return origin.trainedThrough();
    }

    /** The labelled rows to look at: given, else the task's labelled rows as they are now, else the training source. */
    private static TableInfo source(ToolContext ctx, TrainedModel m, String given, ModelCard.Origin origin)
            throws FixableException {
        Workspace ws = ctx.workspace();
        TableInfo t;
        PredictionTask task = task(ctx, origin);
        if (given != null) {
            t = MlSupport.table(ws, given, "source");
        } else if (task != null) {
            ws.saveTrustedFrame(task.name() + "_labelled", ws.render(task.historySql()));
            t = ws.table(task.name() + "_labelled").orElseThrow();
        } else {
            t = CaseRows.training(ctx, m);
        }
        List<String> missing = new ArrayList<>(m.encoder().missingIn(t));
        if (t.column(m.target()).isEmpty()) {
            missing.add(m.target());
        }
        if (!missing.isEmpty()) {
            throw new MlException(t.name() + " lacks " + String.join(", ", missing) + ", which model " + m.id()
                    + " needs (its columns and its target " + m.target() + "). " + t.name() + " has: "
                    + String.join(", ", t.columnNames()) + ".");
        }
        return t;
    }

    private static PredictionTask task(ToolContext ctx, ModelCard.Origin origin) {
        return origin.predictionTask() == null ? null : ctx.knowledge().graph().predictions().stream()
                .filter(t -> t.name().equalsIgnoreCase(origin.predictionTask())).findFirst().orElse(null);
    }

    /** The date of a row of source (alias s) as SQL: its own date column, or the task's as_of through the entity. */
    private static String dateSql(ToolContext ctx, TrainedModel m, TableInfo source, String given,
                                  ModelCard.Origin origin) throws MlException {
        String column = given != null ? given : origin.trainedThroughColumn();
        if (column != null && source.column(column).isPresent()) {
            return "CAST(s." + Sql.quoteIdent(source.column(column).orElseThrow().name()) + " AS DATE)";
        }
        PredictionTask task = given != null ? null : task(ctx, origin);
        if (task != null && task.asOf() != null && source.column(task.entityColumn()).isPresent()) {
            return "CAST(e." + Sql.quoteIdent(task.asOfColumn()) + " AS DATE)";
        }
        List<String> dates = source.columns().stream().filter(c -> MlSupport.isDateType(c.type())).map(c -> c.name())
                .toList();
        throw new MlException(source.name() + " has no " + (column == null ? "date column" : "column '" + column + "'")
                + " to date its rows by. " + (dates.isEmpty() ? "It has no DATE column: give source, a table or frame"
                + " of labelled rows with the model's columns and a date column, and date_column."
                : "Give date_column: one of " + String.join(", ", dates) + "."));
    }

    /** The join that brings the task's as_of date to each row of source, when the date comes from there. */
    private static String dateJoin(ToolContext ctx, TrainedModel m, TableInfo source, String given,
                                   ModelCard.Origin origin) throws FixableException {
        String column = given != null ? given : origin.trainedThroughColumn();
        PredictionTask task = task(ctx, origin);
        if ((column != null && source.column(column).isPresent()) || task == null) {
            return "";
        }
        String key = Sql.quoteIdent(task.entityColumn());
        return " JOIN " + ctx.workspace().table(task.entityTable()).orElseThrow().sqlName() + " AS e ON e." + key
                + " = s." + key;
    }

    private static List<String> periods(Workspace ws) throws QueryException {
        return ws.trustedQuery("SELECT DISTINCT " + PERIOD + " FROM frames.monitor_newer ORDER BY 1", 10_000).rows()
                .stream().map(r -> String.valueOf(r.get(0))).toList();
    }

    private static Period measure(Workspace ws, TrainedModel m, TableInfo newer, String label, String where)
            throws QueryException {
        MlData d = MlData.read(ws, newer, m.encoder(), m.entity(), m.target(), where, false);
        return PerformanceVerdict.measure(m, d, label);
    }

    private static void save(Workspace ws, List<Period> periods) throws QueryException {
        List<String> names = new ArrayList<>(periods.get(0).metrics().keySet());
        List<QueryResult.Column> cols = new ArrayList<>(List.of(new QueryResult.Column("period", "VARCHAR"),
                new QueryResult.Column("rows", "INTEGER")));
        names.forEach(n -> cols.add(new QueryResult.Column(n, "DOUBLE")));
        List<Object[]> rows = new ArrayList<>();
        for (Period p : periods) {
            List<Object> row = new ArrayList<>(List.of(p.period(), p.rows()));
            names.forEach(n -> row.add(Double.isNaN(p.metrics().get(n)) ? null : p.metrics().get(n)));
            rows.add(row.toArray());
        }
        ws.writeFrame(FRAME, cols, rows);
    }
}
