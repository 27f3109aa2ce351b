package dev.sift.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "load-memory", description = {
        "Checks that a large source loads in bounded memory: N rows (default 10M) written to a SQLite file and",
        "loaded through the SQLite source in a JVM with a capped heap and a DuckDB memory limit; prints peak heap",
        "and resident memory. Not a timing.",
        "  sift bench load-memory [--rows N] [--heap 256m] [--duckdb-memory 512MB]"})
final class LoadMemoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    RowsOption rows = new RowsOption();

    @Option(names = "--heap", defaultValue = "256m", description = "the loading JVM's -Xmx (default: ${DEFAULT-VALUE})")
    String heap;

    @Option(names = "--duckdb-memory", defaultValue = "512MB", description = "DuckDB's memory_limit while loading"
            + " (default: ${DEFAULT-VALUE})")
    String duckMemory;

    @Override
    public Integer call() throws Exception {
        return new LoadMemoryCheck(rows.rows(10_000_000), heap, duckMemory).run(spec.commandLine().getOut());
    }
}
