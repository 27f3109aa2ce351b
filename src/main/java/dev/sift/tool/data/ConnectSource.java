package dev.sift.tool.data;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.source.AllowedSources;
import dev.sift.data.source.DatasetSources;
import dev.sift.data.source.SourceUrl;
import dev.sift.text.SchemaRenderer;
import dev.sift.tool.Arg;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolResult;
import dev.sift.tool.ToolSpec;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Makes a source the user named (a file, a dump folder, a URL) the session's dataset: it is built into a dataset
 * once (reused while its fingerprint holds, like {@code sift load}) and the workspace switches to it, so the rest of
 * the run and the session's later turns query its tables by their names, and the schema the planner sees is its;
 * the session's frames stay. What may be read is the operator's choice ({@link AllowedSources}); anything else is
 * refused with the setting named.
 */
public final class ConnectSource implements Tool<ConnectSource.Args> {
    private final DatasetStore store;
    private final AllowedSources allowed;

    public record Args(
            @Arg(value = "what the user named: a file path (CSV, Parquet, JSON, SQLite, DuckDB), a MongoDB dump folder,"
                    + " or a URL (postgresql://, mysql://, mongodb://, s3://)", aliases = {"location", "url", "path"})
            String source,
            @Arg(value = "name of the dataset it becomes (default: from the file or database name)",
                    required = false) String name) { }

    /** @param store where the connected source's dataset is built; @param allowed what may be read */
    public ConnectSource(DatasetStore store, AllowedSources allowed) {
        this.store = store;
        this.allowed = allowed;
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec("connect_source", "Connect a data source the user named (a file path or a database/S3 URL):"
                + " it becomes this session's dataset, and later calls query its tables by their names.",
                Args.class, "the new dataset's tables", Set.of("data"));
    }

    @Override
    public ToolResult run(Args args, ToolContext ctx) throws AllowedSources.RefusedException, QueryException, ToolCallException {
        if (ctx.workspace().dataset().onEngine()) {
            throw new ToolCallException("This session's dataset '" + ctx.workspace().dataset().name() + "' lives on an"
                    + " engine; a session on it cannot switch to another source. Start a new session for it.");
        }
        String location = allowed.check(args.source());
        String name = args.name() != null ? args.name() : DatasetSources.alias(location);
        if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new ToolCallException("Name '" + name + "' is not valid: use lowercase letters, digits and '_', starting"
                    + " with a letter (pass name=...).");
        }
        Dataset ds;
        try {
            DatasetBuilder builder = DatasetSources.of(List.of(location), allowed.cwd(), allowed.env());
            ds = store.load(name, builder, false, false, Progress.NONE);
        } catch (DatasetStore.DatasetExistsException e) {
            throw new ToolCallException((e.demo() ? "'" + name + "' is a demo dataset's name"
                    : "A dataset named '" + name + "' already exists, built from other sources")
                    + ": call connect_source again with another name=.");
        } catch (IllegalArgumentException e) { // the sources' one-line errors: not found, login failed, corrupt file
            throw new ToolCallException("Could not connect " + SourceUrl.maskText(args.source()) + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ToolCallException("Could not read " + SourceUrl.maskText(args.source()) + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("connect_source: building " + SourceUrl.maskText(args.source())
                    + " failed: " + e.getMessage(), e);
        }
        String before = ctx.workspace().dataset().name();
        List<TableInfo> tables = ctx.workspace().use(ds);
        return ToolResult.ok("Connected " + ds.description() + " as dataset '" + name + "', now this session's dataset"
                + (before.equals(name) ? "" : " in place of '" + before + "'") + ": " + tables.size()
                + (tables.size() == 1 ? " table" : " tables") + ", queried by name; frames made so far stay.\n"
                + SchemaRenderer.render(tables, 2400), tables);
    }
}
