package dev.sift.data;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A workspace's side of a live dataset: which SQL goes to the {@link LiveEngine} and which stays in the
 * workspace's DuckDB, and engine results brought back as frames (DuckDB's appender, row by row, up to the
 * engine's frame cap). Lives and dies with its {@link Workspace}.
 */
final class EngineFrames {
    private final Workspace ws;
    private final Connection connection;
    private final LiveEngine live;

    EngineFrames(Workspace ws, Connection connection, LiveEngine live) {
        this.ws = ws;
        this.connection = connection;
        this.live = live;
    }

    /**
     * Whether SQL goes to the engine: it names a dataset table (or a name that is no frame) and no frame.
     * The names come from DuckDB's parse; SQL DuckDB cannot parse (the engine's own syntax) goes to the engine.
     * SQL naming no table at all goes where its writer's dialect is: the agent's to the engine ({@code SELECT
     * pg_sleep(1)}), Sift's own (DuckDB, e.g. a VALUES list) stays here. Mixing frames and engine tables is
     * refused: they live in different places.
     */
    boolean routes(String sql, boolean agent) throws QueryException {
        Optional<LiveRouting.Parse> parse = LiveRouting.parse(connection, sql);
        return parse.isEmpty() || routes(parse.get(), agent);
    }

    /**
     * Sift's own SQL (DuckDB's dialect) where it runs: null when it stays in this DuckDB (frames only, or SQL DuckDB
     * reads only as a statement, such as PIVOT), else rendered for the engine ({@link LiveEngine#render}) and checked
     * there.
     */
    String rendered(String sql) throws QueryException {
        Optional<LiveRouting.Parse> parse = LiveRouting.parse(connection, sql);
        if (parse.isEmpty() || !routes(parse.get(), false)) {
            return null;
        }
        String engineSql = live.render(sql);
        live.check(engineSql);
        return engineSql;
    }

    /** Sift's own SQL as it is sent: rendered for the engine when it reads engine tables, else as written. */
    String render(String sql) throws QueryException {
        Optional<LiveRouting.Parse> parse = LiveRouting.parse(connection, sql);
        return parse.isPresent() && routes(parse.get(), false) ? live.render(sql) : sql;
    }

    private boolean routes(LiveRouting.Parse parse, boolean agent) throws QueryException {
        List<String> frameNames = ws.frames().stream().map(TableInfo::name).toList();
        List<String> framesUsed = new ArrayList<>();
        List<String> engineUsed = new ArrayList<>();
        for (String[] ref : parse.refs()) { // {schema, table}
            boolean frame = ref[0].equalsIgnoreCase("frames")
                    || (ref[0].isEmpty() && frameNames.stream().anyMatch(f -> f.equalsIgnoreCase(ref[1])));
            (frame ? framesUsed : engineUsed).add(ref[0].isEmpty() ? ref[1] : ref[0] + "." + ref[1]);
        }
        if (framesUsed.isEmpty() && engineUsed.isEmpty()) {
            return agent;
        }
        if (!framesUsed.isEmpty() && !engineUsed.isEmpty()) {
            throw new QueryException(QueryException.Kind.REFUSED, "Refused: this query uses frames ("
                    + String.join(", ", framesUsed) + ") of the session together with tables of the "
                    + live.dialect().label() + " dataset (" + String.join(", ", engineUsed) + "); they live in"
                    + " different places, so one query cannot join them. Query the engine tables alone (with a label"
                    + " to keep the result as a frame), then combine frames.");
        }
        return !engineUsed.isEmpty();
    }

    /** Runs checked SQL on the engine and keeps the first {@code maxRows} rows (and the full count when cut). */
    QueryResult fetch(String sql, int maxRows) throws QueryException {
        long start = System.nanoTime();
        List<QueryResult.Column> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        CellCuts[] cut = {CellCuts.NONE};
        boolean more = live.run(sql, maxRows, new LiveEngine.RowSink() {
            @Override
            public void columns(List<QueryResult.Column> cs) {
                columns.addAll(cs);
            }

            @Override
            public void row(Object[] values) {
                rows.add(jsonRow(values));
            }

            @Override
            public void cuts(CellCuts cuts) {
                cut[0] = cuts;
            }
        });
        long count = more ? live.count(sql) : rows.size();
        return new QueryResult(sql, columns, rows, count, more, (System.nanoTime() - start) / 1_000_000, cut[0]);
    }

    /**
     * Hands a checked engine result to {@code sink} row by row as the engine sends it (nothing held), at most
     * {@code maxRows} rows; returns the full row count, as {@link Workspace#stream} does on DuckDB.
     */
    long stream(String sql, long maxRows, Workspace.RowSink sink) throws QueryException, java.io.IOException {
        java.io.IOException[] failed = {null};
        long[] written = {0};
        boolean more;
        try {
            more = live.run(sql, (int) Math.min(maxRows, Integer.MAX_VALUE), new LiveEngine.RowSink() {
            @Override
            public void columns(List<QueryResult.Column> cs) throws QueryException {
                write(() -> sink.columns(cs));
            }

            @Override
            public void row(Object[] values) throws QueryException {
                List<Object> row = jsonRow(values);
                write(() -> sink.row(row));
                written[0]++;
            }

            @Override
            public void cuts(CellCuts cuts) throws QueryException {
                write(() -> sink.cuts(cuts));
            }

            // the writer's failure (a closed pipe, a full disk) stops the engine's read and is rethrown as it was
            private void write(IoStep step) throws QueryException {
                try {
                    step.run();
                } catch (java.io.IOException e) {
                    failed[0] = e;
                    throw new QueryException(QueryException.Kind.FAILED, "Could not write the result: " + e.getMessage());
                }
            }
        });
        } catch (QueryException e) {
            if (failed[0] != null) {
                throw failed[0];
            }
            throw e;
        }
        return more ? live.count(sql) : written[0];
    }

    /** An engine row as the values a result holds. */
    private static List<Object> jsonRow(Object[] values) {
        List<Object> row = new ArrayList<>(values.length);
        for (Object v : values) {
            row.add(JdbcValues.jsonValue(v));
        }
        return row;
    }

    private interface IoStep {
        void run() throws java.io.IOException;
    }

    /** Brings a checked engine result back as frame {@code label}, or refuses one too big to bring back. */
    QueryResult store(String label, String sql) throws QueryException {
        long start = System.nanoTime();
        CellCuts cut = pull(label, sql, live.maxFrameRows());
        QueryResult stored = ws.execute("SELECT * FROM memory.frames." + Sql.quoteIdent(label), ws.limits().fetchRows());
        return new QueryResult(sql, stored.columns(), stored.rows(), stored.rowCount(), stored.truncated(),
                (System.nanoTime() - start) / 1_000_000, cut.any() ? cut : stored.cuts());
    }

    /** Brings a checked engine result back as frame {@code label}; returns what the engine cut on the way. */
    CellCuts pull(String label, String sql, int maxRows) throws QueryException {
        String table = "memory.frames." + Sql.quoteIdent(label);
        boolean more;
        FrameWriter writer = new FrameWriter(label);
        try {
            more = live.run(sql, maxRows, writer);
            writer.close();
        } catch (QueryException | RuntimeException e) {
            writer.closeQuietly();
            ws.runTimed("DROP TABLE IF EXISTS " + table);
            throw e;
        }
        if (more) {
            ws.runTimed("DROP TABLE IF EXISTS " + table);
            long total = live.count(sql);
            throw new QueryException(QueryException.Kind.REFUSED, "The result is too big to bring back: more than "
                    + String.format("%,d", maxRows) + " rows" + (total > 0 ? String.format(" (%,d on the engine)", total) : "")
                    + ". It stays on " + live.dialect().label() + ": aggregate it there (GROUP BY with count, sum or avg)"
                    + " or filter it, and keep the smaller result.");
        }
        return writer.cut;
    }

    /** Creates a frame from an engine result's columns and appends its rows with DuckDB's appender. */
    private final class FrameWriter implements LiveEngine.RowSink {
        private final String label;
        private org.duckdb.DuckDBAppender appender;
        private CellCuts cut = CellCuts.NONE;

        FrameWriter(String label) {
            this.label = label;
        }

        @Override
        public void columns(List<QueryResult.Column> columns) throws QueryException {
            StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE memory.frames.").append(Sql.quoteIdent(label)).append(" (");
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                String name = columns.get(i).name();
                while (seen.contains(name.toLowerCase(java.util.Locale.ROOT))) { // SELECT a.id, b.id
                    name = name + "_" + (i + 1);
                }
                seen.add(name.toLowerCase(java.util.Locale.ROOT));
                ddl.append(i == 0 ? "" : ", ").append(Sql.quoteIdent(name)).append(' ').append(columns.get(i).type());
            }
            ws.runTimed(ddl.append(')').toString());
            try {
                appender = connection.unwrap(org.duckdb.DuckDBConnection.class).createAppender("memory", "frames", label);
            } catch (SQLException e) {
                throw ws.failure(e);
            }
        }

        @Override
        public void row(Object[] values) throws QueryException {
            try {
                appender.beginRow();
                for (Object v : values) {
                    JdbcValues.append(appender, v);
                }
                appender.endRow();
            } catch (SQLException e) {
                throw ws.failure(e);
            }
        }

        @Override
        public void cuts(CellCuts cuts) {
            cut = cuts;
        }

        void close() throws QueryException {
            if (appender != null) {
                try {
                    appender.close();
                } catch (SQLException e) {
                    throw ws.failure(e);
                } finally {
                    appender = null;
                }
            }
        }

        void closeQuietly() {
            try {
                close();
            } catch (QueryException ignored) {
                // the frame is dropped next; the first failure is the one reported
            }
        }
    }
}
