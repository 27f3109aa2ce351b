package dev.sift.bench;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class LoadMemoryCheckTest {
    @Test
    void a_sqlite_table_loads_in_a_child_jvm_under_the_heap_and_duckdb_caps() throws Exception {
        StringWriter text = new StringWriter();
        int code = new LoadMemoryCheck(70_000, "128m", "256MB").run(new PrintWriter(text));
        assertThat(text.toString()).contains("loading it in a JVM with -Xmx128m, DuckDB memory_limit 256MB")
                .containsPattern("  loaded 70,000 rows in [0-9.]+ s; heap peak [0-9]+ MB of [0-9]+ MB; peak resident memory ")
                .endsWith("  bounded: the load finished under the caps\n");
        assertThat(code).isZero();
    }
}
