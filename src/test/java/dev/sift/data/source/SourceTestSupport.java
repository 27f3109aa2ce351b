package dev.sift.data.source;

import dev.sift.data.Progress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the source tests share: loading a source into an in-memory DuckDB and reading it back, free loopback ports,
 * stopping a test server's process, and the checks every network source must pass when its server is not there.
 */
final class SourceTestSupport {
    private SourceTestSupport() { }

    /** The source loaded (after its fingerprint, as a build does) into a fresh in-memory DuckDB. */
    static Connection loadIntoMemory(Source s) throws Exception {
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        s.fingerprint();
        s.load(duck, "main", Progress.NONE);
        return duck;
    }

    /** column → DuckDB type of {@code table}. */
    static Map<String, String> types(Connection duck, String table) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE " + table)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** The first row of {@code sql}, every value as text. */
    static List<String> row(Connection duck, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(rs.getString(i));
            }
        }
        return out;
    }

    /** A loopback port nothing listens on (free a moment ago). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops a test server's process (forcibly when it does not stop in 30 s) and removes its folder. */
    static void stop(Process process, Path dir) throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /**
     * A refused connection is one line naming host and port, and a server that accepts but never answers times out
     * (connect_timeout=1) instead of hanging. {@code scheme} as in the URL, {@code label} as the error names it.
     */
    static void assertUnreachableServersAreOneLine(String scheme, String label) throws Exception {
        int port = freePort();
        String refused = scheme + "://reader@127.0.0.1:" + port + "/shop";
        assertThatThrownBy(() -> NetworkSources.open(refused, Map.of(), Map.of()).orElseThrow().fingerprint())
                .hasMessage(label + " " + refused + ": cannot connect to 127.0.0.1:" + port + " (Connection refused)");
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String u = scheme + "://reader@127.0.0.1:" + silent.getLocalPort() + "/shop?connect_timeout=1";
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> NetworkSources.open(u, Map.of(), Map.of()).orElseThrow().fingerprint())
                    .hasMessageStartingWith(label + " " + u + ": cannot connect to 127.0.0.1:" + silent.getLocalPort());
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(8);
        }
    }
}
