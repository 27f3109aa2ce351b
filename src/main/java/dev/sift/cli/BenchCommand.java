package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.bench.LinkingBench;
import dev.sift.bench.OverheadBench;
import dev.sift.bench.ToolsBench;
import dev.sift.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "bench", description = "Benchmarks that print numbers. Suites: overhead, linking, tools.")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SUITE", description = "overhead, linking or tools")
    String suite;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--repeat", defaultValue = "20", description = "runs per measurement (default: ${DEFAULT-VALUE})")
    int repeat;

    @Override
    public Integer call() throws Exception {
        var out = spec.commandLine().getOut();
        if (suite.equals("linking")) {
            LinkingBench b = new LinkingBench(LinkingBench.QUESTIONS);
            b.print(b.run(), out);
            return 0;
        }
        if (suite.equals("tools")) {
            ToolsBench b = new ToolsBench();
            b.print(b.run(), out);
            return 0;
        }
        if (!suite.equals("overhead")) {
            throw new IllegalArgumentException("Unknown bench suite '" + suite + "'. Suites: overhead, linking, tools.");
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(dataset, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + dataset + "'"));
        out.println("Overhead bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
        new OverheadBench(sift, ds, repeat).run(out);
        return 0;
    }
}
