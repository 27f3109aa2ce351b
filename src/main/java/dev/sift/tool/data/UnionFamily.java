package dev.sift.tool.data;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.TableFamilies;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.text.Evidence;
import dev.sift.text.ResultText;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Unions a family of same-shape tables ({@link TableFamilies}: {@code usage_2023_01} … {@code usage_2024_12}, or
 * thousands of ticker tables) into one frame with the varying part of each member's name as column {@code part}, so
 * one query covers them all instead of a hand-written UNION of every table.
 */
public final class UnionFamily implements Tool<UnionFamily.Args> {
    public record Args(
            @Arg(value = "the family as the schema shows it, e.g. usage_{part}", aliases = {"name", "table"}) String family,
            @Arg(value = "only these parts (default all), e.g. [\"2023_01\", \"2023_02\"]", required = false)
            List<String> parts,
            @Arg(value = "frame label (default family_<stem>)", required = false) String label) {
    }

    /** What was unioned: members, rows and the frame. */
    public record Result(String family, int members, long rows, String frame) { }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("union_family", "Union a family of same-shape tables (shown in the schema as one line,"
                + " name_{part}) into one frame with column part (the varying part of each table's name); optional parts"
                + " to keep. Query the frame with run_sql instead of writing a UNION of every table.", Args.class,
                "one frame of a table family", Set.of("data"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws QueryException, ToolCallException {
        Workspace ws = ctx.workspace();
        List<TableInfo> tables = ws.datasetTables();
        TableFamilies.Family f = TableFamilies.named(tables, args.family().strip()).orElseThrow(() ->
                new ToolCallException("union_family: no family '" + args.family() + "'. Families of this dataset: "
                        + String.join(", ", TableFamilies.of(tables).stream().map(TableFamilies.Family::name).toList())
                        + " (none means no tables share one shape)."));
        List<TableInfo> chosen = new ArrayList<>();
        List<String> unknown = new ArrayList<>(args.parts() == null ? List.of() : args.parts());
        for (TableInfo t : f.members()) {
            if (args.parts() == null || args.parts().isEmpty() || args.parts().contains(f.part(t))) {
                chosen.add(t);
                unknown.remove(f.part(t));
            }
        }
        if (!unknown.isEmpty() || chosen.isEmpty()) {
            throw new ToolCallException("union_family: " + f.name() + " has no part " + String.join(", ", unknown)
                    + ". Its parts run " + f.part(f.members().get(0)) + " … "
                    + f.part(f.members().get(f.members().size() - 1)) + " (" + f.members().size() + " tables).");
        }
        String stem = (f.prefix() + f.suffix()).replaceAll("[^A-Za-z0-9]+", "_").replaceAll("^_|_$", "")
                .toLowerCase(Locale.ROOT);
        String frame = args.label() != null && !args.label().isBlank() ? args.label()
                : "family_" + (stem.isEmpty() ? "tables" : stem);
        ws.saveTrustedFrame(frame, f.unionSql(chosen));
        QueryResult counts = ws.trustedQuery("SELECT part, count(*) AS n FROM frames." + dev.sift.data.Sql.quoteIdent(frame)
                + " GROUP BY part ORDER BY part LIMIT " + Evidence.MAX_ROWS, Evidence.MAX_ROWS);
        long rows = ((Number) ws.trustedQuery("SELECT count(*) FROM frames." + dev.sift.data.Sql.quoteIdent(frame), 1)
                .scalar()).longValue();
        ctx.addEvidence(Evidence.of(counts, frame));
        Result r = new Result(f.name(), chosen.size(), rows, frame);
        return ToolResult.ok(String.format(Locale.ROOT, "Unioned %,d of the %,d tables of %s: %,d rows, kept as"
                + " frames.%s with column part (the varying part of each table's name) before the shared columns.%n"
                + "Rows per part:%n%s", chosen.size(), f.members().size(), f.name(), rows, frame,
                ResultText.render(counts, 8)), r);
    }
}
