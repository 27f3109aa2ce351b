package dev.sift.data.engine;

import dev.sift.data.LiveEngine;
import dev.sift.data.QueryException;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;
import dev.sift.data.Workspace;

import java.util.List;
import java.util.Map;

/**
 * What every engine shares: the connection options, the limits, and the cached schema ({@link EngineFile}) its
 * tables, row cap and bounded statistics are read from. An engine reads that schema itself ({@link #describe})
 * when a dataset is connected or refreshed, and is given it ({@link #attach}) when a workspace opens.
 */
abstract class CatalogEngine implements LiveEngine {
    protected final Map<String, String> options;
    protected final Workspace.Limits limits;
    private EngineFile file;
    private EngineSql renderer;

    CatalogEngine(Map<String, String> options, Workspace.Limits limits) {
        this.options = options;
        this.limits = limits;
    }

    final CatalogEngine attach(EngineFile file) {
        this.file = file;
        return this;
    }

    /** Reads the schema, row counts, keys, a sample value per column and the account's access from the engine. */
    abstract EngineFile describe(String storedUrl) throws QueryException;

    @Override
    public final List<TableInfo> tables() {
        return file == null ? List.of() : file.infos();
    }

    @Override
    public final synchronized String render(String duckdbSql) throws QueryException {
        if (renderer == null) { // the catalog's names and types are fixed while the engine is open
            renderer = new EngineSql(dialect(), tables());
        }
        return renderer.render(duckdbSql);
    }

    /** Closes what rendering holds (an in-memory DuckDB that parses); subclasses call it from {@link #close}. */
    protected final synchronized void closeRenderer() {
        if (renderer != null) {
            renderer.close();
            renderer = null;
        }
    }

    @Override
    public final int maxFrameRows() {
        return Integer.parseInt(options.getOrDefault("max_rows", "1000000"));
    }

    @Override
    public final TableStats stats() {
        return new SampledStats(this, file);
    }

    /** The names of the tables, for messages that list them ("Tables on Spark SQL: account, loan."). */
    protected final String tableNames() {
        return String.join(", ", tables().stream().map(TableInfo::name).toList());
    }
}
