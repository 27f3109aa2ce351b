package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.tool.Arg;
import dev.sift.text.Evidence;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;
import dev.sift.tool.chart.VegaLite;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Forecasts a measure per period with exponential smoothing (additive Holt-Winters when the series holds two
 * full seasons, else Holt's linear trend), after a backtest on the last held-out periods (MAPE), with 95%
 * prediction intervals as wide as the forecast's own backtest errors per horizon ({@link BacktestIntervals}), their
 * backtest coverage, and a line chart of history and forecast.
 */
public final class Forecast implements Tool<Forecast.Args> {
    static final int MAX_HORIZON = 60;
    static final double Z95 = 1.959964;

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "DATE or TIMESTAMP column", aliases = {"date_column", "time"}, kind = Arg.Kind.COLUMN) String date,
            @Arg(value = "numeric column to aggregate (omit to count rows)", required = false, aliases = {"value"},
                    kind = Arg.Kind.COLUMN) String measure,
            @Arg(value = "periods to forecast (default 12, at most 60)", required = false, aliases = {"periods", "steps"})
            Integer horizon,
            @Arg(value = "sum, avg, count, min, max or median (default: sum with a measure, count without)",
                    required = false, aliases = {"aggregate"}) String agg,
            @Arg(value = "day, week, month, quarter or year (default month)", required = false, aliases = {"period"})
            String grain) {
        public Args {
            Series.Grain.parse(grain);
            if (horizon != null && (horizon < 1 || horizon > MAX_HORIZON)) {
                throw new IllegalArgumentException("horizon must be between 1 and " + MAX_HORIZON + ", got " + horizon + ".");
            }
            agg = agg == null ? (measure == null ? "count" : "sum") : agg.trim().toLowerCase(Locale.ROOT);
        }
    }

    public record Point(String period, Double actual, Double forecast, Double lower, Double upper) { }

    public record Result(String source, String measure, String grain, String method, double alpha, double beta,
                         double gamma, int backtestPeriods, Double mape, double mae, List<Point> history,
                         List<Point> forecast, String frame, Object chart, String sql, String note,
                         Double intervalCoverage, int coverageChecked) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("forecast", "Forecast a measure per period with exponential smoothing (Holt-Winters"
                + " with seasonality when the history allows), with a backtest error (MAPE) on held-out periods and"
                + " 95% prediction intervals; line chart. Kept as frame forecast_<source>_<measure>.", Args.class,
                "forecast with intervals", Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        ColumnInfo date = t.column(args.date()).orElseThrow();
        ColumnInfo measure = args.measure() == null ? null : t.column(args.measure()).orElseThrow();
        String problem = Series.check(t, date, measure, args.agg());
        if (problem != null) {
            throw new ToolCallException(problem);
        }
        Series.Grain grain = Series.Grain.parse(args.grain());
        int horizon = args.horizon() == null ? 12 : args.horizon();
        Series s = Series.load(ws, t, date, measure, args.agg(), grain);
        int[] span = lastRun(s.usable());
        int start = span[0];
        int end = span[1];
        int n = end - start + 1;
        if (end < 0 || n < HoltWinters.minimumPoints(0) + 1) {
            throw new ToolCallException("The " + grain.adjective() + " series of " + t.name() + "." + date.name() + " has "
                    + Math.max(0, n) + " complete consecutive period(s); a forecast needs at least "
                    + (HoltWinters.minimumPoints(0) + 1) + ". Use a finer grain (e.g. 'week' or 'day').");
        }
        double[] y = java.util.Arrays.copyOfRange(s.values(), start, end + 1);
        int holdout = Math.max(1, Math.min(horizon, n / 4));
        int m = grain.season >= 2 && n - holdout >= HoltWinters.minimumPoints(grain.season) ? grain.season : 0;
        Backtest backtest = backtest(y, holdout, m);
        HoltWinters model = HoltWinters.fit(y, m);
        BacktestIntervals intervals = BacktestIntervals.of(y, m, holdout, HoltWinters.minimumPoints(m));
        List<Point> history = history(s, model.fitted(), start, n);
        List<Point> ahead = ahead(model, intervals, LocalDate.parse(s.periods().get(end)), grain, horizon);
        String method = m > 0 ? "Holt-Winters additive, season " + m : "Holt linear trend (no seasonality: "
                + (grain.season < 2 ? "none at this grain" : "fewer than two full seasons of history") + ")";
        String frame = RowsFrame.label("forecast", t.name(), measure == null ? "count" : measure.name());
        List<Map<String, Object>> rows = save(ws, frame, history, ahead);
        String measured = Series.measured(ctx, t, measure, args.agg());
        String note = s.lastPartial() ? "The last period (" + s.periods().get(s.periods().size() - 1)
                + ") is partial in the data, so the forecast starts there." : null;
        Result r = new Result(t.name(), Series.label(measure, args.agg()), grain.sql(), method, model.alpha(), model.beta(),
                model.gamma(), holdout, backtest.mape(), backtest.mae(), history, ahead, frame,
                chart(rows, grain, measured), s.sql(), note, intervals.checked() == 0 ? null
                : (double) intervals.covered() / intervals.checked(), intervals.checked());
        List<List<Object>> ev = ahead.stream().map(p -> List.<Object>of(p.period(), p.forecast(), p.lower(), p.upper()))
                .limit(Evidence.MAX_ROWS).toList();
        ctx.addEvidence(new Evidence(s.sql(), List.of("period", "forecast", "lower_95", "upper_95"), ev, ahead.size(), frame));
        return ToolResult.withChart(summary(r, grain), r, (JsonNode) r.chart(), Map.of());
    }

    /** The first and last index of the last gap-free run of complete periods ({-1, -1} when there is none). */
    private static int[] lastRun(int[] usable) {
        int end = usable.length == 0 ? -1 : usable[usable.length - 1];
        int start = end;
        while (start - 1 >= 0 && contains(usable, start - 1)) {
            start--;
        }
        return new int[] {start, end};
    }

    /** The back-test's errors: mean absolute percentage error (null when every actual is 0) and mean absolute error. */
    private record Backtest(Double mape, double mae) { }

    /** A model fitted without the last {@code holdout} points forecasts them. */
    private static Backtest backtest(double[] y, int holdout, int season) {
        int n = y.length;
        double[] predicted = HoltWinters.fit(java.util.Arrays.copyOfRange(y, 0, n - holdout), season).forecast(holdout);
        double ape = 0;
        int apeCount = 0;
        double ae = 0;
        for (int i = 0; i < holdout; i++) {
            double actual = y[n - holdout + i];
            ae += Math.abs(actual - predicted[i]);
            if (actual != 0) {
                ape += Math.abs((actual - predicted[i]) / actual);
                apeCount++;
            }
        }
        return new Backtest(apeCount == 0 ? null : ape / apeCount, ae / holdout);
    }

    /** Every period of the series with its value and, inside the fitted run, the model's fit. */
    private static List<Point> history(Series s, double[] fitted, int start, int n) {
        List<Point> history = new ArrayList<>();
        for (int i = 0; i < s.values().length; i++) {
            double v = s.values()[i];
            int k = i - start;
            Double fit = k >= 0 && k < n && !Double.isNaN(fitted[k]) ? fitted[k] : null;
            history.add(new Point(s.periods().get(i), Double.isNaN(v) ? null : v, fit, null, null));
        }
        return history;
    }

    /** The forecast periods after {@code last}, with their 95 % intervals. */
    private static List<Point> ahead(HoltWinters model, BacktestIntervals intervals, LocalDate last, Series.Grain grain,
                                     int horizon) {
        double[] f = model.forecast(horizon);
        List<Point> ahead = new ArrayList<>();
        double w = 0;
        for (int k = 1; k <= horizon; k++) {
            w = Math.max(w, intervals.halfWidth(k, model.halfWidth(k, Z95))); // never narrower further ahead
            ahead.add(new Point(step(last, grain, k).toString(), null, f[k - 1], f[k - 1] - w, f[k - 1] + w));
        }
        return ahead;
    }

    /** History and forecast as frame {@code frame}; returns its rows (the chart draws them). */
    private static List<Map<String, Object>> save(Workspace ws, String frame, List<Point> history, List<Point> ahead)
            throws QueryException {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Point p : history) {
            rows.add(row(p, "history"));
        }
        for (Point p : ahead) {
            rows.add(row(p, "forecast"));
        }
        RowsFrame.save(ws, frame, List.of(new RowsFrame.Col("period", "DATE"), new RowsFrame.Col("kind", "VARCHAR"),
                new RowsFrame.Col("actual", "DOUBLE"), new RowsFrame.Col("forecast", "DOUBLE"),
                new RowsFrame.Col("lower", "DOUBLE"), new RowsFrame.Col("upper", "DOUBLE")), rows);
        return rows;
    }

    private static Object chart(List<Map<String, Object>> rows, Series.Grain grain, String measured) {
        return VegaLite.chart("Forecast of " + grain.adjective() + " " + measured).values(rows)
                .set("width", "container").set("height", 260)
                .layer(VegaLite.layerSpec().mark("area", Map.of("opacity", 0.25))
                        .encode("x", "period", "temporal", TrendAnalysis.capital(grain.sql()))
                        .encode("y", "lower", "quantitative", TrendAnalysis.capital(measured)).encode("y2", "upper", "quantitative", null))
                .layer(VegaLite.layerSpec().mark("line").encode("x", "period", "temporal", null)
                        .encode("y", "actual", "quantitative", null))
                .layer(VegaLite.layerSpec().mark("line", Map.of("strokeDash", List.of(4, 4)))
                        .encode("x", "period", "temporal", null).encode("y", "forecast", "quantitative", null)
                        .encode("color", "kind", "nominal", null))
                .json();
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Object> row(Point p, String kind) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("period", p.period());
        m.put("kind", kind);
        m.put("actual", p.actual());
        m.put("forecast", p.forecast());
        m.put("lower", p.lower());
        m.put("upper", p.upper());
        return m;
    }

    static LocalDate step(LocalDate d, Series.Grain g, int k) {
        return switch (g) {
            case DAY -> d.plusDays(k);
            case WEEK -> d.plusWeeks(k);
            case MONTH -> d.plusMonths(k);
            case QUARTER -> d.plusMonths(3L * k);
            case YEAR -> d.plusYears(k);
        };
    }

    static String summary(Result r, Series.Grain grain) {
        StringBuilder b = new StringBuilder("Forecast of ").append(grain.adjective()).append(' ').append(r.measure())
                .append(" of ").append(r.source()).append(", ").append(r.forecast().size()).append(" ").append(r.grain())
                .append(r.forecast().size() == 1 ? "" : "s").append(" ahead (").append(r.method()).append("; α ")
                .append(Columns.num(r.alpha())).append(", β ").append(Columns.num(r.beta()));
        if (r.method().startsWith("Holt-Winters")) {
            b.append(", γ ").append(Columns.num(r.gamma()));
        }
        b.append(").\nBacktest on the last ").append(r.backtestPeriods()).append(" held-out period(s): MAPE ")
                .append(r.mape() == null ? "n/a (actuals are 0)" : Columns.pct(r.mape())).append(", MAE ")
                .append(Columns.num(r.mae())).append('.');
        if (r.intervalCoverage() != null) {
            b.append("\nThe 95% intervals are as wide as the backtest's errors at each horizon (rolling origins): they"
                    + " covered ").append(Columns.pct(r.intervalCoverage())).append(" of ").append(r.coverageChecked())
                    .append(" backtest forecasts, each checked against an interval built without its origin.");
        }
        b.append("\nForecast (95% interval):");
        List<Point> f = r.forecast();
        for (int i = 0; i < f.size(); i++) {
            if (f.size() > 8 && i >= 3 && i < f.size() - 3) {
                if (i == 3) {
                    b.append("\n  …");
                }
                continue;
            }
            Point p = f.get(i);
            b.append("\n  ").append(p.period()).append(": ").append(Columns.num(p.forecast())).append(" [")
                    .append(Columns.num(p.lower())).append(", ").append(Columns.num(p.upper())).append(']');
        }
        if (r.note() != null) {
            b.append('\n').append(r.note());
        }
        b.append("\nSaved as frames.").append(r.frame()).append(" (period, kind, actual, forecast, lower, upper).");
        return b.toString();
    }
}
