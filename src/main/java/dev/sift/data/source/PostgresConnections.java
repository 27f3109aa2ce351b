package dev.sift.data.source;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * Opens a JDBC connection to a {@code postgresql://} location with the same URL parsing, credential lookup
 * ({@link Credentials}), connect timeout and one-line, secret-free errors as the PostgreSQL source, for code
 * that works on a live server rather than copying it (live engines, benchmarks).
 */
public final class PostgresConnections {
    private PostgresConnections() { }

    /**
     * A connection (auto-commit, writable: callers that must not write set read-only themselves).
     *
     * @throws IllegalArgumentException one line naming the server (password masked) when it cannot be reached
     */
    public static Connection open(String location, Map<String, String> options, Map<String, String> env) {
        SourceUrl url = SourceUrl.parse(location);
        if (!url.scheme().equals("postgresql") && !url.scheme().equals("postgres")) {
            throw new IllegalArgumentException("'" + url.masked() + "' is not a postgresql:// URL");
        }
        JdbcSource source = new JdbcSource(new PostgresDialect(), url, options, env);
        try {
            return DriverManager.getConnection(source.jdbcUrl(), source.connectionProperties());
        } catch (SQLException e) {
            throw source.failure(e, null);
        }
    }
}
