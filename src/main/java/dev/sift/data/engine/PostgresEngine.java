package dev.sift.data.engine;

import dev.sift.data.LiveEngine;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.SqlDialect;
import dev.sift.data.SqlGuard;
import dev.sift.data.TableInfo;
import dev.sift.data.TableStats;
import dev.sift.data.Workspace;
import dev.sift.data.source.Credentials;
import dev.sift.data.source.PostgresDialect;
import dev.sift.data.source.SourceUrl;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A PostgreSQL database as a live dataset, through its JDBC driver. The guard binds with {@code EXPLAIN} (which
 * parses, binds and plans without running) and refuses plans that modify or lock rows; every statement runs in
 * a {@code READ ONLY} transaction with {@code statement_timeout} set, the driver's timeout cancelling it on the
 * server as well, and is rolled back. Results stream with a cursor ({@code fetchSize}) up to the row cap.
 */
final class PostgresEngine extends CatalogEngine {
    private static final int FETCH = 2_000;

    private final EngineUrl url;
    private final Map<String, String> env;
    private final String schema;
    private Connection connection;
    private Credentials credentials;

    PostgresEngine(EngineUrl url, Map<String, String> options, Map<String, String> env, Workspace.Limits limits) {
        super(options, limits);
        this.url = url;
        this.env = env;
        List<String> schemas = url.source().queryList("schema");
        this.schema = !schemas.isEmpty() ? schemas.get(0) : options.getOrDefault("schema", PostgresDialect.DEFAULT_SCHEMA);
    }

    @Override
    public SqlDialect dialect() {
        return SqlDialect.POSTGRESQL;
    }

    private synchronized Connection connection() throws QueryException {
        if (connection == null) {
            // the sources' URL, credentials (password_env, credentials_file, PGPASSWORD, the URL) and driver properties
            PostgresDialect pgDialect = new PostgresDialect();
            Credentials credentials;
            try {
                credentials = Credentials.resolve(url.source(), options, env, pgDialect.standardPasswordEnv());
            } catch (IllegalArgumentException e) {
                throw new QueryException(QueryException.Kind.UNREACHABLE, "Could not connect to " + url.where() + ": "
                        + e.getMessage());
            }
            this.credentials = credentials;
            Properties p = pgDialect.properties(url.source(), credentials, 10);
            if (!p.containsKey("user") && env.get("PGUSER") != null) {
                p.setProperty("user", env.get("PGUSER"));
            }
            p.setProperty("currentSchema", schema);
            try {
                connection = DriverManager.getConnection(pgDialect.jdbcUrl(url.source()), p);
                connection.setAutoCommit(false); // with readOnly: every transaction starts READ ONLY
                connection.setReadOnly(true);
            } catch (SQLException e) {
                throw new QueryException(QueryException.Kind.UNREACHABLE, "Could not connect to " + url.where() + ": "
                        + redact(e.getMessage()));
            }
        }
        return connection;
    }

    /** Where the password came from ("the URL", "environment variable PG_PW", "none"), once connected. */
    String passwordFrom() {
        return credentials == null ? "none" : credentials.from();
    }

    private String redact(String message) {
        return credentials == null ? SourceUrl.maskText(String.valueOf(message)) : credentials.redact(String.valueOf(message));
    }

    @Override
    public void check(String sql) throws QueryException {
        TextChecks.check(sql, dialect());
        String plan;
        try {
            plan = inReadOnly(st -> {
                try (ResultSet rs = st.executeQuery("EXPLAIN (FORMAT JSON) " + SqlGuard.withoutTerminator(sql))) {
                    rs.next();
                    return rs.getString(1);
                }
            });
        } catch (SQLException e) {
            throw invalid(e);
        }
        if (plan.contains("\"ModifyTable\"") || plan.contains("\"LockRows\"")) {
            throw new QueryException(QueryException.Kind.REFUSED, TextChecks.refusal(sql, dialect())
                    + " (PostgreSQL's plan modifies or locks rows)");
        }
    }

    private QueryException invalid(SQLException e) {
        if ("57014".equals(e.getSQLState())) {
            return timeout();
        }
        if (lost(e)) {
            return lostConnection(e);
        }
        String m = firstLine(redact(e.getMessage())).replaceFirst("^ERROR: ", "");
        if (m.contains("does not exist") && m.contains("relation")) {
            m += ". Tables on PostgreSQL: " + String.join(", ", tables().stream().map(TableInfo::name).toList()) + ".";
        }
        if (m.contains("read-only transaction")) {
            return new QueryException(QueryException.Kind.REFUSED, "Refused: " + m);
        }
        return new QueryException(QueryException.Kind.INVALID, "SQL does not bind on PostgreSQL: " + m
                + " Send one PostgreSQL SELECT statement.");
    }

    /** A connection exception (SQLSTATE class 08): the server went away or the link broke. */
    private static boolean lost(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /** The broken connection is dropped, so the next question connects afresh once the server is back. */
    private synchronized QueryException lostConnection(SQLException e) {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // already broken: nothing more to release
        }
        connection = null;
        return new QueryException(QueryException.Kind.UNREACHABLE, "Lost the connection to " + url.where() + ": "
                + firstLine(redact(e.getMessage())));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }

    private QueryException timeout() {
        return new QueryException(QueryException.Kind.TIMEOUT, "Query cancelled on PostgreSQL after the time limit of "
                + seconds() + " s. Aggregate more, filter earlier, or avoid cross joins.");
    }

    private int seconds() {
        return (int) Math.max(1, Math.ceil(limits.queryTimeout().toMillis() / 1000.0));
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Statement st) throws SQLException, QueryException;
    }

    /** One read-only transaction with the statement timeout, always rolled back. */
    private synchronized <T> T inReadOnly(Work<T> work) throws SQLException, QueryException {
        Connection c = connection();
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL statement_timeout = " + limits.queryTimeout().toMillis());
            st.setQueryTimeout(seconds() + 1); // the driver cancels on the server too, should the setting not hold
            st.setFetchSize(FETCH);
            return work.run(st);
        } finally {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // a broken connection is reopened by nobody: the next statement reports it
            }
        }
    }

    @Override
    public boolean run(String sql, int maxRows, RowSink sink) throws QueryException {
        String body = SqlGuard.withoutTerminator(sql);
        try {
            return inReadOnly(st -> {
                int[] types;
                List<QueryResult.Column> columns = new ArrayList<>();
                // the result's types first (planned, no row read), so the wide columns can be cut on the server
                try (ResultSet rs = st.executeQuery("SELECT * FROM (" + body + "\n) AS _sift_q LIMIT 0")) {
                    ResultSetMetaData md = rs.getMetaData();
                    types = new int[md.getColumnCount()];
                    for (int i = 1; i <= types.length; i++) {
                        types[i - 1] = md.getColumnType(i);
                        columns.add(new QueryResult.Column(md.getColumnLabel(i), duckType(types[i - 1])));
                    }
                }
                EngineCells cells = cells(columns);
                int n = types.length;
                st.setMaxRows(maxRows + 1);
                String run = !cells.any() ? body : "SELECT " + String.join(", ", cells.select(EngineCells.Dialect.POSTGRES))
                        + " FROM (" + body + "\n) AS _sift_cells(" + String.join(", ", cells.names()) + ")";
                try (ResultSet rs = st.executeQuery(run)) {
                    sink.columns(columns);
                    int rows = 0;
                    boolean more = false;
                    while (rs.next()) {
                        if (rows == maxRows) {
                            more = true;
                            break;
                        }
                        Object[] values = new Object[n];
                        for (int i = 1; i <= n; i++) {
                            values[i - 1] = value(rs, i, types[i - 1]);
                        }
                        if (cells.any()) {
                            cells.tally(k -> size(rs, n + 1 + k));
                        }
                        sink.row(values);
                        rows++;
                    }
                    sink.cuts(cells.cuts());
                    return more;
                }
            });
        } catch (SQLException e) {
            if ("57014".equals(e.getSQLState())) {
                throw timeout();
            }
            if (lost(e)) {
                throw lostConnection(e);
            }
            throw new QueryException(QueryException.Kind.FAILED, "Query failed on PostgreSQL: "
                    + firstLine(redact(e.getMessage())).replaceFirst("^ERROR: ", ""));
        }
    }

    @Override
    public long count(String sql) {
        try {
            return inReadOnly(st -> {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + SqlGuard.withoutTerminator(sql) + "\n) q")) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
        } catch (SQLException | QueryException e) {
            return -1;
        }
    }

    /** Every column read as text (the driver's string form) can be long, so it is cut as text. */
    private EngineCells cells(List<QueryResult.Column> columns) {
        EngineCells.Kind[] kinds = new EngineCells.Kind[columns.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = columns.get(i).type().equals("VARCHAR") ? EngineCells.Kind.TEXT : EngineCells.Kind.PLAIN;
        }
        return new EngineCells(columns, kinds, limits);
    }

    /** A cut value's full size, read beside it; null when the value was not cut. */
    private static Long size(ResultSet rs, int i) {
        try {
            long v = rs.getLong(i);
            return rs.wasNull() ? null : v;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read a cut value's size", e);
        }
    }

    static String duckType(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> "BIGINT";
            case Types.REAL, Types.FLOAT, Types.DOUBLE, Types.NUMERIC, Types.DECIMAL -> "DOUBLE";
            case Types.BOOLEAN, Types.BIT -> "BOOLEAN";
            case Types.DATE -> "DATE";
            case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> "TIMESTAMP";
            default -> "VARCHAR";
        };
    }

    private static Object value(ResultSet rs, int i, int jdbcType) throws SQLException {
        Object v;
        switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
                long l = rs.getLong(i);
                v = rs.wasNull() ? null : l;
            }
            case Types.REAL, Types.FLOAT, Types.DOUBLE, Types.NUMERIC, Types.DECIMAL -> { // NaN and infinities too
                double d = rs.getDouble(i);
                v = rs.wasNull() ? null : d;
            }
            case Types.BOOLEAN, Types.BIT -> {
                boolean b = rs.getBoolean(i);
                v = rs.wasNull() ? null : b;
            }
            case Types.DATE -> v = rs.getObject(i, LocalDate.class);
            case Types.TIMESTAMP -> v = rs.getObject(i, LocalDateTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> {
                java.time.OffsetDateTime t = rs.getObject(i, java.time.OffsetDateTime.class);
                v = t == null ? null : t.atZoneSameInstant(java.time.ZoneOffset.UTC).toLocalDateTime();
            }
            default -> v = rs.getString(i);
        }
        return v;
    }

    @Override
    EngineFile describe(String storedUrl) throws QueryException {
        try {
            return inReadOnly(st -> {
                Connection c = st.getConnection();
                Map<String, List<String[]>> cols = columns(c);
                Map<String, Long> estimates = rowEstimates(c);
                Keys keys = keys(c);
                List<EngineFile.Table> tables = new ArrayList<>();
                for (Map.Entry<String, List<String[]>> e : cols.entrySet()) {
                    tables.add(table(c, e.getKey(), e.getValue(), estimates.get(e.getKey()),
                            keys.primary().getOrDefault(e.getKey(), List.of())));
                }
                return new EngineFile(EngineFile.VERSION, storedUrl, options, dialect().name(),
                        java.time.Instant.now().toString(), tables, keys.foreign(), access(c));
            });
        } catch (SQLException e) {
            throw new QueryException(QueryException.Kind.FAILED, "Could not read the schema of " + url.where() + ": "
                    + firstLine(redact(e.getMessage())));
        }
    }

    /** Each table's and view's columns as {name, type}, in the schema's order. */
    private Map<String, List<String[]>> columns(Connection c) throws SQLException {
        Map<String, List<String[]>> cols = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT c.table_name, c.column_name, c.data_type"
                + " FROM information_schema.columns c JOIN information_schema.tables t"
                + " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
                + " WHERE c.table_schema = ? AND t.table_type IN ('BASE TABLE', 'VIEW')"
                + " ORDER BY c.table_name, c.ordinal_position")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    cols.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(new String[] {rs.getString(2), rs.getString(3)});
                }
            }
        }
        return cols;
    }

    /** The planner's row estimates (pg_class.reltuples), so a big table need not be counted. */
    private Map<String, Long> rowEstimates(Connection c) throws SQLException {
        Map<String, Long> estimates = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT cl.relname, cl.reltuples::bigint FROM pg_class cl"
                + " JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE n.nspname = ? AND cl.relkind IN ('r', 'p', 'm')")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    estimates.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return estimates;
    }

    /** Single-column primary keys by table, and single-column foreign keys. */
    private record Keys(Map<String, List<String>> primary, List<TableStats.ForeignKey> foreign) { }

    private Keys keys(Connection c) throws SQLException {
        Keys keys = new Keys(new LinkedHashMap<>(), new ArrayList<>());
        try (PreparedStatement ps = c.prepareStatement("SELECT co.contype, cl.relname, a.attname, rcl.relname, ra.attname"
                + " FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid"
                + " JOIN pg_namespace n ON n.oid = cl.relnamespace"
                + " JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = co.conkey[1]"
                + " LEFT JOIN pg_class rcl ON rcl.oid = co.confrelid"
                + " LEFT JOIN pg_attribute ra ON ra.attrelid = co.confrelid AND ra.attnum = co.confkey[1]"
                + " WHERE n.nspname = ? AND co.contype IN ('p', 'u', 'f') AND array_length(co.conkey, 1) = 1"
                + " ORDER BY 2, 3")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(1).equals("f")) {
                        keys.foreign().add(new TableStats.ForeignKey(rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5)));
                    } else if (rs.getString(1).equals("p")) { // unique allows NULLs: only primary keys are keys
                        keys.primary().computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(rs.getString(3));
                    }
                }
            }
        }
        return keys;
    }

    private EngineFile.Table table(Connection c, String name, List<String[]> cols, Long estimate, List<String> unique)
            throws SQLException {
        String q = dev.sift.data.Sql.quoteIdent(name);
        long rows;
        boolean estimated = false;
        if (estimate != null && estimate > SampledStats.SAMPLE) {
            rows = estimate; // the planner's statistics: a big table is not counted
            estimated = true;
        } else {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + q)) {
                rs.next();
                rows = rs.getLong(1);
            }
        }
        // one sampled non-null value per column, from a bounded scan
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < cols.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("CAST(min(").append(dev.sift.data.Sql.quoteIdent(cols.get(i)[0]))
                    .append(")::text AS text)");
        }
        sql.append(" FROM (SELECT * FROM ").append(q).append(" LIMIT 200) s");
        List<EngineFile.Column> columns = new ArrayList<>();
        List<String> samples = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            rs.next();
            for (int i = 0; i < cols.size(); i++) {
                samples.add(rs.getString(i + 1));
            }
        } catch (SQLException e) { // a type without min() (json, arrays): no samples rather than no table
            samples.clear();
            c.rollback();
            try (Statement st = c.createStatement()) {
                st.execute("SET LOCAL statement_timeout = " + limits.queryTimeout().toMillis());
            }
        }
        for (int i = 0; i < cols.size(); i++) {
            columns.add(new EngineFile.Column(cols.get(i)[0], cols.get(i)[1], duckType(cols.get(i)[1]),
                    samples.isEmpty() ? null : samples.get(i)));
        }
        return new EngineFile.Table(name, rows, estimated, columns, unique);
    }

    /** information_schema's data_type as the DuckDB type its values come back as. */
    static String duckType(String pgType) {
        return switch (pgType) {
            case "smallint", "integer", "bigint" -> "BIGINT";
            case "real", "double precision", "numeric" -> "DOUBLE";
            case "boolean" -> "BOOLEAN";
            case "date" -> "DATE";
            case "timestamp without time zone", "timestamp with time zone" -> "TIMESTAMP";
            default -> "VARCHAR";
        };
    }

    /** Whether the account could change data: superuser, write privileges on the tables, CREATE on the schema. */
    private EngineFile.Access access(Connection c) throws SQLException {
        List<String> reasons = new ArrayList<>();
        String account;
        try (PreparedStatement ps = c.prepareStatement("SELECT current_user, r.rolsuper,"
                + " (SELECT count(*) FROM information_schema.tables t WHERE t.table_schema = ? AND t.table_type = 'BASE TABLE'"
                + "  AND (has_table_privilege(format('%I.%I', t.table_schema, t.table_name), 'INSERT')"
                + "   OR has_table_privilege(format('%I.%I', t.table_schema, t.table_name), 'UPDATE')"
                + "   OR has_table_privilege(format('%I.%I', t.table_schema, t.table_name), 'DELETE')"
                + "   OR has_table_privilege(format('%I.%I', t.table_schema, t.table_name), 'TRUNCATE'))),"
                + " has_schema_privilege(?, 'CREATE')"
                + " FROM pg_roles r WHERE r.rolname = current_user")) {
            ps.setString(1, schema);
            ps.setString(2, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                account = rs.getString(1);
                if (rs.getBoolean(2)) {
                    reasons.add("it is a superuser");
                }
                long writable = rs.getLong(3);
                if (writable > 0) {
                    reasons.add("INSERT, UPDATE, DELETE or TRUNCATE on " + writable + " table" + (writable == 1 ? "" : "s"));
                }
                if (rs.getBoolean(4)) {
                    reasons.add("CREATE in schema " + schema);
                }
            }
        }
        return new EngineFile.Access(account, !reasons.isEmpty(), reasons);
    }

    @Override
    public synchronized void close() {
        closeRenderer();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // nothing was written: a failed close loses nothing
            }
            connection = null;
        }
    }
}
