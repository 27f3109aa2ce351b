package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.text.Evidence;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A statistical test on a table or frame, optionally filtered: chi-square of independence or goodness of fit, Welch's
 * t-test, Mann–Whitney U, a two-proportion z-test, or a Pearson/Spearman correlation with its p-value. Counts and
 * aggregates come from SQL (so any number of rows works); the statistic, df, p-value and effect size from
 * {@link StatTests}. The result is kept as frame {@code stat_<test>_<source>} and is evidence.
 */
public final class StatTest implements Tool<StatTest.Args> {
    static final List<String> TESTS = List.of("chi_square", "goodness_of_fit", "welch_t", "mann_whitney",
            "two_proportion", "pearson", "spearman");
    static final int MAX_CATEGORIES = 50;
    static final double ALPHA = 0.05;

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "chi_square (two categorical columns), goodness_of_fit (one column, 'expected'), welch_t or"
                    + " mann_whitney (a numeric column by 'group'), two_proportion ('success' by 'group'), pearson or"
                    + " spearman (two numeric columns)", aliases = {"method", "kind"}) String test,
            @Arg(value = "the column(s) tested: two for chi_square/pearson/spearman, one otherwise", required = false,
                    aliases = {"column", "value"}, kind = Arg.Kind.COLUMNS) List<String> columns,
            @Arg(value = "column splitting rows into the two groups compared (welch_t, mann_whitney, two_proportion)",
                    required = false, aliases = {"by", "group_by"}, kind = Arg.Kind.COLUMN) String group,
            @Arg(value = "the two values of 'group' to compare when it has more than two", required = false)
            List<String> groups,
            @Arg(value = "two_proportion: SQL condition counted as a success, e.g. \"status = 'B'\"", required = false,
                    aliases = {"outcome"}) String success,
            @Arg(value = "goodness_of_fit: {category: proportion or count} (default: all categories equal)",
                    required = false) JsonNode expected,
            @Arg(value = "SQL condition restricting the rows, e.g. \"year = 2023\"", required = false,
                    aliases = {"where"}) String filter) {
        public Args {
            test = test == null ? null : test.trim().toLowerCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
            if (!TESTS.contains(test)) {
                throw new IllegalArgumentException("test must be one of " + String.join(", ", TESTS) + "; got '" + test
                        + "'.");
            }
            if (groups != null && groups.size() != 2) {
                throw new IllegalArgumentException("groups names exactly two values of the group column, got "
                        + groups.size() + ".");
            }
        }
    }

    /** The outcome with what was tested, and the frame it was kept as. */
    public record Result(String source, String test, String description, double statistic, String statisticName,
                         Double df, double pValue, double effect, String effectName, long n, List<String> warnings,
                         String frame) { }

    @Override
    public boolean computesLocally() {
        return true;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("stat_test", "A significance test on a table or frame: chi_square, goodness_of_fit, welch_t,"
                + " mann_whitney, two_proportion, pearson, spearman; gives statistic, df, p-value, effect size, n and"
                + " warns when assumptions fail. Kept as frame stat_<test>_<source>.", Args.class, "test result",
                Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        String src = filtered(ws, t, args.filter());
        List<ColumnInfo> cols = columns(t, args);
        StatTests.Outcome o = switch (args.test()) {
            case "chi_square" -> StatTests.independence(contingency(ws, src, cols.get(0), cols.get(1)));
            case "goodness_of_fit" -> goodnessOfFit(ws, src, cols.get(0), args.expected());
            case "pearson", "spearman" -> correlation(ws, src, args.test(), numeric(cols.get(0), args.test()),
                    numeric(cols.get(1), args.test()));
            default -> twoGroups(ws, t, src, args, cols.isEmpty() ? null : cols.get(0));
        };
        String described = describe(args, cols);
        String frame = RowsFrame.label("stat", args.test(), t.name());
        Result r = new Result(t.name(), args.test(), described, o.statistic(), o.statisticName(), o.df(), o.pValue(),
                o.effect(), o.effectName(), o.n(), o.warnings(), frame);
        save(ws, r, o.test());
        ctx.addEvidence(Evidence.of(ws.trustedQuery("SELECT * FROM frames." + Sql.quoteIdent(frame), 5), frame));
        return ToolResult.ok(summary(r, o.test()), r);
    }

    /** The source as a subquery, restricted by the planner's filter once the guard accepts it. */
    static String filtered(Workspace ws, TableInfo t, String filter) throws ToolCallException {
        if (filter == null || filter.isBlank()) {
            return t.sqlName();
        }
        String problem = ExpressionCheck.problem(filter);
        String sql = "SELECT * FROM " + t.sqlName() + " WHERE (" + filter + ")";
        try {
            if (problem == null) {
                ws.check(sql);
            }
        } catch (QueryException e) {
            problem = "does not work: " + e.getMessage();
        }
        if (problem != null) {
            throw new ToolCallException("The filter " + problem + ". Give one SQL condition on the columns of " + t.name()
                    + " (" + String.join(", ", t.columnNames()) + "), e.g. \"year = 2023\".");
        }
        return "(" + sql + ")";
    }

    private static List<ColumnInfo> columns(TableInfo t, Args args) throws ToolCallException {
        List<ColumnInfo> cols = args.columns() == null ? List.of()
                : args.columns().stream().map(c -> t.column(c).orElseThrow()).toList();
        int wanted = switch (args.test()) {
            case "chi_square", "pearson", "spearman" -> 2;
            case "two_proportion" -> 0;
            default -> 1;
        };
        if (cols.size() != wanted && !(wanted == 0 && cols.size() <= 1)) {
            throw new ToolCallException(args.test() + " needs " + (wanted == 0 ? "no column (give 'success' and 'group')"
                    : wanted + " column" + (wanted == 1 ? "" : "s")) + " in 'columns', got " + cols.size() + ". Columns of "
                    + t.name() + ": " + String.join(", ", t.columnNames()) + ".");
        }
        return cols;
    }

    private static ColumnInfo numeric(ColumnInfo c, String test) throws ToolCallException {
        if (!Columns.numeric(c)) {
            throw new ToolCallException(test + " needs numeric columns; " + c.name() + " is " + c.type()
                    + ". Cast it in a frame with run_sql first, or use chi_square for two categorical columns.");
        }
        return c;
    }

    /** Counts of each pair of values, as a table with the categories of {@code a} in rows. */
    static long[][] contingency(Workspace ws, String src, ColumnInfo a, ColumnInfo b)
            throws QueryException, ToolCallException {
        String qa = "CAST(" + Columns.q(a.name()) + " AS VARCHAR)";
        String qb = "CAST(" + Columns.q(b.name()) + " AS VARCHAR)";
        QueryResult r = ws.trustedQuery("SELECT " + qa + ", " + qb + ", count(*) FROM " + src + " WHERE " + qa
                + " IS NOT NULL AND " + qb + " IS NOT NULL GROUP BY ALL ORDER BY 1, 2", MAX_CATEGORIES * MAX_CATEGORIES + 1);
        List<String> ra = new ArrayList<>();
        List<String> cb = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            if (!ra.contains((String) row.get(0))) {
                ra.add((String) row.get(0));
            }
            if (!cb.contains((String) row.get(1))) {
                cb.add((String) row.get(1));
            }
        }
        if (r.truncated() || ra.size() > MAX_CATEGORIES || cb.size() > MAX_CATEGORIES) {
            throw new ToolCallException("chi_square takes at most " + MAX_CATEGORIES + " categories per column; "
                    + a.name() + " has " + ra.size() + " and " + b.name() + " " + cb.size() + " here. Group them into"
                    + " fewer categories in a frame with run_sql (CASE … END) first.");
        }
        if (ra.size() < 2 || cb.size() < 2) {
            throw new ToolCallException("chi_square needs at least two values in each column; " + a.name() + " has "
                    + ra + " and " + b.name() + " has " + cb + " (after the filter, NULLs left out).");
        }
        long[][] table = new long[ra.size()][cb.size()];
        for (List<Object> row : r.rows()) {
            table[ra.indexOf((String) row.get(0))][cb.indexOf((String) row.get(1))] = ((Number) row.get(2)).longValue();
        }
        return table;
    }

    private static StatTests.Outcome goodnessOfFit(Workspace ws, String src, ColumnInfo c, JsonNode expected)
            throws QueryException, ToolCallException {
        String qc = "CAST(" + Columns.q(c.name()) + " AS VARCHAR)";
        QueryResult r = ws.trustedQuery("SELECT " + qc + ", count(*) FROM " + src + " WHERE " + qc
                + " IS NOT NULL GROUP BY 1 ORDER BY 1", 4 * MAX_CATEGORIES + 1);
        Map<String, Long> observed = new LinkedHashMap<>();
        r.rows().forEach(row -> observed.put((String) row.get(0), ((Number) row.get(1)).longValue()));
        if (r.truncated()) {
            throw new ToolCallException(c.name() + " has more than " + 4 * MAX_CATEGORIES + " values; goodness_of_fit"
                    + " needs a categorical column.");
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        if (expected == null || expected.isNull()) {
            observed.keySet().forEach(k -> weights.put(k, 1.0));
        } else if (!expected.isObject()) {
            throw new ToolCallException("expected must be an object {category: proportion}, e.g. {\"A\": 0.5, \"B\": 0.5}.");
        } else {
            expected.fields().forEachRemaining(f -> weights.put(f.getKey(), f.getValue().asDouble(Double.NaN)));
        }
        List<String> unexpected = observed.keySet().stream().filter(k -> !weights.containsKey(k)).toList();
        if (!unexpected.isEmpty() || weights.values().stream().anyMatch(w -> !(w > 0))) {
            throw new ToolCallException("expected must give a positive proportion for every value of " + c.name()
                    + (unexpected.isEmpty() ? "" : "; missing: " + String.join(", ", unexpected)) + ". Values: "
                    + String.join(", ", observed.keySet()) + ".");
        }
        if (weights.size() < 2) {
            throw new ToolCallException("goodness_of_fit needs at least two categories; " + c.name() + " has "
                    + weights.keySet() + ".");
        }
        long[] obs = new long[weights.size()];
        double[] exp = new double[weights.size()];
        int i = 0;
        for (Map.Entry<String, Double> w : weights.entrySet()) {
            obs[i] = observed.getOrDefault(w.getKey(), 0L);
            exp[i++] = w.getValue();
        }
        return StatTests.goodnessOfFit(obs, exp);
    }

    /** Average rank of each value of {@code col} (ties share the mean of their ranks). */
    static String averageRank(String col) {
        return "rank() OVER (ORDER BY " + col + ") + (count(*) OVER (PARTITION BY " + col + ") - 1) / 2.0";
    }

    private static StatTests.Outcome correlation(Workspace ws, String src, String method, ColumnInfo x, ColumnInfo y)
            throws QueryException, ToolCallException {
        String qx = Columns.q(x.name());
        String qy = Columns.q(y.name());
        String pairs = "SELECT " + qx + " AS x, " + qy + " AS y FROM " + src + " WHERE " + qx + " IS NOT NULL AND " + qy
                + " IS NOT NULL";
        String from = method.equals("spearman")
                ? "(SELECT " + averageRank("x") + " AS x, " + averageRank("y") + " AS y FROM (" + pairs + "))"
                : "(" + pairs + ")";
        List<Object> row = ws.trustedQuery("SELECT corr(x, y), count(*) FROM " + from, 1).rows().get(0);
        long n = ((Number) row.get(1)).longValue();
        if (n < 3 || row.get(0) == null || Double.isNaN(((Number) row.get(0)).doubleValue())) {
            throw new ToolCallException(method + " needs at least 3 rows where both " + x.name() + " and " + y.name()
                    + " are set and neither is constant; found " + n + " rows.");
        }
        return StatTests.correlation(method, ((Number) row.get(0)).doubleValue(), n);
    }

    private static StatTests.Outcome twoGroups(Workspace ws, TableInfo t, String src, Args args, ColumnInfo value)
            throws QueryException, ToolCallException {
        if (args.group() == null) {
            throw new ToolCallException(args.test() + " compares two groups: name the column that splits them in 'group'"
                    + " (and 'groups' when it has more than two values). Columns of " + t.name() + ": "
                    + String.join(", ", t.columnNames()) + ".");
        }
        ColumnInfo g = t.column(args.group()).orElseThrow();
        List<String> two = TwoGroups.values(ws, src, g, args.groups());
        String qg = "CAST(" + Columns.q(g.name()) + " AS VARCHAR)";
        String first = qg + " = " + Sql.quoteString(two.get(0));
        String second = qg + " = " + Sql.quoteString(two.get(1));
        if (args.test().equals("two_proportion")) {
            return TwoGroups.proportions(ws, t, src, first, second, args.success());
        }
        if (value == null) {
            throw new ToolCallException(args.test() + " needs the numeric column to compare in 'columns'.");
        }
        String v = Columns.q(numeric(value, args.test()).name());
        return args.test().equals("welch_t") ? TwoGroups.welch(ws, src, v, first, second, two)
                : TwoGroups.mannWhitney(ws, src, v, first, second, two);
    }

    private static String describe(Args args, List<ColumnInfo> cols) {
        List<String> names = cols.stream().map(ColumnInfo::name).toList();
        String what = switch (args.test()) {
            case "chi_square", "pearson", "spearman" -> names.get(0) + " × " + names.get(1);
            case "goodness_of_fit" -> names.get(0) + (args.expected() == null ? " against equal shares"
                    : " against " + args.expected());
            case "two_proportion" -> "share where " + args.success() + " by " + args.group();
            default -> names.get(0) + " by " + args.group();
        };
        return what + (args.groups() == null ? "" : " (" + String.join(" vs ", args.groups()) + ")")
                + (args.filter() == null ? "" : " where " + args.filter());
    }

    private static void save(Workspace ws, Result r, String test) throws QueryException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("test", test);
        row.put("tested", r.description());
        row.put("statistic_name", r.statisticName());
        row.put("statistic", r.statistic());
        row.put("df", r.df());
        row.put("p_value", r.pValue());
        row.put("effect_name", r.effectName());
        row.put("effect_size", r.effect());
        row.put("n", r.n());
        row.put("warnings", String.join("; ", r.warnings()));
        RowsFrame.save(ws, r.frame(), List.of(new RowsFrame.Col("test", "VARCHAR"), new RowsFrame.Col("tested", "VARCHAR"),
                new RowsFrame.Col("statistic_name", "VARCHAR"), new RowsFrame.Col("statistic", "DOUBLE"),
                new RowsFrame.Col("df", "DOUBLE"), new RowsFrame.Col("p_value", "DOUBLE"),
                new RowsFrame.Col("effect_name", "VARCHAR"), new RowsFrame.Col("effect_size", "DOUBLE"),
                new RowsFrame.Col("n", "BIGINT"), new RowsFrame.Col("warnings", "VARCHAR")), List.of(row));
    }

    /** A p-value to four significant digits; below 0.0001 in scientific notation. */
    static String p(double p) {
        return p < 1e-4 ? String.format(Locale.ROOT, "%.3e", p) : String.format(Locale.ROOT, "%.4g", p);
    }

    static String summary(Result r, String test) {
        StringBuilder b = new StringBuilder(test.substring(0, 1).toUpperCase(Locale.ROOT)).append(test.substring(1))
                .append(" on ").append(r.source()).append(": ").append(r.description()).append(" (n ").append(r.n())
                .append(").\n").append(r.statisticName()).append(" = ")
                .append(String.format(Locale.ROOT, "%.4f", r.statistic()));
        if (r.df() != null) {
            b.append(", df = ").append(r.df() == Math.rint(r.df()) ? String.valueOf(r.df().longValue())
                    : String.format(Locale.ROOT, "%.2f", r.df()));
        }
        b.append(", p = ").append(p(r.pValue())).append(" (").append(r.pValue() < ALPHA ? "significant" : "not significant")
                .append(" at ").append(ALPHA).append("); ").append(r.effectName()).append(" = ")
                .append(String.format(Locale.ROOT, "%.4f", r.effect())).append(".\n");
        r.warnings().forEach(w -> b.append("Warning: ").append(w).append(".\n"));
        return b.append("Kept as frames.").append(r.frame()).append(" (statistic, df, p_value, effect_size, n).").toString();
    }
}
