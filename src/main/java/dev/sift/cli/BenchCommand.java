package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.bench.OverheadBench;
import dev.sift.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "bench", description = "Benchmarks that print numbers: 'overhead', or 'run --suite FILE' (a question suite).")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BENCH", description = "overhead | run")
    String suite;

    @Option(names = "--dataset", description = "dataset (default: the suite's dataset; bank for overhead)")
    String dataset;

    @Option(names = "--suite", paramLabel = "FILE", description = "run: the suite file (YAML), e.g. bench/bank.yaml")
    java.nio.file.Path suiteFile;

    @Option(names = "--out", paramLabel = "DIR", description = "run: where report.json and report.md go"
            + " (default: $SIFT_HOME/bench/<suite>-<time>)")
    java.nio.file.Path outDir;

    @Option(names = "--limit", defaultValue = "0", description = "run: only the first N items (default: all)")
    int limit;

    @Option(names = "--repeat", defaultValue = "20", description = "runs per measurement (default: ${DEFAULT-VALUE})")
    int repeat;

    @Override
    public Integer call() throws Exception {
        if (suite.equals("run")) {
            return new SuiteRun(suiteFile, dataset, outDir, limit).call(spec.commandLine().getOut(),
                    spec.commandLine().getErr());
        }
        if (!suite.equals("overhead")) {
            throw new IllegalArgumentException("Unknown bench '" + suite + "'. Benches: overhead, run --suite FILE.");
        }
        if (dataset == null) {
            dataset = Sift.DEMO_DATASET;
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        var out = spec.commandLine().getOut();
        out.println("Overhead bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
        new OverheadBench(sift, ds, repeat).run(out);
        return 0;
    }
}
