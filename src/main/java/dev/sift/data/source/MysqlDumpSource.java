package dev.sift.data.source;

import dev.sift.data.Progress;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A MySQL or MariaDB dump ({@code mysqldump}/{@code mariadb-dump} output, a {@code .sql} file), restored into a
 * MariaDB server that Sift starts for the load alone from the machine's own MariaDB binaries (loopback only, a fresh
 * data directory removed after; a directory a crashed run left is removed, and its server stopped, by the next
 * restore), replayed by MariaDB's own client and copied from there as any MySQL database is ({@link JdbcSource} with
 * {@link MariaDbDialect}): the same types reach DuckDB as from a live server. Every database the dump creates is
 * read, each as a schema.
 */
public final class MysqlDumpSource implements Source {
    static final String VERSION = "mysql-dump-1";
    /** Folders of running restores, in the temporary directory: {@code sift-mysqldump-*}. */
    static final String DIR_PREFIX = "sift-mysqldump-";
    /** The database a dump without {@code CREATE DATABASE}/{@code USE} is replayed into. */
    static final String DEFAULT_DATABASE = "dump";
    private static final List<Path> SERVERS = List.of(Path.of("/usr/sbin/mariadbd"), Path.of("/usr/sbin/mysqld"));
    private static final List<Path> INSTALLERS = List.of(Path.of("/usr/bin/mariadb-install-db"),
            Path.of("/usr/bin/mysql_install_db"));
    private static final List<Path> CLIENTS = List.of(Path.of("/usr/bin/mariadb"), Path.of("/usr/bin/mysql"));
    private static final long START_SECONDS = 60;

    private final Path file;
    private String summary = "";

    MysqlDumpSource(Path file) {
        this.file = file.toAbsolutePath().normalize();
    }

    /** Whether a {@code .sql} file is a MySQL or MariaDB dump: its header, or a backquoted name in its first lines. */
    static boolean isMysqlDump(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String l;
            for (int i = 0; i < 50 && (l = in.readLine()) != null; i++) {
                if (l.startsWith("-- MySQL dump") || l.startsWith("-- MariaDB dump") || l.startsWith("/*!40101 SET")
                        || l.matches("(?i)(CREATE TABLE|INSERT INTO|DROP TABLE IF EXISTS) `.*")) {
                    return true;
                }
                if (l.startsWith("-- PostgreSQL database dump") || l.startsWith("SET statement_timeout")) {
                    return false;
                }
            }
        }
        return false;
    }

    @Override
    public String fingerprint() throws Exception {
        return FileSupport.fingerprint(VERSION, file);
    }

    @Override
    public String describe() {
        return "MySQL dump " + file + (summary.isEmpty() ? "" : " (" + summary + ")");
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        Path server = binary(SERVERS, "server");
        Path installer = binary(INSTALLERS, "server");
        Path client = binary(CLIENTS, "client");
        removeLeftovers();
        progress.report("starting MariaDB to restore " + file.getFileName(), 0, -1);
        Path dir = Files.createTempDirectory(DIR_PREFIX);
        Process process = null;
        try {
            Files.writeString(dir.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
            run(List.of(installer.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--user=" + user(),
                    "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"), "setting up");
            int port = freePort();
            process = new ProcessBuilder(server.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"),
                    "--user=" + user(), "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                    "--pid-file=" + dir.resolve("mysqld.pid"), "--innodb-buffer-pool-size=64M",
                    "--log-error=" + dir.resolve("error.log"))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
            Files.writeString(dir.resolve("server.pid"), Long.toString(process.pid()));
            awaitStart(process, port, dir);
            progress.report("restoring " + file.getFileName(), 0, -1);
            replay(client, port, dir);
            List<String> databases = databases(port);
            summary = databases.size() + (databases.size() == 1 ? " database" : " databases") + " restored: "
                    + String.join(", ", databases);
            SourceUrl url = SourceUrl.parse("mysql://root@127.0.0.1:" + port + "/" + databases.get(0) + "?schema="
                    + String.join(",", databases));
            new JdbcSource(new MariaDbDialect(), url, Map.of(), Map.of()).load(db, schema, progress);
        } finally {
            stop(process, dir);
        }
    }

    private Path binary(List<Path> candidates, String part) {
        return candidates.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "MySQL dump " + file + ": restoring it needs MariaDB's " + part + " on this machine (" + candidates.get(0)
                        + "; apt-get install mariadb-server mariadb-client), or load it into a MySQL server and name that"
                        + " server instead (mysql://user@host:3306/db)"));
    }

    /** MariaDB's client replays the dump as MySQL would: conditional comments, LOCK TABLES, multi-row INSERTs. */
    private void replay(Path client, int port, Path dir) throws IOException, InterruptedException, SQLException {
        try (Connection c = root(port, ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + DEFAULT_DATABASE);
        }
        Path log = dir.resolve("replay.log");
        Process p = new ProcessBuilder(client.toString(), "--no-defaults", "--protocol=tcp", "--host=127.0.0.1",
                "--port=" + port, "--user=root", "--default-character-set=utf8mb4", DEFAULT_DATABASE)
                .redirectInput(file.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        p.waitFor();
        if (p.exitValue() != 0) {
            String out = Files.readString(log).strip();
            String last = out.isEmpty() ? "the client ended with exit code " + p.exitValue() : out.lines().reduce((a, b) -> b).orElse("");
            throw new IllegalArgumentException("MySQL dump " + file + ": " + last);
        }
    }

    /** The databases the dump filled, the default one first when it has tables. */
    private List<String> databases(int port) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = root(port, ""); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT TABLE_SCHEMA FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ('information_schema', 'mysql',"
                        + " 'performance_schema', 'sys') GROUP BY TABLE_SCHEMA ORDER BY TABLE_SCHEMA <> '" + DEFAULT_DATABASE
                        + "', TABLE_SCHEMA")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("MySQL dump " + file + ": it creates no table (a dump without data"
                    + " definitions, or not a mysqldump script?)");
        }
        return out;
    }

    private static Connection root(int port, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/" + database
                + "?user=root&connectTimeout=2000");
    }

    private static void awaitStart(Process p, int port, Path dir) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (true) {
            try (Connection c = root(port, "")) {
                return;
            } catch (SQLException e) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    Path log = dir.resolve("error.log");
                    String tail = Files.exists(log) ? Files.readString(log).strip().lines().reduce((a, b) -> b).orElse("") : "";
                    throw new IllegalStateException("MariaDB did not start for the restore" + (tail.isEmpty() ? "" : ": " + tail), e);
                }
                Thread.sleep(200);
            }
        }
    }

    private static void run(List<String> cmd, Path log, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("MariaDB's " + what + " failed: " + Files.readString(log).strip());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String user() {
        return System.getProperty("user.name");
    }

    /** Stops the server (forcibly after 30 s) and removes its folder. */
    private static void stop(Process process, Path dir) throws IOException {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        delete(dir);
    }

    /** Folders of restores whose Sift is gone (it crashed): their server is stopped and the folder removed. */
    static void removeLeftovers() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, DIR_PREFIX + "*")) {
            for (Path dir : dirs) {
                if (pid(dir.resolve("owner.pid")).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive).isPresent()) {
                    continue;
                }
                pid(dir.resolve("server.pid")).flatMap(ProcessHandle::of).ifPresent(ProcessHandle::destroyForcibly);
                delete(dir);
            }
        }
    }

    private static Optional<Long> pid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
