package dev.sift.data.source;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private MariaDB server for tests: Debian's {@code mariadb-server} binaries, a fresh data folder, a free
 * loopback port, started and stopped by the test class. Tests are skipped (with the way to get it) when the
 * binaries are not installed.
 */
final class TestMariaDb implements AutoCloseable {
    private static final List<Path> SERVERS = List.of(Path.of("/usr/sbin/mariadbd"), Path.of("/usr/sbin/mysqld"));
    private static final List<Path> INSTALLERS = List.of(Path.of("/usr/bin/mariadb-install-db"),
            Path.of("/usr/bin/mysql_install_db"));

    private final Process process;
    private final Path dir;
    private final int port;

    private TestMariaDb(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Starts a server, or skips the calling tests when MariaDB is not installed. */
    static TestMariaDb startOrSkip() throws Exception {
        Path server = SERVERS.stream().filter(Files::isExecutable).findFirst().orElse(null);
        Path installer = INSTALLERS.stream().filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(server != null && installer != null,
                "MariaDB server not installed: apt-get install mariadb-server (CI's .ci/run installs it)");
        Path dir = Files.createTempDirectory("sift-mariadb");
        Path data = dir.resolve("data");
        run(List.of(installer.toString(), "--no-defaults", "--datadir=" + data, "--user=" + user(),
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        int port = SourceTestSupport.freePort();
        Process p = new ProcessBuilder(server.toString(), "--no-defaults", "--datadir=" + data, "--user=" + user(),
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"), "--innodb-buffer-pool-size=64M",
                "--log-error=" + dir.resolve("error.log"))
                .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        TestMariaDb db = new TestMariaDb(p, dir, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection c = db.root()) {
                return db;
            } catch (SQLException e) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    db.close();
                    throw new IllegalStateException("MariaDB did not start: see " + dir.resolve("error.log"), e);
                }
                Thread.sleep(200);
            }
        }
    }

    private static String user() {
        return System.getProperty("user.name");
    }

    private static void run(List<String> cmd, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("mariadb-install-db failed: " + Files.readString(log));
        }
    }

    int port() {
        return port;
    }

    Connection root() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?user=root&connectTimeout=2000");
    }

    void exec(String... sql) throws SQLException {
        try (Connection c = root(); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    @Override
    public void close() throws IOException {
        SourceTestSupport.stop(process, dir);
    }
}
