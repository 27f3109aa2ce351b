package dev.sift.data.source;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * What differs between the SQL servers {@link JdbcSource} reads: how to connect, where the tables are, and
 * how each column type maps to DuckDB. Everything else (streaming, fingerprint, errors) is shared.
 */
interface JdbcDialect {
    /** "PostgreSQL", "MySQL/MariaDB": names the source in messages. */
    String label();

    int defaultPort();

    /** The driver's usual password variable ({@code PGPASSWORD}), or null. */
    String standardPasswordEnv();

    /** The JDBC URL for {@code url} (no credentials in it). */
    String jdbcUrl(SourceUrl url);

    /** Connection properties: credentials, timeouts, read-only and streaming settings. */
    Properties properties(SourceUrl url, Credentials credentials, int connectTimeoutSeconds);

    /** The schemas to read: those the URL names, else the default; unknown ones are an error listing those there are. */
    List<String> schemas(Connection c, SourceUrl url) throws SQLException;

    /** Tables and views of {@code schema}, sorted. */
    List<String> tables(Connection c, String schema) throws SQLException;

    /** The table's columns with their mapping; columns that have no mapping carry a note. */
    SourceTable table(Connection c, String schema, String name) throws SQLException;

    /** An identifier quoted for this server's SQL. */
    String quote(String identifier);

    /** Query keys of a source URL that Sift reads itself; any other key goes to the driver. */
    java.util.Set<String> OWN_KEYS = java.util.Set.of("schema", JdbcSource.CONNECT_TIMEOUT, "user", "password");

    /** {@code jdbc:<scheme>://host:port/path}, an IPv6 host in brackets. */
    default String jdbcUrl(String scheme, SourceUrl url) {
        String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
        return "jdbc:" + scheme + "://" + host + ":" + url.port(defaultPort()) + "/" + url.path();
    }

    /** The URL's driver keys and the credentials, the part of {@link #properties} every server shares. */
    static Properties driverProperties(SourceUrl url, Credentials credentials) {
        Properties p = new Properties();
        url.query().forEach((k, v) -> {
            if (!OWN_KEYS.contains(k)) {
                p.setProperty(k, v);
            }
        });
        credentials.user().ifPresent(u -> p.setProperty("user", u));
        credentials.password().ifPresent(pw -> p.setProperty("password", pw));
        return p;
    }

    /** Prepares {@code c} for reading a large result a batch at a time. */
    default void stream(Connection c) throws SQLException {
    }

    /** Reads a TIMESTAMPTZ value as its instant; drivers send them in their own way. */
    default JdbcBatches.Reader instant() {
        return JdbcBatches::offsetDateTime;
    }
}
