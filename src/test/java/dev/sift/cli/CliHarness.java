package dev.sift.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.llm.LlmConfig;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the {@code sift} command line in-process ({@link Main#run(PrintWriter, PrintWriter, String...)}) and
 * captures stdout, stderr and the exit code. Each test class gets its own Sift home via the {@code sift.home}
 * system property, with the demo dataset {@code bank} built small so no test triggers the full-size build.
 */
final class CliHarness {
    static final String HOME_PROPERTY = "sift.home";
    static final String SMALL_SCALE = "0.02";
    private static final ObjectMapper JSON = new ObjectMapper();

    private CliHarness() { }

    /** What one command printed and returned. */
    record Result(int exit, String out, String err) {
        /** Non-blank stderr lines. */
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }

        /** Stdout parsed as one JSON value (fails when it is not exactly one). */
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not JSON: " + out, e);
            }
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(exit, out.toString(), err.toString());
    }

    /** Runs and asserts exit 0, returning the result. */
    static Result ok(String... args) {
        Result r = run(args);
        assertThat(r.exit()).as("exit code of sift %s%n%s", String.join(" ", args), r).isZero();
        return r;
    }

    /** Runs and asserts a usage/input error: exit 2 and exactly one stderr line starting "sift: error:". */
    static String usageError(String... args) {
        Result r = run(args);
        assertThat(r.exit()).as("exit code of sift %s%n%s", String.join(" ", args), r).isEqualTo(Main.USAGE_ERROR);
        assertThat(r.errLines()).as("stderr of sift %s", String.join(" ", args)).hasSize(1);
        assertThat(r.errLines().get(0)).startsWith("sift: error: ");
        return r.errLines().get(0);
    }

    /** Points {@code sift.home} at {@code home} (a fresh folder per test class). */
    static void useHome(Path home) {
        System.setProperty(HOME_PROPERTY, home.toString());
    }

    static void clearHome() {
        System.clearProperty(HOME_PROPERTY);
    }

    /** Builds the demo dataset {@code bank} at a small scale in the current home (seconds, not the 20 s default). */
    static void loadSmallBank() {
        Result r = ok("load", "bank", "--scale", SMALL_SCALE);
        assertThat(r.out()).contains("dataset 'bank'");
    }

    /** Tests of {@code ask} must plan offline: skip them when the environment configures a model. */
    static void assumeOffline() {
        boolean enabled;
        try {
            enabled = LlmConfig.fromEnv(System.getenv()).enabled();
        } catch (IllegalArgumentException e) {
            enabled = true; // a misconfigured model: ask would fail on it, not run offline
        }
        Assumptions.assumeFalse(enabled, "An LLM is configured in the environment (SIFT_LLM_* or"
                + " OPENAI_API_KEY/ANTHROPIC_API_KEY); these CLI tests need the offline planner, so they are skipped.");
    }

    static Path datasetsDir(Path home) {
        return home.resolve("datasets");
    }

    /** One scalar from a dataset file, read directly over JDBC (read-only), independent of the CLI. */
    static long count(Path home, String dataset, String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + datasetsDir(home).resolve(dataset + ".duckdb"), ro);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            return rs.getLong(1);
        }
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    /** File names in the store folder (empty when it does not exist). */
    static List<String> storeFiles(Path home) throws IOException {
        Path dir = datasetsDir(home);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
