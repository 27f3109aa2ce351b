package dev.sift.data.source;

import dev.sift.data.Progress;
import dev.sift.data.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A SQL server read through its JDBC driver (PostgreSQL, MySQL/MariaDB): every table and view of the chosen
 * schemas is copied into DuckDB under its own name, streamed a fetch-size batch at a time inside one
 * read-only, repeatable-read transaction (one consistent snapshot; nothing is written to the server).
 *
 * <p>The fingerprint reads the schema (tables, columns, types), each table's row count and the maximum of
 * its identity and updated-at columns, so a changed server rebuilds the dataset and an unchanged one does not.
 * Every failure is one line naming the source with its password masked.
 */
final class JdbcSource implements Source {
    /** Bump when loading changes, so built datasets are rebuilt. */
    static final String VERSION = "jdbc-source-1";
    static final int DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;
    static final String CONNECT_TIMEOUT = "connect_timeout";
    static final int FETCH_SIZE = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(JdbcSource.class);
    /** Columns whose maximum says rows changed, besides identity columns. */
    private static final Pattern UPDATED_AT = Pattern.compile(
            "(?i)(updated|modified|changed|last_?update[d]?|last_?modified)(_?(at|on|time|ts|date))?");

    private final JdbcDialect dialect;
    private final SourceUrl url;
    private final Credentials credentials;
    private final int connectTimeout;
    private final List<String> notes = new ArrayList<>();
    private final Map<String, Long> counted = new LinkedHashMap<>();
    private int loadedTables = -1;

    JdbcSource(JdbcDialect dialect, SourceUrl url, Map<String, String> options, Map<String, String> env) {
        this.dialect = dialect;
        this.url = url;
        this.credentials = Credentials.resolve(url, options, env, dialect.standardPasswordEnv());
        String timeout = options.getOrDefault(CONNECT_TIMEOUT, url.query().get(CONNECT_TIMEOUT));
        this.connectTimeout = timeout == null ? DEFAULT_CONNECT_TIMEOUT_SECONDS : parseTimeout(timeout);
        if (url.path().isBlank()) {
            throw new IllegalArgumentException(dialect.label() + " " + url.masked()
                    + ": no database named: write " + url.scheme() + "://user@host:port/DATABASE");
        }
    }

    private int parseTimeout(String text) {
        try {
            int t = Integer.parseInt(text.trim());
            if (t >= 1 && t <= 600) {
                return t;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message
        }
        throw new IllegalArgumentException(dialect.label() + " " + url.masked() + ": " + CONNECT_TIMEOUT + " '"
                + text + "' is not a number of seconds from 1 to 600");
    }

    SourceUrl url() {
        return url;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        FileSupport.hashText(sha, dialect.label() + " " + url.scheme() + "://" + url.hosts() + "/" + url.path());
        try (Connection c = connect()) {
            counted.clear();
            for (SourceTable t : plan(c)) {
                FileSupport.hashText(sha, t.schema() + "." + t.name());
                for (SourceColumn col : t.columns()) {
                    FileSupport.hashText(sha, col.name() + " " + col.sourceType() + " " + col.type().ddl());
                }
                StringBuilder q = new StringBuilder("SELECT count(*)");
                for (String m : t.changeMarkers()) {
                    q.append(", max(").append(dialect.quote(m)).append(")");
                }
                q.append(" FROM ").append(qualified(t));
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q.toString())) {
                    rs.next();
                    counted.put(t.schema() + "." + t.name(), rs.getLong(1));
                    FileSupport.hashText(sha, "rows=" + rs.getLong(1));
                    for (int i = 0; i < t.changeMarkers().size(); i++) {
                        FileSupport.hashText(sha, t.changeMarkers().get(i) + "=" + rs.getString(i + 2));
                    }
                } catch (SQLException e) {
                    throw failure(e, t);
                }
            }
            c.rollback();
        } catch (SQLException e) {
            throw failure(e, null);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder(dialect.label()).append(' ').append(url.masked());
        if (loadedTables >= 0) {
            sb.append(" (").append(loadedTables).append(loadedTables == 1 ? " table)" : " tables)");
        }
        if (!notes.isEmpty()) {
            sb.append("; note: ").append(String.join("; ", notes));
        }
        return sb.toString();
    }

    /** Notes of the last load: columns whose type has no mapping and loaded as text. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    @Override
    public void load(java.sql.Connection db, String schema, Progress progress) throws Exception {
        notes.clear();
        try (Connection c = connect()) {
            List<SourceTable> tables = plan(c);
            for (SourceTable t : tables) {
                t.columns().stream().filter(col -> col.note() != null).forEach(col -> {
                    notes.add(col.note());
                    LOG.warn("{} {}: {}", dialect.label(), url.masked(), col.note());
                });
            }
            dialect.stream(c);
            int done = 0;
            for (SourceTable t : tables) {
                copy(c, db, schema, t, progress);
                done++;
            }
            c.rollback();
            loadedTables = done;
        } catch (SQLException e) {
            throw failure(e, null);
        }
    }

    private void copy(Connection c, java.sql.Connection db, String schema, SourceTable t, Progress progress)
            throws Exception {
        DuckTables.create(db, schema, t.name(), t.columns());
        String select = t.columns().stream().map(SourceColumn::select).collect(Collectors.joining(", "));
        List<JdbcBatches.Column> arrow = new ArrayList<>();
        t.columns().forEach(col -> JdbcBatches.column(col.type(), dialect.instant()).ifPresent(arrow::add));
        long total = counted.getOrDefault(t.schema() + "." + t.name(), -1L);
        String stage = "loading " + t.schema() + "." + t.name();
        // prepared, so a driver that can sends the values in binary (PostgreSQL with prepareThreshold=-1)
        try (PreparedStatement st = c.prepareStatement("SELECT " + select + " FROM " + qualified(t),
                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = st.executeQuery()) {
                if (arrow.size() == t.columns().size()) {
                    progress.report(stage, 0, total);
                    JdbcBatches rows = new JdbcBatches(rs, arrow, progress, stage, total);
                    ArrowIngest.insert(db, Sql.quoteIdent(schema) + "." + Sql.quoteIdent(t.name()), arrowSelect(arrow),
                            ColumnBuffer.schema(arrow.stream().map(JdbcBatches.Column::kind).toList()), List.of(rows));
                    progress.report(stage, rows.rows(), rows.rows());
                } else { // a LIST column: the Appender takes nested values
                    DuckTables.append(db, schema, t.name(), rs, t.columns().stream().map(col -> DuckTables.copier(col.type()))
                            .toList(), total, stage, progress);
                }
            }
        } catch (SQLException e) {
            throw failure(e, t);
        }
        DuckTables.finish(db, schema, t.name(), t.columns());
    }

    private static String arrowSelect(List<JdbcBatches.Column> columns) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            String v = Sql.quoteIdent("c" + i);
            String cast = columns.get(i).cast();
            sb.append(i == 0 ? "" : ", ").append(cast == null ? v : "CAST(" + v + " AS " + cast + ")");
        }
        return sb.toString();
    }

    /** The tables to load, checked: schemas exist, no two tables share a name. */
    private List<SourceTable> plan(Connection c) throws SQLException {
        List<String> schemas = dialect.schemas(c, url);
        List<SourceTable> out = new ArrayList<>();
        Map<String, String> byName = new LinkedHashMap<>();
        for (String s : schemas) {
            for (String name : dialect.tables(c, s)) {
                String clash = byName.putIfAbsent(name.toLowerCase(Locale.ROOT), s);
                if (clash != null) {
                    throw new IllegalArgumentException(dialect.label() + " " + url.masked() + ": table '" + name
                            + "' is in both schemas " + clash + " and " + s
                            + ": load them as two sources with aliases in a sources file");
                }
                SourceTable t = dialect.table(c, s, name);
                if (t.columns().isEmpty()) {
                    continue; // a table without columns has nothing to load (and DuckDB cannot create it)
                }
                List<String> markers = new ArrayList<>(t.changeMarkers());
                t.columns().stream().filter(col -> UPDATED_AT.matcher(col.name()).matches())
                        .filter(col -> switch (col.type().kind()) {
                            case TIMESTAMP, TIMESTAMPTZ, DATE, BIGINT, INTEGER -> true;
                            default -> false;
                        })
                        .map(SourceColumn::name).filter(n -> !markers.contains(n)).forEach(markers::add);
                out.add(new SourceTable(t.schema(), t.name(), t.columns(), markers));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(dialect.label() + " " + url.masked() + ": no tables in "
                    + (schemas.size() == 1 ? "schema " : "schemas ") + String.join(", ", schemas));
        }
        return out;
    }

    private String qualified(SourceTable t) {
        return dialect.quote(t.schema()) + "." + dialect.quote(t.name());
    }

    String jdbcUrl() {
        return dialect.jdbcUrl(url);
    }

    /** Driver properties with the credentials: hand them to the driver only. */
    java.util.Properties connectionProperties() {
        return dialect.properties(url, credentials, connectTimeout);
    }

    /** A connection in a read-only, repeatable-read transaction, or one line saying why there is none. */
    private Connection connect() {
        try {
            Connection c = DriverManager.getConnection(jdbcUrl(), connectionProperties());
            try {
                c.setReadOnly(true);
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                c.setAutoCommit(false);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return c;
        } catch (SQLException e) {
            throw failure(e, null);
        }
    }

    /**
     * One line for a driver error: what went wrong in words a user acts on, the driver's own first line, no
     * secret. The SQLException is not kept as the cause: driver messages could quote what they were sent.
     */
    IllegalArgumentException failure(SQLException e, SourceTable table) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String driver = firstLine(e);
        String where = dialect.label() + " " + url.masked() + ": ";
        String message;
        Throwable root = rootCause(e);
        if (state.startsWith("28") || e.getErrorCode() == 1045) {
            message = where + "login failed for user '" + credentials.user().orElse("(none)") + "' (password: "
                    + credentials.from() + "): " + driver;
        } else if (root instanceof ConnectException || root instanceof SocketTimeoutException
                || root instanceof NoRouteToHostException || root instanceof UnknownHostException
                || state.startsWith("08")) {
            String reason = root instanceof SocketTimeoutException ? "no answer within " + connectTimeout + " s"
                    : root instanceof UnknownHostException ? "unknown host"
                    : root != null && root.getMessage() != null ? root.getMessage() : driver;
            message = where + "cannot connect to " + url.host() + ":" + url.port(dialect.defaultPort()) + " ("
                    + reason + ")";
        } else if (state.equals("3D000") || e.getErrorCode() == 1049) {
            message = where + "database '" + url.path() + "' does not exist: " + driver;
        } else if (e.getErrorCode() == 1044 && table == null) {
            // MySQL answers "access denied" for a database that is missing too, so as not to reveal which
            message = where + "database '" + url.path() + "' does not exist or this user may not read it: " + driver;
        } else if (state.equals("42501") || e.getErrorCode() == 1142 || e.getErrorCode() == 1143
                || e.getErrorCode() == 1356) {
            message = where + "permission denied" + (table == null ? "" : " on table " + table.schema() + "."
                    + table.name()) + ": " + driver;
        } else {
            message = where + (table == null ? "" : "table " + table.schema() + "." + table.name() + ": ") + driver;
        }
        LOG.debug("{} failed: SQLState {}, code {}", dialect.label(), state, e.getErrorCode());
        return new IllegalArgumentException(credentials.redact(FileSupport.clip(message)));
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? null : t;
    }
}
