package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.bench.AnalysisBench;
import dev.sift.bench.MlBench;
import dev.sift.bench.OverheadBench;
import dev.sift.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "bench", description = "Benchmarks that print numbers. Suites: overhead, ml, analysis.")
final class BenchCommand implements Callable<Integer> {
    static final List<String> SUITES = List.of("overhead", "ml", "analysis");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SUITE", description = "overhead, ml or analysis")
    String suite;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--repeat", description = "runs per measurement (default: 20 for overhead, 3 for analysis)")
    Integer repeat;

    @Override
    public Integer call() throws Exception {
        if (!SUITES.contains(suite)) {
            throw new IllegalArgumentException("Unknown bench suite '" + suite + "'. Suites: "
                    + String.join(", ", SUITES) + ".");
        }
        int repeat = this.repeat != null ? this.repeat : suite.equals("analysis") ? 3 : 20;
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        var out = spec.commandLine().getOut();
        switch (suite) {
            case "ml" -> {
                out.println("ML bench (synthetic, deterministic; workspace on dataset '" + ds.name() + "')");
                new MlBench(ds, 100_000, 1_000_000).run(out);
            }
            case "analysis" -> {
                out.println("Analysis bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
                new AnalysisBench(sift, ds, repeat).run(out);
            }
            default -> {
                out.println("Overhead bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
                new OverheadBench(sift, ds, repeat).run(out);
            }
        }
        return 0;
    }
}
