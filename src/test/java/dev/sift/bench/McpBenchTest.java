package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.session.SessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class McpBenchTest {
    @TempDir
    Path home;

    @Test
    @Timeout(120)
    void concurrent_mcp_clients_all_get_answers_and_leave_no_sessions_behind() throws Exception {
        Dataset bank = TestDatasets.bank();
        Path datasets = Files.createDirectories(home.resolve("datasets"));
        Files.copy(bank.file(), datasets.resolve("bank.duckdb"));
        Files.copy(bank.file().resolveSibling("bank.json"), datasets.resolve("bank.json"));
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());

        McpBench bench = new McpBench(sift, 4, 2);
        ServeBench.Result r = bench.run();

        assertThat(r.errors()).as(String.join("\n", r.firstErrors())).isZero();
        assertThat(r.latenciesMillis()).hasSize(8);
        assertThat(r.percentile(50)).isLessThanOrEqualTo(r.percentile(95));
        assertThat(new SessionStore(home.resolve("sessions")).list()).isEmpty();
        StringWriter out = new StringWriter();
        bench.print(r, new PrintWriter(out));
        assertThat(out.toString()).contains("4 concurrent MCP clients × 2 ask calls", "ask calls answered: 8, errors: 0");
    }
}
