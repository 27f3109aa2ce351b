package dev.sift.bench;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadBenchTest {
    @Test
    void every_load_is_run_the_asked_number_of_times_and_its_median_is_reported_beside_each_run() throws Exception {
        StringWriter text = new StringWriter();
        List<LoadBench.Result> results = new LoadBench(3_000, null, Map.of(), 3).run(new PrintWriter(text));
        assertThat(results).extracting(LoadBench.Result::name).containsExactly("DuckDB read_csv (baseline)",
                "Sift file loader (read_csv + type checks)", "SQLite → DuckDB (sqlite-jdbc + Arrow)",
                "PostgreSQL → DuckDB (JDBC + Arrow)");
        assertThat(results.subList(0, 3)).allSatisfy(r -> assertThat(r.rows()).isEqualTo(3_000));
        assertThat(results.get(3).skipped()).startsWith("pass --postgres ");
        String out = text.toString();
        assertThat(out).startsWith("Load bench: 3,000 rows (id, k, amount, label, day, ts, flag), CSV ")
                .contains(", median of 3 runs each\n")
                .containsPattern("SQLite → DuckDB \\(sqlite-jdbc \\+ Arrow\\) +[0-9.]+ s \\(cpu +[0-9.]+ s\\).*× the CSV time"
                        + ".*  runs [0-9.]+ / [0-9.]+ / [0-9.]+ s\n");
    }

    @Test
    void the_median_takes_wall_and_cpu_times_apart_and_the_highest_heap() {
        LoadBench.Result median = LoadBench.median(List.of(new LoadBench.Result("x", 10, 3.0, 1.0, 5, null),
                new LoadBench.Result("x", 10, 1.0, 9.0, 7, null), new LoadBench.Result("x", 10, 2.0, 2.0, 6, null)));
        assertThat(median).isEqualTo(new LoadBench.Result("x", 10, 2.0, 2.0, 7, null));
        assertThat(LoadBench.median(List.of(new LoadBench.Result("y", 1, 1.0, 1.0, 1, null),
                new LoadBench.Result("y", 1, 2.0, 3.0, 1, null))).seconds()).isEqualTo(1.5);
    }

    @Test
    void fewer_than_one_run_or_row_is_refused_with_the_option_named() {
        assertThatThrownBy(() -> new LoadBench(10, null, Map.of(), 0)).hasMessage("--repeat must be at least 1, got 0");
        assertThatThrownBy(() -> new LoadBench(0, null, Map.of(), 3)).hasMessage("--rows must be at least 1, got 0");
    }
}
