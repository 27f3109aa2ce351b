package dev.sift.data;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The engine a live dataset's tables stay on (PostgreSQL, Spark SQL): the seam between {@link Workspace} and
 * {@code dev.sift.data.engine}. A workspace on a live dataset sends queries over dataset tables here and keeps
 * what comes back as frames in its own DuckDB, so everything above the data layer sees one {@link Workspace}.
 *
 * <p>Contract: {@link #check} parses and binds on the engine without running and accepts only a single read
 * query; {@link #run} runs read-only (a read-only transaction or session), under the statement timeout, fetches
 * at most the given number of rows and is cancelled on the engine when the time is up. Messages are written for
 * the planner and never contain a secret.
 */
public interface LiveEngine extends AutoCloseable {

    /** The dialect the engine speaks; the prompt names it and generated SQL follows it. */
    SqlDialect dialect();

    /** The dataset's tables from the engine's cached metadata (types as DuckDB names, a sample value each). */
    List<TableInfo> tables();

    /** Refuses anything but one read query, or SQL that does not parse or bind on the engine; runs nothing. */
    void check(String sql) throws QueryException;

    /**
     * Runs a checked query read-only and time-limited, handing the columns (as DuckDB types) and then at most
     * {@code maxRows} rows to {@code sink}. Values are Long, Double, Boolean, String, LocalDate, LocalDateTime
     * or null. Returns whether the result had more rows than were handed over. Text values are cut on the engine to
     * the limits' cell budget ({@link Workspace.Limits#cellBytes}), and what was cut goes to {@link RowSink#cuts}.
     */
    boolean run(String sql, int maxRows, RowSink sink) throws QueryException;

    /**
     * The engine's SQL for a query Sift wrote itself in DuckDB's dialect, read by DuckDB's own parser: names as the
     * engine spells them, functions in its form. Refuses (INVALID, naming the construct) what has no form with the
     * same meaning on the engine; runs nothing.
     */
    String render(String duckdbSql) throws QueryException;

    /** The row count of a query's result on the engine (time-limited); -1 when it could not be counted in time. */
    long count(String sql);

    /** The most rows a result may have to come back as a frame; a larger one stays on the engine. */
    default int maxFrameRows() {
        return 1_000_000;
    }

    /** Key, value and containment facts from bounded queries on the engine, for the automatic knowledge graph. */
    TableStats stats();

    @Override
    void close();

    /** Receives one result. */
    interface RowSink {
        void columns(List<QueryResult.Column> columns) throws QueryException;

        void row(Object[] values) throws QueryException;

        /** What the result's byte budget cut on the engine, once the rows are handed over. */
        default void cuts(CellCuts cuts) throws QueryException {
        }
    }

    /** Opens the engine of a live dataset; implemented in {@code dev.sift.data.engine}, found by ServiceLoader. */
    interface Connector {
        /** The engine of {@code dataset}, or empty when this connector does not serve its URL. */
        Optional<LiveEngine> open(Dataset dataset, Workspace.Limits limits, Map<String, String> env);
    }

    /** Opens the engine of a live dataset through the connector that serves it. */
    static LiveEngine open(Dataset dataset, Workspace.Limits limits, Map<String, String> env) {
        for (Connector c : ServiceLoader.load(Connector.class, LiveEngine.class.getClassLoader())) {
            Optional<LiveEngine> engine = c.open(dataset, limits, env);
            if (engine.isPresent()) {
                return engine.get();
            }
        }
        throw new IllegalStateException("No engine connector serves live dataset '" + dataset.name() + "' ("
                + dataset.live() + ")");
    }
}
