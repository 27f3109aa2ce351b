package dev.sift.data.source;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
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

    /** The schema read when the URL names none. */
    String defaultSchema(SourceUrl url);

    /** SQL listing the schemas a user may read from, sorted, without the server's own. */
    String schemasSql();

    /** SQL listing the tables and views of the schema given as its one parameter, sorted. */
    String tablesSql();

    /** What an unknown schema may be besides missing, in its error ("" or, say, " or is not readable"). */
    default String schemaMissingReason() {
        return "";
    }

    /** The schemas to read: those the URL names, else the default; unknown ones are an error listing those there are. */
    default List<String> schemas(Connection c, SourceUrl url) throws SQLException {
        List<String> wanted = url.queryList("schema");
        if (wanted.isEmpty()) {
            wanted = List.of(defaultSchema(url));
        }
        List<String> present = firstColumn(c, schemasSql());
        for (String s : wanted) {
            if (!present.contains(s)) {
                throw new IllegalArgumentException(label() + " " + url.masked() + ": schema '" + s + "' does not exist"
                        + schemaMissingReason() + "; schemas: " + String.join(", ", present));
            }
        }
        return wanted;
    }

    /** Tables and views of {@code schema}, sorted. */
    default List<String> tables(Connection c, String schema) throws SQLException {
        return firstColumn(c, tablesSql(), schema);
    }

    /** The first column of {@code sql}'s rows, run with {@code parameters}. */
    private static List<String> firstColumn(Connection c, String sql, String... parameters) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

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
