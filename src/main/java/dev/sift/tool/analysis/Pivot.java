package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
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
import dev.sift.text.ResultText;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A pivot table with DuckDB's PIVOT: one row per combination of the row columns, one column per value of
 * the pivot column(s), cells aggregated; saved as a frame. The distinct pivot values are counted first so
 * a pivot never explodes into thousands of columns.
 */
public final class Pivot implements Tool<Pivot.Args> {
    static final int MAX_PIVOT_VALUES = 50;
    static final Set<String> AGGS = Set.of("sum", "avg", "count", "min", "max", "median");

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "columns whose values become the rows", aliases = {"index", "group_by"}, kind = Arg.Kind.COLUMNS)
            List<String> rows,
            @Arg(value = "column(s) whose values become the columns (at most 50 combinations)", aliases = {"on", "pivot"},
                    kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "column to aggregate in the cells (omit to count rows)", required = false, aliases = {"value"},
                    kind = Arg.Kind.COLUMN) String values,
            @Arg(value = "sum, avg, count, min, max or median (default: sum with values, count without)", required = false,
                    aliases = {"aggregate"}) String agg,
            @Arg(value = "frame label for the result (default pivot_<source>)", required = false, aliases = {"name"})
            String label) {
        public Args {
            agg = agg == null ? (values == null ? "count" : "sum") : agg.trim().toLowerCase(Locale.ROOT);
            if (!AGGS.contains(agg)) {
                throw new IllegalArgumentException("agg must be one of sum, avg, count, min, max, median; got '" + agg + "'.");
            }
        }
    }

    public record Result(String frame, String sql, QueryResult table, Object chart) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("pivot", "Pivot table: rows by the values of 'rows' columns, one column per value of"
                + " 'columns', cells = agg(values) (count of rows without values); saved as a frame.", Args.class,
                "pivot table", Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        List<String> rows = canonical(t, args.rows());
        List<String> on = canonical(t, args.columns());
        if (rows.isEmpty() || on.isEmpty()) {
            throw new ToolCallException("pivot needs at least one 'rows' column and one 'columns' column.");
        }
        Set<String> both = new LinkedHashSet<>(rows);
        both.retainAll(on);
        if (!both.isEmpty()) {
            throw new ToolCallException("Column(s) " + String.join(", ", both) + " cannot be both a row and a pivot column.");
        }
        ColumnInfo value = args.values() == null ? null : t.column(args.values()).orElseThrow();
        if (value == null && !args.agg().equals("count")) {
            throw new ToolCallException("agg '" + args.agg() + "' needs a 'values' column; omit agg to count rows.");
        }
        if (value != null && !args.agg().equals("count") && !Columns.numeric(value)) {
            throw new ToolCallException("Column " + t.name() + "." + value.name() + " is " + value.type() + ", not numeric, so it"
                    + " cannot be " + args.agg() + "-aggregated. Numeric columns of " + t.name() + ": "
                    + Series.numericColumns(t) + ". Use agg 'count' to count its non-null values.");
        }
        String onList = String.join(", ", on.stream().map(Columns::q).toList());
        long combos = ((Number) ws.trustedQuery("SELECT count(*) FROM (SELECT DISTINCT " + onList + " FROM " + t.sqlName()
                + ")", 1).scalar()).longValue();
        if (combos > MAX_PIVOT_VALUES) {
            throw new ToolCallException("Pivot column(s) " + String.join(", ", on) + " have " + combos + " distinct values; at"
                    + " most " + MAX_PIVOT_VALUES + " can become columns. Pivot on a column with fewer values, or swap"
                    + " 'rows' and 'columns'.");
        }
        String cell = value == null ? "count(*)" : args.agg() + "(" + Columns.q(value.name()) + ")";
        String rowList = String.join(", ", rows.stream().map(Columns::q).toList());
        String sql = "PIVOT " + t.sqlName() + " ON " + onList + " USING " + cell + " GROUP BY " + rowList
                + " ORDER BY " + rowList;
        String label = args.label() != null ? args.label() : RowsFrame.label("pivot", t.name());
        QueryResult r = ws.saveTrustedFrame(label, sql);
        ctx.addEvidence(Evidence.of(new QueryResult(sql, r.columns(), r.rows(), r.rowCount(), r.truncated(), r.millis(), r.cuts()), label));
        String what = value == null ? "count of rows" : args.agg() + "(" + value.name() + ")";
        String summary = "Pivot of " + t.name() + ": " + what + " by " + String.join(", ", rows) + " (rows) × "
                + String.join(", ", on) + " (" + (r.columns().size() - rows.size()) + " columns). Saved as frames." + label
                + ".\n" + ResultText.render(r, 12);
        Object chart = heatmap(t.name(), what, rows, r);
        return ToolResult.withChart(summary, new Result(label, sql, r, chart), (JsonNode) chart, Map.of("row_count", r.rowCount()));
    }

    /** A heatmap of the (fetched) pivot cells: rows × pivot columns, folded back to long form by Vega-Lite. */
    private static Object heatmap(String table, String what, List<String> rows, QueryResult r) {
        List<String> cells = r.columnNames().subList(rows.size(), r.columnNames().size());
        List<Map<String, Object>> values = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("row", String.join(" / ", row.subList(0, rows.size()).stream().map(String::valueOf).toList()));
            for (int i = 0; i < cells.size(); i++) {
                m.put(cells.get(i), row.get(rows.size() + i));
            }
            values.add(m);
        }
        return VegaLite.chart(what + " of " + table).values(values)
                .set("transform", List.of(Map.of("fold", cells, "as", List.of("column", "value"))))
                .mark("rect")
                .encode("x", "column", "nominal", null)
                .encode("y", "row", "nominal", String.join(" / ", rows))
                .encode("color", "value", "quantitative", what)
                .json();
    }

    private static List<String> canonical(TableInfo t, List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names == null ? List.<String>of() : names) {
            String c = t.column(n).orElseThrow().name();
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }
}
