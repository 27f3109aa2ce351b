package dev.sift.tool.ml;

import dev.sift.data.FixableException;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.SqlDialect;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.ml.Drift;
import dev.sift.data.Numbers;
import dev.sift.ml.MlException;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Per-column distribution shift between a reference and a current table or frame (PSI for every column,
 * KS for numbers), flagged above thresholds; saves frame {@code drift}.
 */
public final class CheckDrift implements Tool<CheckDrift.Args> {

    public record Args(
            @Arg(value = "table or frame of the reference data (e.g. what a model was trained on)",
                    aliases = {"baseline", "train"}) String reference,
            @Arg(value = "table or frame of the current data", aliases = {"new", "target_frame"}) String current,
            @Arg(value = "columns to compare (default: all shared columns except ids)", required = false) List<String> columns) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("check_drift", "Compare the distributions of the shared columns of two tables or frames"
                + " (PSI and Kolmogorov–Smirnov) and flag the columns that shifted.", Args.class, "drift per column",
                Set.of("ml"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws FixableException, InterruptedException {
        Workspace ws = ctx.workspace();
        TableInfo ref = MlSupport.table(ws, args.reference(), "reference");
        TableInfo cur = MlSupport.table(ws, args.current(), "current");
        for (TableInfo t : List.of(ref, cur)) { // its two sides are read whole, in DuckDB's SQL
            if (t.kind() == TableInfo.Kind.TABLE && ws.dialect() != SqlDialect.DUCKDB) {
                throw new MlException("check_drift compares frames on a live dataset: " + t.name() + " is a table on "
                        + ws.dialect().label() + ". Bring the rows to compare back as frames with run_sql and a label"
                        + " (e.g. SELECT * FROM " + t.name() + " WHERE … ), then compare the frames.");
            }
        }
        List<Drift.ColumnDrift> results = compare(ws, ref, cur, columns(ref, cur, args.columns()));
        long flagged = results.stream().filter(Drift.ColumnDrift::flagged).count();
        return ToolResult.ok(summary(ref, cur, results), results, Map.of("flagged", flagged));
    }

    /** The columns to compare: those given (each must be in both), else every shared column but ids. */
    private static List<String> columns(TableInfo ref, TableInfo cur, List<String> given) throws MlException {
        List<String> columns = new ArrayList<>();
        if (given != null) {
            for (String c : given) {
                if (ref.column(c).isEmpty() || cur.column(c).isEmpty()) {
                    throw new MlException("Column '" + c + "' is not in both " + ref.name() + " and " + cur.name()
                            + ". Shared columns: " + String.join(", ", shared(ref, cur)) + ".");
                }
                columns.add(ref.column(c).orElseThrow().name());
            }
        } else {
            for (String c : shared(ref, cur)) {
                String lower = c.toLowerCase(Locale.ROOT);
                if (!lower.equals("id") && !lower.endsWith("_id")) {
                    columns.add(c);
                }
            }
        }
        if (columns.isEmpty()) {
            throw new MlException(ref.name() + " and " + cur.name() + " share no columns to compare (besides ids).");
        }
        return columns;
    }

    /** Each column's drift from {@code ref} to {@code cur} (dates as days), saved as frame {@code drift}. */
    static List<Drift.ColumnDrift> compare(Workspace ws, TableInfo ref, TableInfo cur, List<String> columns)
            throws FixableException {
        List<Drift.ColumnDrift> results = new ArrayList<>();
        for (String c : columns) {
            String type = ref.column(c).orElseThrow().type().toUpperCase(Locale.ROOT);
            if (MlSupport.isNumericType(type) || MlSupport.isDateType(type)) {
                String expr = MlSupport.isDateType(type)
                        ? "CAST(epoch(CAST(" + Sql.quoteIdent(c) + " AS TIMESTAMP)) / 86400 AS DOUBLE)"
                        : "CAST(" + Sql.quoteIdent(c) + " AS DOUBLE)";
                results.add(Drift.numeric(c, numbers(ws, ref, expr), numbers(ws, cur, expr)));
            } else {
                results.add(Drift.categorical(c, texts(ws, ref, c), texts(ws, cur, c)));
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (Drift.ColumnDrift d : results) {
            rows.add(new Object[] {d.column(), d.kind(), nan(d.psi()), nan(d.ks()), nan(d.ksP()), d.flagged(), d.detail()});
        }
        ws.writeFrame("drift", List.of(new QueryResult.Column("column_name", "VARCHAR"),
                new QueryResult.Column("kind", "VARCHAR"), new QueryResult.Column("psi", "DOUBLE"),
                new QueryResult.Column("ks_d", "DOUBLE"), new QueryResult.Column("ks_p", "DOUBLE"),
                new QueryResult.Column("flagged", "BOOLEAN"), new QueryResult.Column("detail", "VARCHAR")), rows);
        return results;
    }

    private static String summary(TableInfo ref, TableInfo cur, List<Drift.ColumnDrift> results) {
        long flagged = results.stream().filter(Drift.ColumnDrift::flagged).count();
        StringBuilder b = new StringBuilder("Drift from ").append(ref.name()).append(" (").append(ref.rows())
                .append(" rows) to ").append(cur.name()).append(" (").append(cur.rows()).append(" rows): ")
                .append(flagged).append(" of ").append(results.size()).append(" columns flagged (").append(RULE)
                .append("); saved as frame drift.");
        results.stream().sorted((a, c) -> Double.compare(c.psi(), a.psi())).forEach(d -> b.append('\n')
                .append(d.flagged() ? "FLAGGED " : "ok ").append(line(d)));
        return b.toString();
    }

    /** When a column is flagged. */
    static final String RULE = "PSI ≥ " + Drift.PSI_FLAG + ", or KS p < " + Drift.KS_P_FLAG + " with D ≥ "
            + Drift.KS_D_FLAG;

    /** One column's figures, e.g. "amount: PSI 0.310, KS D 0.210 (p 0.0001), …". */
    static String line(Drift.ColumnDrift d) {
        return d.column() + ": PSI " + Numbers.fixed(d.psi(), 3) + (Double.isNaN(d.ks()) ? ""
                : ", KS D " + Numbers.fixed(d.ks(), 3) + " (p " + Numbers.fixed(d.ksP(), 4) + ")") + ", " + d.detail();
    }

    private static Double nan(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static List<String> shared(TableInfo a, TableInfo b) {
        return a.columnNames().stream().filter(c -> b.column(c).isPresent()).toList();
    }

    private static double[] numbers(Workspace ws, TableInfo t, String expr) throws FixableException {
        return ws.trustedRead("SELECT " + expr + " FROM " + t.sqlName(), rs -> {
            List<Double> out = new ArrayList<>();
            while (rs.next()) {
                double v = rs.getDouble(1);
                out.add(rs.wasNull() ? Double.NaN : v);
            }
            return out.stream().mapToDouble(Double::doubleValue).toArray();
        });
    }

    private static String[] texts(Workspace ws, TableInfo t, String column) throws FixableException {
        return ws.trustedRead("SELECT CAST(" + Sql.quoteIdent(column) + " AS VARCHAR) FROM " + t.sqlName(), rs -> {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out.toArray(new String[0]);
        });
    }
}
