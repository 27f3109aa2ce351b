package dev.sift.tool.data;

import dev.sift.text.SchemaRenderer;

import dev.sift.data.DistinctCount;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.List;
import java.util.Set;

/** Shows the schema: every table and frame in brief, or one table with null and distinct counts per column. */
public final class InspectData implements Tool<InspectData.Args> {
    static final int OVERVIEW_BUDGET = 3000;

    public record Args(@Arg(value = "a table or frame to show in detail; omit for all tables", required = false,
            aliases = {"source", "table_name"}, kind = Arg.Kind.SOURCE) String table) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("inspect_data", "Tables and frames: column types, row counts, a sample value each;"
                + " with a table, also null and distinct counts.", Args.class,
                "schema text", Set.of("data"));
    }

    @Override
    public int summaryCap() {
        return OVERVIEW_BUDGET + 200;
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException {
        if (args.table() == null) {
            List<TableInfo> tables = ctx.workspace().tables();
            return ToolResult.ok(SchemaRenderer.render(tables, OVERVIEW_BUDGET), tables);
        }
        TableInfo t = ctx.source(args.table());
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            String c = Sql.quoteIdent(t.columns().get(i).name());
            sql.append(i == 0 ? "" : ", ").append("count(*) - count(").append(c).append("), ")
                    .append(DistinctCount.sql(c, t.rows()));
        }
        sql.append(" FROM ").append(t.sqlName());
        QueryResult stats = ctx.workspace().trustedQuery(sql.toString(), 1);
        StringBuilder out = new StringBuilder(SchemaRenderer.DATA_NOTICE).append('\n')
                .append(t.kind() == TableInfo.Kind.FRAME ? "frame frames." : "table ").append(t.name())
                .append(" (").append(t.rows()).append(" rows)\n");
        List<Object> row = stats.rows().get(0);
        for (int i = 0; i < t.columns().size(); i++) {
            var c = t.columns().get(i);
            out.append("- ").append(c.name()).append(' ').append(c.type()).append(": ").append(row.get(2 * i))
                    .append(" nulls, ")
                    .append(DistinctCount.describe(((Number) row.get(2 * i + 1)).longValue(), t.rows()));
            if (c.sample() != null) {
                out.append(", e.g. ").append(SchemaRenderer.sample(c));
            }
            out.append(SchemaRenderer.facts(c));
            out.append('\n');
        }
        return ToolResult.ok(out.toString().trim(), t);
    }
}
