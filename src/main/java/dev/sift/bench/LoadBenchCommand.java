package dev.sift.bench;

import dev.sift.cli.Runtime;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "load", description = {
        "Rows per second loading the same generated table from a CSV file (DuckDB's reader, the baseline), through",
        "Sift's file loader, from a SQLite file and from PostgreSQL, with the ratio and the peak heap of each load",
        "(the median of --repeat runs, taken in rounds).",
        "  sift bench load [--rows N] [--repeat 3] [--postgres postgresql://user@host:port/db]   (password from PGPASSWORD)"})
final class LoadBenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    RowsOption rows = new RowsOption();

    @Option(names = "--postgres", paramLabel = "URL", description = "a PostgreSQL server the bench may write to:"
            + " it creates and drops schema " + LoadBench.PG_SCHEMA)
    String postgres;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "runs of each load; the median"
            + " is reported (default: 3)")
    int repeat;

    @Override
    public Integer call() throws Exception {
        new LoadBench(rows.rows(1_000_000), postgres, Runtime.config().settings(), repeat).run(spec.commandLine().getOut());
        return 0;
    }
}
