package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.bench.AnalysisBench;
import dev.sift.bench.OverheadBench;
import dev.sift.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "bench", description = "Benchmarks that print numbers. Suites: overhead, analysis.")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SUITE", description = "overhead or analysis")
    String suite;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--repeat", description = "runs per measurement (default: 20 for overhead, 3 for analysis)")
    Integer repeat;

    @Override
    public Integer call() throws Exception {
        if (!suite.equals("overhead") && !suite.equals("analysis")) {
            throw new IllegalArgumentException("Unknown bench suite '" + suite + "'. Suites: overhead, analysis.");
        }
        int repeat = this.repeat != null ? this.repeat : suite.equals("analysis") ? 3 : 20;
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        var out = spec.commandLine().getOut();
        if (suite.equals("analysis")) {
            out.println("Analysis bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
            new AnalysisBench(sift, ds, repeat).run(out);
            return 0;
        }
        out.println("Overhead bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
        new OverheadBench(sift, ds, repeat).run(out);
        return 0;
    }
}
