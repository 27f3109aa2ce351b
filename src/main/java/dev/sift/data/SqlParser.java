package dev.sift.data;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import org.slf4j.LoggerFactory;

/**
 * DuckDB's parser on an in-memory instance of its own with one thread, shared by the guards of one process. On a
 * workspace's instance every query, the guard's parse query too, is handed to its worker threads; here the parse
 * runs on the caller's thread and costs about half as much. The instance holds no data and runs nothing but
 * {@code json_serialize_sql} on text passed as a parameter (never executed); it parses with the workspaces' own
 * expression-depth limit, so its verdicts are theirs. It opens once the process has parsed {@link #OPEN_AFTER}
 * statements and then stays open for the process: a server whose sessions come and go one at a time, or a chat that
 * opens a workspace per turn, would otherwise open it again for each.
 */
public final class SqlParser {
    /**
     * Statements parsed on the workspaces' own connections before the instance opens: a one-shot question parses a
     * few, and opening an instance (about 10 ms) would cost it more than the parses save.
     */
    static final int OPEN_AFTER = 16;
    private final int openAfter;
    private final Opener opener;
    private Connection root;
    private int declined;
    private boolean failed;

    /** Opens the instance's root connection. */
    interface Opener {
        Connection open() throws SQLException;
    }

    public SqlParser() {
        this(OPEN_AFTER);
    }

    /** Opens after {@code openAfter} statements (tests: 0, at once). */
    SqlParser(int openAfter) {
        this(openAfter, SqlParser::open);
    }

    SqlParser(int openAfter, Opener opener) {
        this.openAfter = openAfter;
        this.opener = opener;
    }

    /**
     * A connection of its own for one guard (give it back with {@link #release}), or null while the process has
     * parsed fewer than {@link #OPEN_AFTER} statements or when the instance could not open: parse on the workspace's
     * own connection then.
     */
    synchronized Connection connect() throws SQLException {
        if (root == null) {
            if (declined < openAfter || failed) {
                declined++;
                return null;
            }
            try {
                root = opener.open();
            } catch (SQLException e) { // only slower: the workspaces' own connections parse the same
                failed = true;
                LoggerFactory.getLogger(SqlParser.class).warn("The SQL parser instance could not open; parsing on"
                        + " each workspace's own connection: {}", e.getMessage());
                return null;
            }
        }
        return ((org.duckdb.DuckDBConnection) root).duplicate();
    }

    /** Closes a connection from {@link #connect}; the instance stays open for the next guard. */
    void release(Connection c) {
        Workspace.closeQuietly(c);
    }

    private static Connection open() throws SQLException {
        Properties one = new Properties();
        one.setProperty("threads", "1");
        return SessionDuckDb.inMemory(one, List.of("SET autoinstall_known_extensions = false",
                "SET autoload_known_extensions = false", "SET memory_limit = '256MB'",
                "SET max_expression_depth = " + Workspace.MAX_EXPRESSION_DEPTH, "SET enable_external_access = false",
                "SET lock_configuration = true"));
    }
}
