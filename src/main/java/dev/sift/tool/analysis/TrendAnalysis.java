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
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A measure over time: the series per period (aggregated in SQL), growth rates, a linear trend with its
 * significance, and a seasonality hint; a line chart spec with the trend line. Partial first/last periods
 * are kept in the series but left out of the trend.
 */
public final class TrendAnalysis implements Tool<TrendAnalysis.Args> {

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "DATE or TIMESTAMP column", aliases = {"date_column", "time"}, kind = Arg.Kind.COLUMN) String date,
            @Arg(value = "numeric column to aggregate (omit to count rows)", required = false, aliases = {"value"},
                    kind = Arg.Kind.COLUMN) String measure,
            @Arg(value = "sum, avg, count, min, max or median (default: sum with a measure, count without)",
                    required = false, aliases = {"aggregate"}) String agg,
            @Arg(value = "day, week, month, quarter or year (default month)", required = false, aliases = {"period"})
            String grain) {
        public Args {
            Series.Grain.parse(grain);
            agg = agg == null ? (measure == null ? "count" : "sum") : agg.trim().toLowerCase(Locale.ROOT);
        }
    }

    public record Point(String period, Double value, Double trend, Double change) { }

    public record Trend(double slopePerPeriod, double slopePerYearShare, double r2, double pValue, String direction,
                        int points) { }

    public record Result(String source, String date, String measure, String grain, List<Point> series,
                         Trend trend, Seasonality seasonality, Double lastChange, Double yearOverYear,
                         boolean firstPartial, boolean lastPartial, String frame, Object chart, String sql) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("trend_analysis", "A measure per day/week/month/quarter/year: the series, growth rates,"
                + " a linear trend with its p-value, and a seasonality hint; line chart. Kept as frame"
                + " trend_<source>_<measure>.", Args.class, "series and trend", Set.of("analysis"));
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
        Result r = analyse(ws, t, date, measure, args.agg(), Series.Grain.parse(args.grain()),
                Series.measured(ctx, t, measure, args.agg()));
        if (r.trend() == null) {
            throw new ToolCallException("The " + r.grain() + " series of " + t.name() + "." + date.name() + " has only "
                    + r.series().size() + " period(s) (" + (r.firstPartial() || r.lastPartial() ? "partial edge periods"
                    + " excluded" : "with values") + "); a trend needs at least 3. Use a finer grain (e.g. 'day' or 'week').");
        }
        List<List<Object>> rows = r.series().stream().map(p -> List.<Object>of(p.period(), p.value() == null ? "NULL" : p.value()))
                .limit(Evidence.MAX_ROWS).toList();
        ctx.addEvidence(new Evidence(r.sql(), List.of("period", "value"), rows, r.series().size(), r.frame()));
        return ToolResult.withChart(summary(r, t.name()), r, (JsonNode) r.chart(), Map.of());
    }

    /** {@code measured}: the measure as a person says it (the chart's title and axis), e.g. "total loan amount (CZK)". */
    static Result analyse(Workspace ws, TableInfo t, ColumnInfo date, ColumnInfo measure, String agg, Series.Grain grain,
                          String measured) throws QueryException {
        Series s = Series.load(ws, t, date, measure, agg, grain);
        int[] use = s.usable();
        double[] x = new double[use.length];
        double[] y = new double[use.length];
        for (int i = 0; i < use.length; i++) {
            x[i] = use[i];
            y[i] = s.values()[use[i]];
        }
        OlsTrend fit = use.length >= 3 ? OlsTrend.fit(x, y) : null;
        Seasonality season = null;
        if (use.length > 0 && use[use.length - 1] - use[0] + 1 == use.length) { // seasonality needs a gap-free run
            season = Seasonality.of(y, grain.season);
        }
        List<Point> points = points(s.periods(), s.values(), fit);
        Double lastChange = null;
        Double yoy = null;
        if (use.length >= 2) {
            int last = use[use.length - 1];
            lastChange = points.get(last).change();
            yoy = yearOverYear(s.values(), last, grain);
        }
        String frame = RowsFrame.label("trend", t.name(), measure == null ? "count" : measure.name());
        List<Map<String, Object>> rows = save(ws, frame, points);
        Object chart = VegaLite.chart(capital(grain.adjective()) + " " + measured)
                .values(rows).set("width", "container").set("height", 260)
                .layer(VegaLite.layerSpec().mark("line", Map.of("point", true))
                        .encode("x", "period", "temporal", capital(grain.sql()))
                        .encode("y", "value", "quantitative", capital(measured)))
                .layer(VegaLite.layerSpec().mark("line", Map.of("strokeDash", List.of(4, 4), "color", "gray"))
                        .encode("x", "period", "temporal", null).encode("y", "trend", "quantitative", "linear trend"))
                .json();
        return new Result(t.name(), date.name(), Series.label(measure, agg), grain.sql(), points,
                fit == null ? null : trend(fit, y, grain), season, lastChange, yoy, s.firstPartial(), s.lastPartial(), frame,
                chart, s.sql());
    }

    /** The fitted trend of the usable values {@code y}: direction at p < 0.05, and the slope as a share of the mean per year. */
    private static Trend trend(OlsTrend fit, double[] y, Series.Grain grain) {
        double mean = java.util.Arrays.stream(y).average().orElse(0);
        double perYear = switch (grain) {
            case DAY -> 365.25;
            case WEEK -> 52.18;
            case MONTH -> 12;
            case QUARTER -> 4;
            case YEAR -> 1;
        };
        String direction = fit.pValue() < 0.05 ? (fit.slope() > 0 ? "rising" : "falling") : "no significant trend";
        return new Trend(fit.slope(), mean == 0 ? Double.NaN : fit.slope() * perYear / Math.abs(mean), fit.r2(),
                fit.pValue(), direction, y.length);
    }

    /** Every period with its value, the trend line (when fitted) and the change from the period before. */
    private static List<Point> points(List<String> periods, double[] v, OlsTrend fit) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < v.length; i++) {
            Double change = i > 0 && !Double.isNaN(v[i]) && !Double.isNaN(v[i - 1]) && v[i - 1] != 0
                    ? (v[i] - v[i - 1]) / Math.abs(v[i - 1]) : null;
            points.add(new Point(periods.get(i), Double.isNaN(v[i]) ? null : v[i], fit == null ? null : fit.at(i), change));
        }
        return points;
    }

    /** The change of period {@code last} against the same period a year before, when both have a value. */
    private static Double yearOverYear(double[] v, int last, Series.Grain grain) {
        int back = grain == Series.Grain.YEAR ? 1 : grain.season;
        if (back > 0 && last - back >= 0 && !Double.isNaN(v[last - back]) && v[last - back] != 0) {
            return (v[last] - v[last - back]) / Math.abs(v[last - back]);
        }
        return null;
    }

    /** The series as frame {@code frame}; returns its rows (the chart draws them). */
    private static List<Map<String, Object>> save(Workspace ws, String frame, List<Point> points) throws QueryException {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Point p : points) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("period", p.period());
            m.put("value", p.value());
            m.put("trend", p.trend());
            m.put("change", p.change());
            rows.add(m);
        }
        RowsFrame.save(ws, frame, List.of(new RowsFrame.Col("period", "DATE"), new RowsFrame.Col("value", "DOUBLE"),
                new RowsFrame.Col("trend", "DOUBLE"), new RowsFrame.Col("change", "DOUBLE")), rows);
        return rows;
    }

    static String summary(Result r, String table) {
        StringBuilder b = new StringBuilder(capital(Series.Grain.valueOf(r.grain().toUpperCase(Locale.ROOT)).adjective()))
                .append(' ').append(r.measure()).append(" of ").append(table).append(" by ").append(r.date()).append(", ")
                .append(r.series().get(0).period()).append(" … ").append(r.series().get(r.series().size() - 1).period())
                .append(" (").append(r.series().size()).append(" periods");
        if (r.firstPartial() || r.lastPartial()) {
            b.append("; ").append(r.firstPartial() && r.lastPartial() ? "first and last periods" : r.firstPartial()
                    ? "first period" : "last period").append(" partial, left out of the trend");
        }
        b.append(").\n");
        Trend t = r.trend();
        b.append("Trend: ").append(t.direction()).append(", ").append(signed(t.slopePerPeriod())).append(" per ")
                .append(r.grain());
        if (!Double.isNaN(t.slopePerYearShare())) {
            b.append(" (").append(signed(t.slopePerYearShare() * 100)).append("% of the mean per year)");
        }
        b.append(", R² ").append(Columns.num(t.r2())).append(", p ").append(pText(t.pValue())).append(", over ")
                .append(t.points()).append(" periods.\n");
        if (r.lastChange() != null || r.yearOverYear() != null) {
            b.append("Last complete period: ");
            if (r.lastChange() != null) {
                b.append(signed(r.lastChange() * 100)).append("% vs the previous period");
            }
            if (r.yearOverYear() != null) {
                b.append(r.lastChange() != null ? ", " : "").append(signed(r.yearOverYear() * 100)).append("% vs a year earlier");
            }
            b.append(".\n");
        }
        Seasonality s = r.seasonality();
        if (s != null) {
            b.append("Seasonality: ").append(s.strength().equals("none") ? "no clear " + s.period() + "-" + r.grain()
                    + " pattern" : s.strength() + " " + s.period() + "-" + r.grain() + " pattern").append(" (autocorrelation ")
                    .append(Columns.num(s.autocorrelation())).append(" at lag ").append(s.period()).append(')');
            if (!s.strength().equals("none")) {
                b.append("; highest ").append(position(r, s.peak())).append(", lowest ").append(position(r, s.trough()));
            }
            b.append(".\n");
        }
        b.append("Saved as frames.").append(r.frame()).append(" (period, value, trend, change).");
        return b.toString();
    }

    /** "in December" for months and quarters, "on Mondays" for days, "in week 12" for weeks. */
    private static String position(Result r, int k) {
        int first = r.firstPartial() ? 1 : 0;
        LocalDate d = LocalDate.parse(r.series().get(Math.min(r.series().size() - 1, first + k)).period());
        return switch (r.grain()) {
            case "month" -> "in " + d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "quarter" -> "in Q" + ((d.getMonthValue() - 1) / 3 + 1);
            case "day" -> "on " + d.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + "s";
            default -> "in week " + d.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR);
        };
    }

    static String pText(double p) {
        return p < 0.001 ? "< 0.001" : Columns.num(p);
    }

    static String signed(double v) {
        return (v > 0 ? "+" : "") + Columns.num(v);
    }

    static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
