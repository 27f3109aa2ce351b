package dev.sift.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One session's view of a dataset: an in-memory DuckDB that attaches the dataset file READ_ONLY as
 * {@code data} and owns a {@code frames} schema for results, then locks itself down (no file or network
 * access, no extension loading, locked configuration, thread and memory limits). Many workspaces may
 * attach the same dataset file at once; each sees only its own frames. Not thread-safe: one run at a time.
 *
 * <p>On a live dataset ({@link Dataset#onEngine()}) nothing is attached: the dataset tables stay on their
 * {@link LiveEngine}, a query over them runs there (the engine's guard, read-only, time-limited, row cap) and a
 * labelled result comes back as a frame here, so later tools work on frames as with any dataset. A query over
 * frames only runs in this DuckDB; one query cannot mix the two.
 */
public final class Workspace implements AutoCloseable {
    private static final Pattern LABEL = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    /**
     * Resource limits of one workspace. {@code cellBytes} and {@code resultBytes} are the byte budget of a result
     * ({@link ResultBudget}): the most one cell brings into Java, and the most the rows of one result hold.
     */
    public record Limits(int threads, String memoryLimit, Duration queryTimeout, int fetchRows, long cellBytes,
                         long resultBytes) {
        public static final long DEFAULT_CELL_BYTES = 64 * 1024;
        public static final long DEFAULT_RESULT_BYTES = 128L * 1024 * 1024;

        public Limits {
            if (cellBytes < 1 || resultBytes < 1) {
                throw new IllegalArgumentException("The byte budget of a result must be positive: cell " + cellBytes
                        + " bytes, result " + resultBytes + " bytes");
            }
        }

        /** Limits with the default byte budget. */
        public Limits(int threads, String memoryLimit, Duration queryTimeout, int fetchRows) {
            this(threads, memoryLimit, queryTimeout, fetchRows, DEFAULT_CELL_BYTES, DEFAULT_RESULT_BYTES);
        }

        public static Limits defaults() {
            return new Limits(2, "2GB", Duration.ofSeconds(30), 1000);
        }

        public Limits withQueryTimeout(Duration timeout) {
            return new Limits(threads, memoryLimit, timeout, fetchRows, cellBytes, resultBytes);
        }

        public Limits withFetchRows(int rows) {
            return new Limits(threads, memoryLimit, queryTimeout, rows, cellBytes, resultBytes);
        }

        public Limits withBudget(long cell, long result) {
            return new Limits(threads, memoryLimit, queryTimeout, fetchRows, cell, result);
        }
    }

    /** DuckDB's parse-tree depth limit (default 1000): deep expressions bind for minutes, deeper ones crash. */
    static final int MAX_EXPRESSION_DEPTH = 100;

    /** The session's dataset: the one it opened on, or the one {@link #use} switched to. */
    private volatile Dataset dataset;
    private final Limits limits;
    private final Connection connection;
    private final SqlGuard guard;
    private final QueryGate gate;
    private final boolean ownsGate;
    private final Path spill;
    /** Where the dataset's described tables are kept: shared by the application's workspaces, or this one's. */
    private final DatasetTables datasetTables;
    /** This workspace's view of the dataset's tables (their facts bound to its connection), made on first use. */
    private volatile List<TableInfo> ownTables;
    /** Where the dataset tables live when they are not attached: null for a DuckDB dataset. */
    private final LiveEngine live;
    /** Routing and frames for the live engine; null for a DuckDB dataset. */
    private final EngineFrames engine;

    private Workspace(Dataset dataset, Limits limits, Connection connection, QueryGate gate, boolean ownsGate,
            Path spill, LiveEngine live, DatasetTables datasetTables, SqlParser parser) {
        this.dataset = dataset;
        this.limits = limits;
        this.connection = connection;
        this.guard = new SqlGuard(connection, limits.queryTimeout(), parser);
        this.failures = new QueryFailures(limits);
        this.budget = new ResultBudget(limits.cellBytes(), limits.resultBytes(), new StoredLengths(connection,
                () -> datasetTables.stored(dataset())));
        this.watchBytes = 2 * QueryGate.parseBytes(limits.memoryLimit());
        this.gate = gate;
        this.ownsGate = ownsGate;
        this.spill = spill;
        this.live = live;
        this.engine = live == null ? null : new EngineFrames(this, connection, live);
        this.datasetTables = datasetTables;
    }

    private final QueryFailures failures;
    private final ResultBudget budget;
    /** The process growth past which the memory watch stops a query (see {@link #admit}). */
    private final long watchBytes;
    private volatile List<TableInfo> framesCache = List.of(); // frames start empty; only runTimed changes them
    /** Bumped by every statement that may change frames, so a description raced by one is not cached. */
    private final java.util.concurrent.atomic.AtomicLong framesVersion = new java.util.concurrent.atomic.AtomicLong();
    /** The SQL each frame was made from (frames written from values have none): a saved model's card records it. */
    private final Map<String, String> definitions = new java.util.concurrent.ConcurrentHashMap<>();

    /** A workspace with a gate of its own that describes the dataset for itself; no settings (tests, commands). */
    public static Workspace open(Dataset dataset, Limits limits) {
        return open(dataset, limits, null, new DatasetTables(1));
    }

    /**
     * As below, with no settings (a live dataset's engine then finds a password only in a credentials file), and
     * parsing on the workspace's own connection.
     */
    public static Workspace open(Dataset dataset, Limits limits, QueryGate gate, DatasetTables tables) {
        return open(dataset, limits, gate, tables, Map.of(), null);
    }

    /**
     * A workspace whose queries pass {@code gate} (shared by a server's workspaces: the cap on concurrent
     * queries); {@code null} gives it a gate of its own. The dataset's described tables come from (and go to)
     * {@code tables}; a live dataset's engine reads its credentials from {@code settings} ({@code SiftConfig.settings()}).
     * Spilling goes to a private temporary folder with a random name, removed on close; the agent's SQL cannot
     * name it (settings are not readable through the guard). The guard parses on {@code parser} (shared by the
     * process's workspaces), or on the workspace's own connection when it is null.
     */
    public static Workspace open(Dataset dataset, Limits limits, QueryGate gate, DatasetTables tables,
                                 Map<String, String> settings, SqlParser parser) {
        Connection c = null;
        Path spill = null;
        // a live dataset's tables stay on their engine: nothing is attached
        LiveEngine live = dataset.onEngine() ? LiveEngine.open(dataset, limits, settings) : null;
        try {
            spill = Files.createTempDirectory("sift-spill-");
            c = SessionDuckDb.open(dataset, limits, spill, live != null);
            boolean own = gate == null;
            return new Workspace(dataset, limits, c, own ? new QueryGate(1) : gate, own, spill, live, tables,
                    parser);
        } catch (SQLException | IOException e) {
            closeQuietly(c);
            removeSpill(spill);
            if (live != null) {
                live.close();
            }
            throw new IllegalStateException("Could not open dataset '" + dataset.name() + "' from " + dataset.file()
                    + ": " + (e instanceof SQLException s ? SqlGuard.clean(s) : e.getMessage()), e);
        }
    }

    public Dataset dataset() {
        return dataset;
    }

    public Limits limits() {
        return limits;
    }

    public SqlGuard guard() {
        return guard;
    }

    /** The dialect of the dataset tables: DuckDB, or the live engine's. */
    public SqlDialect dialect() {
        return live == null ? SqlDialect.DUCKDB : live.dialect();
    }

    /** The most rows an engine result may have to come back as a frame; 0 for a DuckDB dataset (nothing comes back). */
    public int maxFrameRows() {
        return live == null ? 0 : live.maxFrameRows();
    }

    /** Key, value and containment facts about the dataset tables, computed where they live. */
    public TableStats stats() {
        return live == null ? new DuckDbStats(this) : live.stats();
    }

    /**
     * Checks agent SQL without running it, where it would run: the dataset's guard (DuckDB), or the live
     * engine's guard for SQL over engine tables.
     */
    public void check(String sql) throws QueryException {
        if (onEngine(sql)) {
            live.check(sql);
        } else {
            guard.check(sql);
        }
    }

    /** Checks and runs one read-only query from the planner; fetches at most {@code fetchRows} rows. */
    public QueryResult query(String sql) throws QueryException {
        if (onEngine(sql)) {
            live.check(sql);
            return engine.fetch(sql, limits.fetchRows());
        }
        guard.check(sql);
        return execute(sql, limits.fetchRows());
    }

    /** Receives a streamed result: the columns once, then each row as it is read. */
    public interface RowSink {
        void columns(List<QueryResult.Column> columns) throws java.io.IOException;

        void row(List<Object> row) throws java.io.IOException;

        /** What the result's byte budget cut, once the rows are written. */
        default void cuts(CellCuts cuts) throws java.io.IOException {
        }
    }

    /**
     * Checks and runs one read-only query, handing at most {@code maxRows} rows to {@code sink} as they are read
     * (nothing is held, so any number of rows fits in memory). Returns the full row count: the rows written, or
     * when more were left unread their count ({@code -1} when counting took too long).
     */
    public long stream(String sql, long maxRows, RowSink sink) throws QueryException, java.io.IOException {
        if (onEngine(sql)) {
            live.check(sql);
            return engine.stream(sql, maxRows, sink);
        }
        guard.check(sql);
        QueryGate.Ticket ticket = null;
        boolean more = false;
        try (ResultBudget.Prepared run = budget.prepare(connection, guard.takeBound(sql), sql)) {
            PreparedStatement st = run.statement();
            st.setQueryTimeout(QueryFailures.seconds(limits));
            st.setFetchSize(2048);
            ticket = admit(st, false);
            try (ResultSet rs = st.executeQuery()) {
                sink.columns(run.columns());
                long written = 0;
                while (rs.next()) {
                    if (written == maxRows) {
                        more = true;
                        break;
                    }
                    sink.row(run.reading().row(rs));
                    written++;
                }
                sink.cuts(run.reading().cuts());
                if (!more) {
                    return written;
                }
            }
        } catch (SQLException e) {
            throw failures.of(e, ticket);
        } catch (RuntimeException e) {
            throw QueryFailures.tooLargeOr(e);
        } catch (OutOfMemoryError e) {
            throw QueryFailures.fetchTooLarge();
        } finally {
            release(ticket);
        }
        return countRows(sql);
    }

    /**
     * Checks and runs a query and keeps its whole result as frame {@code label} (replacing a frame of that
     * name), queryable later as {@code frames.label} or {@code label}. Returns the first rows and the count.
     */
    public QueryResult saveFrame(String label, String sql) throws QueryException {
        checkLabel(label);
        if (onEngine(sql)) {
            live.check(sql);
            return engine.store(label, sql);
        }
        guard.check(sql);
        return storeFrame(label, sql);
    }

    /**
     * Keeps the result of SQL that Sift itself wrote (over validated names; e.g. a PIVOT) as frame
     * {@code label}. Like {@link #trustedQuery} it skips the guard's parse, not the lock-down.
     */
    public QueryResult saveTrustedFrame(String label, String sql) throws QueryException {
        checkLabel(label);
        String onEngine = engine == null ? null : engine.rendered(sql);
        return onEngine != null ? engine.store(label, onEngine) : storeFrame(label, sql);
    }

    private QueryResult storeFrame(String label, String sql) throws QueryException {
        long start = System.nanoTime();
        runTimed("CREATE OR REPLACE TABLE memory.frames." + Sql.quoteIdent(label) + " AS " + sql);
        definitions.put(label, sql);
        QueryResult stored = execute("SELECT * FROM memory.frames." + Sql.quoteIdent(label), limits.fetchRows());
        return new QueryResult(sql, stored.columns(), stored.rows(), stored.rowCount(), stored.truncated(),
                (System.nanoTime() - start) / 1_000_000, stored.cuts());
    }

    /**
     * Runs SQL that Sift itself wrote (tools' own queries over validated names; DuckDB's dialect, rendered for a live
     * engine's tables). Still read-only at the database level and time-limited, but not parsed by the guard, so it may
     * use any DuckDB statement that reads (e.g. SUMMARIZE, PIVOT).
     */
    public QueryResult trustedQuery(String sql, int maxRows) throws QueryException {
        String onEngine = engine == null ? null : engine.rendered(sql);
        return onEngine != null ? engine.fetch(onEngine, maxRows) : execute(sql, maxRows);
    }

    /** SQL Sift wrote in DuckDB's dialect as it is sent: as written here, rendered for a live engine's tables. */
    public String render(String sql) throws QueryException {
        return engine == null ? sql : engine.render(sql);
    }

    /** Reads the whole result of a query Sift wrote itself (e.g. ML features into arrays), time-limited. */
    public <T> T trustedRead(String sql, ResultReader<T> reader) throws QueryException {
        String onEngine = engine == null ? null : engine.rendered(sql);
        if (onEngine != null) { // the rows come over as a scratch table, read here like a frame
            String scratch = "_engine_read";
            engine.pull(scratch, onEngine, live.maxFrameRows());
            try {
                return readLocal("SELECT * FROM memory.frames." + Sql.quoteIdent(scratch), reader);
            } finally {
                runTimed("DROP TABLE IF EXISTS memory.frames." + Sql.quoteIdent(scratch));
            }
        }
        return readLocal(sql, reader);
    }

    private <T> T readLocal(String sql, ResultReader<T> reader) throws QueryException {
        QueryGate.Ticket ticket = null;
        try (Statement st = connection.createStatement()) {
            st.setQueryTimeout(QueryFailures.seconds(limits));
            ticket = admit(st, false);
            try (ResultSet rs = st.executeQuery(sql)) {
                return reader.read(rs);
            }
        } catch (SQLException e) {
            throw failures.of(e, ticket);
        } finally {
            release(ticket);
        }
    }

    /** Reads a JDBC result into whatever a caller needs. */
    @FunctionalInterface
    public interface ResultReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /**
     * Keeps values Sift computed outside SQL (predictions, SHAP values, clusters) as frame {@code label},
     * replacing a frame of that name. {@code types} are DuckDB types of the columns; values are appended
     * as given (String, Long/Integer, Double, Boolean or null).
     */
    public void writeFrame(String label, List<QueryResult.Column> columns, List<Object[]> rows) throws QueryException {
        checkLabel(label);
        StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE memory.frames.").append(Sql.quoteIdent(label)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            ddl.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(columns.get(i).name())).append(' ').append(columns.get(i).type());
        }
        runTimed(ddl.append(')').toString());
        try (var appender = connection.unwrap(org.duckdb.DuckDBConnection.class).createAppender("memory", "frames", label)) {
            for (Object[] row : rows) {
                appender.beginRow();
                for (Object v : row) {
                    JdbcValues.append(appender, v);
                }
                appender.endRow();
            }
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Whether the planner's SQL goes to the live engine (see {@link EngineFrames#routes}); never for a DuckDB dataset. */
    private boolean onEngine(String sql) throws QueryException {
        return engine != null && engine.routes(sql, true);
    }

    private void checkLabel(String label) throws QueryException {
        if (label == null || !LABEL.matcher(label).matches()) {
            throw new QueryException(QueryException.Kind.INVALID, "Frame label '" + label + "' is not valid: use"
                    + " lowercase letters, digits and '_' (at most 63), starting with a letter, e.g. 'top_loans'.");
        }
        if (datasetTables().stream().anyMatch(t -> t.name().equalsIgnoreCase(label))) {
            throw new QueryException(QueryException.Kind.INVALID, "Frame label '" + label
                    + "' is the name of a dataset table; choose another label, e.g. '" + label + "_result'.");
        }
        definitions.remove(label);
    }

    /** The SQL frame {@code label} was made from, when it was made from SQL in this workspace. */
    public Optional<String> frameSql(String label) {
        return Optional.ofNullable(definitions.get(label));
    }

    /** Runs a statement that may change frames (the only way one can); drops the cached frame list. */
    void runTimed(String sql) throws QueryException {
        framesVersion.incrementAndGet();
        framesCache = null;
        guard.forgetBound();
        QueryGate.Ticket ticket = null;
        try (Statement st = connection.createStatement()) {
            ticket = admit(st, true);
            st.execute(sql);
        } catch (SQLException e) {
            throw failures.of(e, ticket);
        } finally {
            release(ticket);
            framesVersion.incrementAndGet();
            framesCache = null;
        }
    }

    QueryResult execute(String sql, int maxRows) throws QueryException {
        long start = System.nanoTime();
        List<QueryResult.Column> columns = List.of();
        List<List<Object>> rows = new ArrayList<>();
        CellCuts cuts;
        boolean more;
        QueryGate.Ticket ticket = null;
        // the statement the check bound moments ago runs, unless a wide column needs the query wrapped
        try (ResultBudget.Prepared run = budget.prepare(connection, guard.takeBound(sql), sql)) {
            PreparedStatement st = run.statement();
            ticket = admit(st, true);
            columns = run.columns();
            try (ResultSet rs = st.executeQuery()) {
                while ((more = rs.next()) && rows.size() < maxRows) {
                    List<Object> row = run.reading().row(rs);
                    if (!run.reading().keep(row, rows.size())) {
                        break; // the rows kept reached the result's budget: the rest stay unread, as stated
                    }
                    rows.add(row);
                }
            }
            cuts = run.reading().cuts();
        } catch (SQLException e) {
            throw failures.of(e, ticket);
        } catch (RuntimeException e) {
            throw QueryFailures.tooLargeOr(e);
        } catch (OutOfMemoryError e) {
            rows.clear(); // what was copied so far goes before the message is written
            throw QueryFailures.fetchTooLarge();
        } finally {
            release(ticket);
        }
        long count = more ? countRows(sql) : rows.size();
        return new QueryResult(sql, columns, rows, count, more, (System.nanoTime() - start) / 1_000_000, cuts);
    }

    /** The full row count of a result larger than the fetch cap; -1 when counting takes too long. */
    private long countRows(String sql) {
        try (Statement st = connection.createStatement()) {
            st.setQueryTimeout(QueryFailures.seconds(limits));
            // without the trailing ';' and comments, which would swallow or break the closing parenthesis
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + SqlGuard.withoutTerminator(sql) + "\n)")) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    /**
     * Waits for the gate (up to the time limit) and starts the memory watch on {@code st}; {@code timed}: the gate also
     * stops it at the time limit. A result read at its reader's pace keeps JDBC's limit, which covers the run only.
     */
    private QueryGate.Ticket admit(Statement st, boolean timed) throws QueryException {
        guard.awaitIdle();
        Duration limit = timed ? Duration.ofSeconds(QueryFailures.seconds(limits)) : null; // whole seconds, as JDBC's
        // DuckDB keeps its buffers under the limit; the process may grow by twice that (allocations outside
        // the buffer pool, fetched rows) before the watch stops the query
        return gate.admit(st, watchBytes, limits.queryTimeout(), limit);
    }

    private static void release(QueryGate.Ticket ticket) {
        if (ticket != null) {
            ticket.close();
        }
    }

    QueryException failure(SQLException e) {
        return failures.of(e);
    }

    /** Dataset tables (schema, row counts and one sample value per column), then this session's frames. */
    public List<TableInfo> tables() {
        List<TableInfo> all = new ArrayList<>(datasetTables());
        all.addAll(frames());
        return all;
    }

    /**
     * A table or frame by name; in a dataset of several sources a table's name is {@code schema.table}, and its
     * bare name finds it too when no other schema has a table of that name.
     */
    public Optional<TableInfo> table(String name) {
        String bare = name.startsWith("frames.") ? name.substring(7) : name;
        List<TableInfo> candidates = name.startsWith("frames.") ? frames() : tables();
        Optional<TableInfo> exact = candidates.stream().filter(t -> t.name().equalsIgnoreCase(bare)).findFirst();
        if (exact.isPresent() || name.startsWith("frames.")) {
            return exact;
        }
        List<TableInfo> byBare = datasetTables().stream().filter(t -> t.bareName().equalsIgnoreCase(bare)).toList();
        return byBare.size() == 1 ? Optional.of(byBare.get(0)) : Optional.empty();
    }

    /** The dataset's tables: {@code main}'s by name, then those of each source's schema as {@code schema.table}. */
    public List<TableInfo> datasetTables() {
        if (live != null) {
            return live.tables();
        }
        List<TableInfo> bound = ownTables;
        Dataset ds = dataset;
        if (bound == null) { // described once per dataset; column facts read through this connection when first asked for
            bound = TableDescriber.withLazyFacts(datasetTables.of(ds, () -> TablesRecord.readOrDescribe(ds, () -> {
                List<TableInfo> out = new ArrayList<>(TableDescriber.describe(connection, "data", "main", TableInfo.Kind.TABLE));
                for (String schema : TableDescriber.sourceSchemas(connection, ds.name())) {
                    out.addAll(TableDescriber.describe(connection, "data", schema, TableInfo.Kind.TABLE));
                }
                return out;
            })), t -> datasetTables.facts(ds, t.name(), () -> TableDescriber.facts(connection, t)));
            ownTables = bound;
        }
        return bound;
    }

    /**
     * Makes {@code other} this workspace's dataset ({@code connect_source}): it is attached READ_ONLY as {@code data}
     * in place of the current one, so the SQL, tables and knowledge that follow are its, while this session's frames
     * stay. Switching to the dataset already in use does nothing. Returns its tables.
     */
    public List<TableInfo> use(Dataset other) throws QueryException {
        Dataset current = dataset;
        if (live != null || other.onEngine()) {
            throw new QueryException(QueryException.Kind.REFUSED, "Dataset '" + (live != null ? current : other).name()
                    + "' lives on an engine; a session cannot switch " + (live != null ? "from" : "to") + " it.");
        }
        if (current.file().equals(other.file()) && current.fingerprint().equals(other.fingerprint())) {
            return datasetTables();
        }
        DatasetLinks.swap(this::runTimed, spill, current, other);
        dataset = other;
        ownTables = null;
        budget.forget(); // what was known of the dataset's columns was of the one before
        return datasetTables();
    }

    /**
     * The frames, described live but cached between statements that may change them: queries
     * ({@link #query}, {@link #trustedQuery}) return rows and cannot; every other statement goes through
     * {@code runTimed}, which drops the cache.
     * (The registry, the planner and the tools ask for the tables several times per step.)
     */
    public List<TableInfo> frames() {
        List<TableInfo> cached = framesCache;
        if (cached == null) {
            long version = framesVersion.get();
            cached = List.copyOf(TableDescriber.describe(connection, "memory", "frames", TableInfo.Kind.FRAME));
            if (framesVersion.get() == version) {
                framesCache = cached;
            }
        }
        return cached;
    }

    @Override
    public void close() {
        guard.close();
        closeQuietly(connection);
        if (ownsGate) {
            gate.close();
        }
        removeSpill(spill);
        if (live != null) {
            live.close();
        }
    }

    private static void removeSpill(Path folder) {
        try (var files = folder == null ? java.util.stream.Stream.<Path>empty() : Files.walk(folder)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a spill folder in the system temp folder: the OS clears it in the end
        }
    }

    static void closeQuietly(Connection c) {
        try (c) {
            // closed on leaving the block; a null connection is skipped
        } catch (SQLException ignored) {
            // closing an in-memory database cannot lose anything
        }
    }
}
