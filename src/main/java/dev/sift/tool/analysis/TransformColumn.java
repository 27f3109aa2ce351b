package dev.sift.tool.analysis;

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
import dev.sift.text.ResultText;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Adds a derived column (a DuckDB expression over the source's columns) and keeps the result as a new
 * frame. The expression must be one expression: the statement {@code SELECT *, (expr) AS name FROM source}
 * is parsed and bound by the SQL guard before anything runs.
 */
public final class TransformColumn implements Tool<TransformColumn.Args> {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    public record Args(
            @Arg(value = "table or frame", aliases = {"table"}, kind = Arg.Kind.SOURCE) String source,
            @Arg(value = "DuckDB expression over the source's columns, e.g. \"amount / duration\" or"
                    + " \"strptime(d, '%d.%m.%Y')::DATE\"", aliases = {"expr", "formula"}) String expression,
            @Arg(value = "name of the new column", aliases = {"column", "as"}) String name,
            @Arg(value = "frame label for the result (default <source>_<name>)", required = false) String label) { }

    public record Result(String frame, String sql, String type, QueryResult head) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("transform_column", "Add a derived column computed by a DuckDB expression over the"
                + " source's columns and keep the result as a new frame (the expression is bind-checked first).",
                Args.class, "new frame", Set.of("analysis"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        TableInfo t = ctx.source(args.source());
        if (!NAME.matcher(args.name()).matches()) {
            throw new ToolCallException("Column name '" + args.name() + "' is not valid: use letters, digits and '_',"
                    + " starting with a letter, e.g. 'amount_per_month'.");
        }
        if (t.column(args.name()).isPresent()) {
            throw new ToolCallException(t.name() + " already has a column '" + t.column(args.name()).get().name()
                    + "'; choose another name for the derived column.");
        }
        String problem = ExpressionCheck.problem(args.expression());
        if (problem != null) {
            throw new ToolCallException("The expression " + problem + ": give one DuckDB expression over the columns of "
                    + t.name() + " (" + String.join(", ", t.columnNames()) + "), e.g. \"amount / duration\".");
        }
        String sql = "SELECT *, (" + args.expression() + ") AS " + Sql.quoteIdent(args.name()) + " FROM " + t.sqlName();
        try {
            ws.check(sql);
        } catch (QueryException e) {
            throw new ToolCallException("The expression does not work on " + t.name() + ": " + e.getMessage()
                    + " Columns of " + t.name() + ": " + String.join(", ", t.columnNames()) + ".");
        }
        String label = args.label() != null ? args.label() : RowsFrame.label(t.name(), args.name());
        QueryResult r = ws.saveFrame(label, sql);
        String type = r.columns().get(r.columns().size() - 1).type();
        QueryResult check = ws.trustedQuery("SELECT count(*) - count(" + Sql.quoteIdent(args.name()) + ") FROM frames."
                + Sql.quoteIdent(label), 1);
        long nulls = ((Number) check.scalar()).longValue();
        ctx.addEvidence(Evidence.of(r, label));
        String summary = "Added " + args.name() + " " + type + " = " + args.expression() + " to " + t.name() + "; saved as frames."
                + label + " (" + r.rowCount() + " rows" + (nulls > 0 ? ", " + nulls + " NULL values of " + args.name() : "")
                + ").\n" + ResultText.render(r, 5);
        return ToolResult.ok(summary, new Result(label, sql, type, r.head(20)), Map.of("row_count", r.rowCount()));
    }
}
