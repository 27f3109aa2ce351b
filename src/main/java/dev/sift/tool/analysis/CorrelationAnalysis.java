package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import dev.sift.text.CorrelationScale;
import java.util.Map;
import java.util.Set;

/**
 * Correlations between the numeric columns of a source (Pearson, or Spearman on average ranks), and the
 * correlation ratio η between categorical and numeric columns; the strongest pairs first, a heatmap spec,
 * and the pairs kept as frame {@code corr_<source>}. All aggregation runs in SQL.
 */
public final class CorrelationAnalysis implements Tool<CorrelationAnalysis.Args> {
    static final int MAX_NUMERIC = 30;
    static final int MAX_CATEGORIES = 50;
    static final int MAX_CATEGORICAL = 10;
    static final int STRONGEST = 8;

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "columns to correlate (default: numeric columns that are not ids, and text columns with at"
                    + " most 50 distinct values)", required = false, kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "pearson (default) or spearman", required = false) String method,
            @Arg(value = "a column whose correlations with the others to rank first", required = false,
                    aliases = {"with"}, kind = Arg.Kind.COLUMN) String target) {
        public Args {
            method = method == null ? "pearson" : method.trim().toLowerCase(Locale.ROOT);
            if (!method.equals("pearson") && !method.equals("spearman")) {
                throw new IllegalArgumentException("method must be 'pearson' or 'spearman', got '" + method + "'.");
            }
        }
    }

    /** One pair: method is pearson, spearman or eta (correlation ratio; {@code a} is the categorical column). */
    public record Pair(String a, String b, String method, double value, long n) { }

    public record Result(String source, String method, List<String> numeric, List<String> categorical,
                         List<Pair> pairs, List<Pair> strongest, List<String> skipped, String frame, Object chart) { }

    /** DuckDB's SQL over the source: on a live dataset it runs on a sample brought back ({@link dev.sift.tool.EngineSample}). */
    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("correlation_analysis", "Correlation matrix of numeric columns (pearson or spearman) plus"
                + " the correlation ratio for categorical vs numeric columns; strongest pairs first (those with"
                + " target first), heatmap spec. Kept as frame corr_<source>.", Args.class, "correlations",
                Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        String target = args.target() == null ? null : t.column(args.target()).orElseThrow().name();
        Selection sel = select(ws, t, args.columns(), target);
        List<Pair> pairs = new ArrayList<>(numericPairs(ws, t, sel.numeric(), args.method()));
        for (ColumnInfo c : sel.categorical()) {
            pairs.addAll(ratios(ws, t, c, sel.numeric()));
        }
        pairs.removeIf(p -> Double.isNaN(p.value()));
        Comparator<Pair> strength = Comparator.comparingDouble((Pair p) -> -Math.abs(p.value()));
        List<Pair> strongest = pairs.stream()
                .sorted(Comparator.comparing((Pair p) -> target != null && !p.a().equals(target) && !p.b().equals(target))
                        .thenComparing(strength))
                .limit(STRONGEST).toList();
        String frame = save(ws, t, pairs);
        Result r = new Result(t.name(), args.method(), nameList(sel.numeric()), nameList(sel.categorical()), pairs, strongest,
                sel.skipped(), frame, heatmap(t.name(), args.method(), sel.numeric(), pairs));
        ctx.addEvidence(Evidence.of(ws.trustedQuery("SELECT * FROM frames." + Sql.quoteIdent(frame)
                + " ORDER BY abs(value) DESC, a, b", Evidence.MAX_ROWS), frame));
        return ToolResult.withChart(summary(r, target), r, (JsonNode) r.chart(), Map.of());
    }

    /** The columns to compare, and those left out with the reason. */
    private record Selection(List<ColumnInfo> numeric, List<ColumnInfo> categorical, List<String> skipped) { }

    /**
     * The numeric and categorical columns to compare: those named (with the target), else every column but ids;
     * a text or boolean column is categorical with 2 to {@link #MAX_CATEGORIES} distinct values.
     */
    private static Selection select(Workspace ws, TableInfo t, List<String> named, String target)
            throws QueryException, ToolCallException {
        List<String> skipped = new ArrayList<>();
        List<ColumnInfo> numeric = new ArrayList<>();
        boolean explicit = named != null && !named.isEmpty();
        List<ColumnInfo> chosen = explicit ? named.stream().map(c -> t.column(c).orElseThrow()).distinct().toList()
                : t.columns();
        if (target != null && chosen.stream().noneMatch(c -> c.name().equals(target))) {
            chosen = new ArrayList<>(chosen);
            chosen.add(0, t.column(target).orElseThrow());
        }
        List<ColumnInfo> textual = new ArrayList<>();
        for (ColumnInfo c : chosen) {
            if (Columns.numeric(c) && (explicit || !Columns.idLike(c.name()) || c.name().equals(target))) {
                numeric.add(c);
            } else if (Columns.text(c) || c.type().equalsIgnoreCase("BOOLEAN")) {
                textual.add(c);
            } else if (explicit) {
                skipped.add(c.name() + " (" + c.type() + ": neither numeric nor categorical)");
            }
        }
        List<ColumnInfo> categorical = categorical(ws, t, textual, explicit, target, skipped);
        if (numeric.size() > MAX_NUMERIC) {
            throw new ToolCallException("Too many numeric columns (" + numeric.size() + "); name at most " + MAX_NUMERIC
                    + " with 'columns'.");
        }
        if (numeric.isEmpty() || numeric.size() + categorical.size() < 2) {
            throw new ToolCallException("correlation_analysis needs at least two columns to compare, one of them numeric; "
                    + t.name() + " gives numeric: " + names(numeric) + "; categorical: " + names(categorical)
                    + (skipped.isEmpty() ? "" : "; skipped: " + String.join(", ", skipped))
                    + ". Numeric columns of " + t.name() + ": " + Series.numericColumns(t) + "."
                    + (explicit || t.columns().stream().noneMatch(c -> Columns.numeric(c) && Columns.idLike(c.name())) ? ""
                    : " Id columns are left out unless named in 'columns'."));
        }
        return new Selection(numeric, categorical, skipped);
    }

    private static List<ColumnInfo> categorical(Workspace ws, TableInfo t, List<ColumnInfo> textual, boolean explicit,
                                                String target, List<String> skipped) throws QueryException {
        List<ColumnInfo> categorical = new ArrayList<>();
        if (textual.isEmpty()) {
            return categorical;
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < textual.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("approx_count_distinct(").append(Columns.q(textual.get(i).name())).append(')');
        }
        List<Object> d = ws.trustedQuery(sql.append(" FROM ").append(t.sqlName()).toString(), 1).rows().get(0);
        for (int i = 0; i < textual.size(); i++) {
            long distinct = ((Number) d.get(i)).longValue();
            if (distinct >= 2 && distinct <= MAX_CATEGORIES && categorical.size() < MAX_CATEGORICAL) {
                categorical.add(textual.get(i));
            } else if (explicit || textual.get(i).name().equals(target)) {
                skipped.add(textual.get(i).name() + " (~" + distinct + " distinct values; a categorical column needs"
                        + " 2 to " + MAX_CATEGORIES + ")");
            }
        }
        return categorical;
    }

    /** The pairs as frame {@code corr_<source>}; returns its label. */
    private static String save(Workspace ws, TableInfo t, List<Pair> pairs) throws QueryException {
        String frame = RowsFrame.label("corr", t.name());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Pair p : pairs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", p.a());
            m.put("b", p.b());
            m.put("method", p.method());
            m.put("value", p.value());
            m.put("n", p.n());
            rows.add(m);
        }
        RowsFrame.save(ws, frame, List.of(new RowsFrame.Col("a", "VARCHAR"), new RowsFrame.Col("b", "VARCHAR"),
                new RowsFrame.Col("method", "VARCHAR"), new RowsFrame.Col("value", "DOUBLE"), new RowsFrame.Col("n", "BIGINT")),
                rows);
        return frame;
    }

    static List<Pair> numericPairs(Workspace ws, TableInfo t, List<ColumnInfo> numeric, String method) throws QueryException {
        List<Pair> out = new ArrayList<>();
        if (numeric.size() < 2) {
            return out;
        }
        String from = t.sqlName();
        List<String> cols = numeric.stream().map(c -> Columns.q(c.name())).toList();
        if (method.equals("spearman")) {
            from = averageRanks(ws, t, cols);
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        List<int[]> idx = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            for (int j = i + 1; j < cols.size(); j++) {
                sql.append(idx.isEmpty() ? "" : ", ").append("corr(").append(cols.get(i)).append(", ").append(cols.get(j))
                        .append("), regr_count(").append(cols.get(i)).append(", ").append(cols.get(j)).append(')');
                idx.add(new int[] {i, j});
            }
        }
        List<Object> row = ws.trustedQuery(sql.append(" FROM ").append(from).toString(), 1).rows().get(0);
        for (int k = 0; k < idx.size(); k++) {
            Object v = row.get(2 * k);
            out.add(new Pair(numeric.get(idx.get(k)[0]).name(), numeric.get(idx.get(k)[1]).name(), method,
                    v == null ? Double.NaN : Columns.toDouble(v), ((Number) row.get(2 * k + 1)).longValue()));
        }
        return out;
    }

    /**
     * A subquery of average ranks (ties share the mean of their ranks; NULL stays NULL), one column per input
     * column. Columns with few distinct values are ranked over their distinct values (a running sum of counts)
     * and joined back; the others by one sort each ({@code rank} and {@code cume_dist} over the same window):
     * whichever is cheaper for the column's cardinality.
     */
    static String averageRanks(Workspace ws, TableInfo t, List<String> cols) throws QueryException {
        StringBuilder d = new StringBuilder("SELECT count(*)");
        for (String c : cols) {
            d.append(", count(").append(c).append("), approx_count_distinct(").append(c).append(')');
        }
        List<Object> stats = ws.trustedQuery(d.append(" FROM ").append(t.sqlName()).toString(), 1).rows().get(0);
        StringBuilder with = new StringBuilder();
        StringBuilder select = new StringBuilder();
        StringBuilder joins = new StringBuilder();
        StringBuilder windows = new StringBuilder();
        for (int i = 0; i < cols.size(); i++) {
            String c = cols.get(i);
            long nonNull = ((Number) stats.get(1 + 2 * i)).longValue();
            long distinct = ((Number) stats.get(2 + 2 * i)).longValue();
            select.append(i == 0 ? "" : ", ");
            if (distinct <= 0.1 * nonNull) {
                with.append(with.length() == 0 ? "WITH " : ", ").append("r").append(i).append(" AS (SELECT v, sum(n) OVER"
                        + " (ORDER BY v ROWS UNBOUNDED PRECEDING) - (n - 1) / 2.0 AS r FROM (SELECT ").append(c)
                        .append(" AS v, count(*) AS n FROM ").append(t.sqlName()).append(" WHERE ").append(c)
                        .append(" IS NOT NULL GROUP BY 1))");
                select.append("r").append(i).append(".r AS ").append(c);
                joins.append(" LEFT JOIN r").append(i).append(" ON r").append(i).append(".v = s.").append(c);
            } else {
                select.append("CASE WHEN s.").append(c).append(" IS NULL THEN NULL ELSE (rank() OVER w").append(i)
                        .append(" + cume_dist() OVER w").append(i).append(" * count(*) OVER ()) / 2 END AS ").append(c);
                windows.append(windows.length() == 0 ? " WINDOW " : ", ").append('w').append(i).append(" AS (ORDER BY s.")
                        .append(c).append(')');
            }
        }
        return "(" + with + " SELECT " + select + " FROM " + t.sqlName() + " s" + joins + windows + ")";
    }

    /** η between one categorical column and each numeric column, from one grouped pass. */
    static List<Pair> ratios(Workspace ws, TableInfo t, ColumnInfo cat, List<ColumnInfo> numeric) throws QueryException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < numeric.size(); i++) {
            String c = Columns.q(numeric.get(i).name());
            sql.append(i == 0 ? "" : ", ").append("count(").append(c).append("), avg(").append(c).append("), var_pop(")
                    .append(c).append(')');
        }
        sql.append(" FROM ").append(t.sqlName()).append(" WHERE ").append(Columns.q(cat.name())).append(" IS NOT NULL GROUP BY ")
                .append(Columns.q(cat.name()));
        QueryResult r = ws.trustedQuery(sql.toString(), MAX_CATEGORIES * 4);
        List<Pair> out = new ArrayList<>();
        for (int i = 0; i < numeric.size(); i++) {
            List<CorrelationRatio.Group> groups = new ArrayList<>();
            long n = 0;
            for (List<Object> row : r.rows()) {
                long count = ((Number) row.get(3 * i)).longValue();
                if (count > 0) {
                    groups.add(new CorrelationRatio.Group(count, Columns.toDouble(row.get(3 * i + 1)),
                            Columns.toDouble(row.get(3 * i + 2))));
                    n += count;
                }
            }
            out.add(new Pair(cat.name(), numeric.get(i).name(), "eta", CorrelationRatio.eta(groups), n));
        }
        return out;
    }

    private static Object heatmap(String table, String method, List<ColumnInfo> numeric, List<Pair> pairs) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (ColumnInfo c : numeric) {
            cells.add(cell(c.name(), c.name(), 1.0, method));
        }
        for (Pair p : pairs) {
            cells.add(cell(p.a(), p.b(), p.value(), p.method()));
            if (!p.method().equals("eta")) {
                cells.add(cell(p.b(), p.a(), p.value(), p.method()));
            }
        }
        return VegaLite.chart("Correlations in " + table + " (" + method + "; η for categorical columns)").values(cells)
                .layer(VegaLite.layerSpec().mark("rect").encode("x", "a", "nominal", null).encode("y", "b", "nominal", null)
                        .encode("color", VegaLite.field("value", "quantitative", "correlation")
                                .set("scale", new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(
                                        Map.of("domain", List.of(-1, 1), "scheme", "redblue")))))
                .layer(VegaLite.layerSpec().mark("text").encode("x", "a", "nominal", null).encode("y", "b", "nominal", null)
                        .encode("text", VegaLite.field("value", "quantitative", null).put("format", ".2f")))
                .json();
    }

    private static Map<String, Object> cell(String a, String b, double v, String method) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", a);
        m.put("b", b);
        m.put("value", v);
        m.put("method", method);
        return m;
    }

    private static String names(List<ColumnInfo> cols) {
        return cols.isEmpty() ? "none" : String.join(", ", nameList(cols));
    }

    private static List<String> nameList(List<ColumnInfo> cols) {
        return cols.stream().map(ColumnInfo::name).toList();
    }

    static String summary(Result r, String target) {
        StringBuilder b = new StringBuilder("Correlations in ").append(r.source()).append(" (").append(r.method())
                .append(" for numeric pairs, η for categorical vs numeric) over numeric ")
                .append(String.join(", ", r.numeric()));
        if (!r.categorical().isEmpty()) {
            b.append("; categorical ").append(String.join(", ", r.categorical()));
        }
        b.append(". ").append(target == null ? "Strongest pairs" : "Pairs with " + target + " first, then the strongest")
                .append(":\n");
        for (Pair p : r.strongest()) {
            b.append("- ").append(p.a()).append(p.method().equals("eta") ? " → " : " ~ ").append(p.b()).append(": ")
                    .append(p.method().equals("eta") ? "η " : "r ").append(String.format(Locale.ROOT, "%.3f", p.value()))
                    .append(" (").append(strength(p.value())).append(", n ").append(p.n()).append(")\n");
        }
        if (r.strongest().isEmpty()) {
            b.append("- no pair has a defined correlation (constant or empty columns)\n");
        }
        if (!r.skipped().isEmpty()) {
            b.append("Skipped: ").append(String.join("; ", r.skipped())).append(".\n");
        }
        b.append("Scale: ").append(CorrelationScale.TEXT).append(".\n");
        b.append("All ").append(r.pairs().size()).append(" pairs saved as frames.").append(r.frame()).append(" (a, b, method, value, n).");
        return b.toString();
    }

    static String strength(double v) {
        return CorrelationScale.label(v);
    }
}
