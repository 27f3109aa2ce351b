package dev.sift.tool.chart;

import dev.sift.text.ChartSpec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.knowledge.KnowledgeGraph;
import dev.sift.knowledge.ResultLabels;
import dev.sift.text.Evidence;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A Vega-Lite chart of a frame (or table): bar, line, scatter, histogram, pie or heatmap. Every field is a
 * column of the source (checked by the registry before the tool runs); the tool checks that the kind fits
 * the columns' types. Counting charts (bar or pie without y, histogram, heatmap without color) aggregate in
 * DuckDB, so they work on any size; charts of raw points take at most {@value #MAX_POINTS} rows.
 */
public final class MakeChart implements Tool<MakeChart.Args> {
    static final int MAX_POINTS = 5000;
    static final int MAX_GROUPS = 200;
    static final List<String> KINDS = List.of("bar", "line", "scatter", "histogram", "pie", "heatmap");

    public record Args(
            @Arg(value = "frame (or table) to chart", aliases = {"table", "frame"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "bar, line, scatter, histogram, pie or heatmap", aliases = {"type", "chart"}) String kind,
            @Arg(value = "column for the x axis (the categories of bar and pie)", kind = Arg.Kind.COLUMN) String x,
            @Arg(value = "column for the y axis (bar/pie: the value; omitted = count of rows)", required = false,
                    kind = Arg.Kind.COLUMN) String y,
            @Arg(value = "column for color (a series or, in a heatmap, the value)", required = false,
                    kind = Arg.Kind.COLUMN) String color,
            @Arg(value = "chart title", required = false) String title) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("make_chart", "Make a chart (Vega-Lite) of a frame or table: bar, line, scatter,"
                + " histogram, pie or heatmap, with x, optional y and color columns.", Args.class, "a chart spec",
                Set.of("chart"));
    }

    @Override
    public ToolResult run(Args a, ToolContext ctx) throws QueryException, ToolCallException {
        String kind = a.kind() == null ? "" : a.kind().trim().toLowerCase(java.util.Locale.ROOT);
        if (!KINDS.contains(kind)) {
            throw new ToolCallException("Unknown chart kind '" + a.kind() + "'. Kinds: " + String.join(", ", KINDS) + ".");
        }
        TableInfo t = ctx.workspace().table(a.source()).orElseThrow();
        ColumnInfo x = t.column(a.x()).orElseThrow();
        ColumnInfo y = a.y() == null ? null : t.column(a.y()).orElseThrow();
        ColumnInfo color = a.color() == null ? null : t.column(a.color()).orElseThrow();
        ChartSpec.Field fx = ChartSpec.Field.of(x.name(), x.type());
        ChartSpec.Field fy = y == null ? null : ChartSpec.Field.of(y.name(), y.type());
        ChartSpec.Field fc = color == null ? null : ChartSpec.Field.of(color.name(), color.type());
        String problem = check(kind, t, fx, fy, fc);
        if (problem != null) {
            throw new ToolCallException(problem);
        }
        boolean counting = y == null && (kind.equals("bar") || kind.equals("pie")) || kind.equals("histogram")
                || kind.equals("heatmap") && color == null;
        List<String> cols = new ArrayList<>();
        for (ColumnInfo c : new ColumnInfo[] {x, y, color}) {
            if (c != null && !cols.contains(c.name())) {
                cols.add(c.name());
            }
        }
        String select = String.join(", ", cols.stream().map(Sql::quoteIdent).toList());
        QueryResult r;
        if (counting) {
            r = ctx.workspace().trustedQuery("SELECT " + select + ", count(*) AS " + ChartSpec.COUNT + " FROM "
                    + t.sqlName() + " GROUP BY ALL ORDER BY " + ChartSpec.COUNT + " DESC LIMIT " + (kind.equals("histogram")
                    ? MAX_POINTS : MAX_GROUPS + 1), MAX_POINTS);
            if (!kind.equals("histogram") && r.rows().size() > MAX_GROUPS) {
                throw new ToolCallException(x.name() + " of " + t.name() + " has more than " + MAX_GROUPS + " groups, too many"
                        + " to chart as a " + kind + ". Chart a column with fewer values, or aggregate first with run_sql"
                        + " (label the result) and chart that frame.");
            }
        } else {
            if (t.rows() > MAX_POINTS) {
                throw new ToolCallException(t.name() + " has " + t.rows() + " rows; a " + kind + " chart takes at most "
                        + MAX_POINTS + " points. Aggregate first with run_sql (e.g. GROUP BY " + x.name() + ", with a"
                        + " label) and chart that frame.");
            }
            r = ctx.workspace().trustedQuery("SELECT " + select + " FROM " + t.sqlName()
                    + (fx.type().equals("nominal") ? "" : " ORDER BY " + Sql.quoteIdent(x.name())), MAX_POINTS);
        }
        ObjectNode spec = ChartSpec.build(kind, fx, fy, fc, a.title(), r.columnNames(), r.rows(), titles(t, ctx));
        String what = (y == null ? (kind.equals("heatmap") || kind.equals("histogram") || counting ? "count of rows" : "")
                : y.name());
        String summary = "Made a " + kind + " chart of " + t.name() + ": x = " + x.name() + " (" + fx.type() + ")"
                + (what.isEmpty() ? "" : ", " + (kind.equals("pie") ? "size" : "y") + " = " + what)
                + (color == null ? "" : ", color = " + color.name()) + "; " + r.rows().size()
                + (counting ? " groups." : " points.") + " The person sees the chart; do not describe numbers you did"
                + " not read from a result.";
        return ToolResult.chart(summary, spec, Map.of("kind", kind));
    }

    /**
     * Axis titles from the knowledge graph: a dataset column by its label ("Region", not "A3"), a frame's column by the
     * query that made it, the count of rows as "Number of loans".
     */
    private static UnaryOperator<String> titles(TableInfo t, ToolContext ctx) {
        KnowledgeGraph kg = ctx.knowledge().graph();
        boolean frame = t.kind() == TableInfo.Kind.FRAME;
        String sql = frame ? ctx.evidence().stream().filter(e -> t.name().equals(e.frame())).reduce((p, q) -> q)
                .map(Evidence::sql).orElse(null) : null;
        ResultLabels labels = new ResultLabels(kg);
        return c -> {
            if (c.equals(ChartSpec.COUNT)) {
                return ResultLabels.capital(frame ? "count" : ResultLabels.measure(kg, t.name(), null, "count"));
            }
            return frame ? labels.of(sql, c) : ResultLabels.capital(ResultLabels.columnOrName(kg, t.name(), c));
        };
    }

    private static String check(String kind, TableInfo t, ChartSpec.Field x, ChartSpec.Field y, ChartSpec.Field c) {
        String q = "quantitative";
        switch (kind) {
            case "scatter" -> {
                if (y == null) {
                    return "A scatter chart needs y: give a numeric column of " + t.name() + " as y.";
                }
                if (!x.type().equals(q) || !y.type().equals(q)) {
                    return "A scatter chart needs numeric x and y; " + (x.type().equals(q) ? y.name() : x.name())
                            + " of " + t.name() + " is not numeric. Numeric columns: " + numeric(t) + ".";
                }
            }
            case "line" -> {
                if (y == null) {
                    return "A line chart needs y: give a numeric column of " + t.name() + " as y.";
                }
                if (!y.type().equals(q)) {
                    return "A line chart needs a numeric y; " + y.name() + " of " + t.name() + " is not numeric."
                            + " Numeric columns: " + numeric(t) + ".";
                }
            }
            case "histogram" -> {
                if (!x.type().equals(q)) {
                    return "A histogram needs a numeric x; " + x.name() + " of " + t.name() + " is not numeric (use a bar"
                            + " chart to count its values). Numeric columns: " + numeric(t) + ".";
                }
                if (y != null) {
                    return "A histogram counts rows per bin of x and takes no y; leave y out.";
                }
            }
            case "heatmap" -> {
                if (y == null) {
                    return "A heatmap needs x and y (two columns to cross); give y.";
                }
                if (c != null && !c.type().equals(q)) {
                    return "A heatmap's color must be numeric; " + c.name() + " of " + t.name() + " is not.";
                }
            }
            case "bar", "pie" -> {
                if (y != null && !y.type().equals(q)) {
                    return "A " + kind + " chart's y must be numeric; " + y.name() + " of " + t.name() + " is not. Leave y"
                            + " out to count rows per " + x.name() + ".";
                }
            }
            default -> { }
        }
        if (c != null && c.name().equals(x.name())) {
            return "color repeats x (" + x.name() + "); choose another column for color or leave it out.";
        }
        return null;
    }

    private static String numeric(TableInfo t) {
        List<String> n = t.columns().stream().filter(c -> ChartSpec.typeOf(c.type()).equals("quantitative"))
                .map(ColumnInfo::name).toList();
        return n.isEmpty() ? "none" : String.join(", ", n);
    }
}
