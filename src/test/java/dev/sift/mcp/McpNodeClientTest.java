package dev.sift.mcp;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second, independent client passes the stdio checks: {@code src/test/node/client.mjs}, on the official TypeScript
 * SDK ({@code @modelcontextprotocol/sdk}, installed there by {@code .ci/run}), drives the real {@code sift mcp}
 * process. Skips, saying why, where Node or the package is missing.
 */
class McpNodeClientTest {
    static final Path DIR = Path.of("src/test/node");

    @Test
    @Timeout(300)
    void the_typescript_sdk_client_initializes_asks_continues_a_clarification_and_is_refused_a_write() throws Exception {
        Assumptions.assumeTrue(nodeRuns(), "node is not installed; skipping the TypeScript SDK client (apt-get install"
                + " nodejs npm)");
        Assumptions.assumeTrue(Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/sdk")),
                "@modelcontextprotocol/sdk is not installed; skipping the TypeScript SDK client (cd src/test/node &&"
                        + " npm ci)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Files.createTempFile("sift-mcp-node", ".log");
        Process p = new ProcessBuilder("node", "client.mjs", java, classPath(), FullBank.home().toString())
                .directory(DIR.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("the Node client finished in time").isTrue();
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("ok initialize", "ok list tools", "ok ask how many loans",
                    "ok clarification and its reply", "ok a write is refused", "ok bad arguments", "all checks passed");
        } finally {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            Files.deleteIfExists(log);
        }
    }

    /** The tests' class path, with every entry absolute (the Node client runs in its own folder). */
    private static String classPath() {
        return String.join(java.io.File.pathSeparator, List.of(System.getProperty("java.class.path")
                .split(java.io.File.pathSeparator)).stream().map(e -> Path.of(e).toAbsolutePath().toString()).toList());
    }

    private static boolean nodeRuns() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
