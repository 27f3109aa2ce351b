package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import dev.sift.session.SessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ServeBenchTest {
    @TempDir
    Path home;

    @Test
    void concurrent_sessions_all_get_answers_and_leave_no_sessions_behind() throws Exception {
        Dataset bank = TestDatasets.bank();
        Path datasets = Files.createDirectories(home.resolve("datasets"));
        Files.copy(bank.file(), datasets.resolve("bank.duckdb"));
        Files.copy(bank.file().resolveSibling("bank.json"), datasets.resolve("bank.json"));
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());

        ServeBench bench = new ServeBench(sift, java.util.List.of(4), 4);
        java.util.List<ServeBench.Round> rounds = bench.run();
        ServeBench.Result r = rounds.get(0).result();

        assertThat(r.errors()).as(String.join("\n", r.firstErrors())).isZero();
        assertThat(r.latenciesMillis()).hasSize(16);
        assertThat(r.percentile(50)).isLessThanOrEqualTo(r.percentile(95));
        assertThat(new SessionStore(home.resolve("sessions")).list()).isEmpty();
        StringWriter out = new StringWriter();
        bench.print(rounds, new PrintWriter(out));
        assertThat(out.toString()).contains("concurrent sessions × 4 questions each", "target at 32 sessions: 0 errors, p95 ≤ 1000 ms");
        assertThat(out.toString().lines().filter(l -> l.matches("\\s+4\\s+16\\s+0\\s.*"))).hasSize(1);
        assertThat(rounds.get(0).openMillis()).hasSize(4);
        assertThat(rounds.get(0).gateQueries()).isPositive();
    }
}
