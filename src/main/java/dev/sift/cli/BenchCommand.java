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

@Command(name = "bench", description = "Benchmarks that print numbers. Suites: overhead, serve.")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SUITE", description = "overhead or serve")
    String suite;

    @Option(names = "--dataset", defaultValue = Sift.DEMO_DATASET, description = "dataset (default: ${DEFAULT-VALUE})")
    String dataset;

    @Option(names = "--repeat", defaultValue = "20", description = "runs per measurement (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--sessions", defaultValue = "32", description = "serve: concurrent sessions (default: ${DEFAULT-VALUE})")
    int sessions;

    @Option(names = "--questions", defaultValue = "4", description = "serve: questions per session (default: ${DEFAULT-VALUE})")
    int questions;

    @Override
    public Integer call() throws Exception {
        if (suite.equals("serve")) {
            return serve();
        }
        if (!suite.equals("overhead")) {
            throw new IllegalArgumentException("Unknown bench suite '" + suite + "'. Suites: overhead, serve.");
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

    private int serve() throws Exception {
        if (sessions < 1 || questions < 1) {
            throw new IllegalArgumentException("--sessions and --questions must be at least 1");
        }
        Sift sift = Runtime.offline();
        sift.dataset(Sift.DEMO_DATASET, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset 'bank'"));
        dev.sift.bench.ServeBench bench = new dev.sift.bench.ServeBench(sift, sessions, questions);
        dev.sift.bench.ServeBench.Result r = bench.run();
        bench.print(r, spec.commandLine().getOut());
        return r.errors() == 0 ? 0 : 1;
    }
}
