package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.cli.ConsoleProgress;
import dev.sift.cli.Runtime;
import dev.sift.agent.AgentConfig;
import dev.sift.bench.BenchReport;
import dev.sift.bench.BenchRunner;
import dev.sift.bench.suite.Suite;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code sift bench run --suite FILE}: runs a question suite with the configured planner and writes the reports. */
final class SuiteRun {
    private final Path suiteFile;
    private final String dataset;
    private final ReportDirOption outDir;
    private final int limit;

    private final dev.sift.cli.KgFileOption kg;
    private final int repeat;
    /** {@code postgres} or {@code spark}: answer on a live copy of the dataset on that engine, scored against DuckDB's gold; null: on DuckDB. */
    private final String engine;
    private final boolean includePredictive;

    SuiteRun(Path suiteFile, String dataset, ReportDirOption outDir, int limit, dev.sift.cli.KgFileOption kg, int repeat,
             String engine, boolean includePredictive) {
        this.includePredictive = includePredictive;
        this.kg = kg;
        this.engine = engine;
        this.repeat = repeat;
        this.suiteFile = suiteFile;
        this.dataset = dataset;
        this.outDir = outDir;
        this.limit = limit;
    }

    int call(PrintWriter out, PrintWriter err) throws Exception {
        if (suiteFile == null) {
            throw new IllegalArgumentException("bench run needs --suite FILE, e.g. ./sift bench run --suite bench/bank.yaml");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("--limit must be at least 0, got " + limit);
        }
        Suite suite = Suite.load(suiteFile);
        String name = dataset == null ? suite.dataset() : dataset;
        Sift sift = Runtime.sift();
        kg.apply(sift, name);
        Optional<Dataset> built = dataset(sift, name, err);
        if (built.isEmpty()) {
            out.println("Skipped suite " + suite.name() + ": dataset '" + name + "' is not built in "
                    + sift.store().root() + "." + (suite.buildHint() == null ? "" : " Build it with: " + suite.buildHint()));
            out.flush();
            return 0;
        }
        Dataset ds = built.get();
        if (suite.fingerprint() != null && !suite.fingerprint().equals(ds.fingerprint())) {
            throw new IllegalArgumentException(suiteFile + " was generated from dataset '" + name + "' with fingerprint "
                    + suite.fingerprint() + ", but '" + name + "' now has fingerprint " + ds.fingerprint()
                    + ": its gold answers may no longer hold. Generate it again: ./sift bench datagen --dataset " + name
                    + " --out " + suiteFile);
        }
        try (LiveCopy live = engine == null ? null : LiveCopy.of(engine, ds, err)) {
            return run(suite, ds, live, out, err);
        }
    }

    private int run(Suite suite, Dataset ds, LiveCopy live, PrintWriter out, PrintWriter err) throws Exception {
        Sift sift = Runtime.sift();
        Path dir = outDir.resolve(suite.name() + (live == null ? "" : "-" + engine));
        BenchRunner runner = new BenchRunner(sift, AgentConfig.defaults()).includePredictive(includePredictive);
        List<BenchReport> runs = new ArrayList<>();
        for (int i = 1; i <= repeat; i++) {
            if (repeat > 1) {
                err.printf("Run %d of %d%n", i, repeat);
            }
            runs.add(live == null ? runner.run(suite, ds, limit, err) : runner.run(suite, ds, live.dataset(), limit, err));
        }
        BenchReport report = runs.get(runs.size() - 1);
        report.write(dir);
        report.printSummary(out);
        if (live != null) { // the same items on DuckDB, so the engine's outcomes can be compared item for item
            err.println("The same items on DuckDB, for parity:");
            EngineParity.of(report, runner.run(suite, ds, limit, err), engine).print(out, engine);
        }
        if (repeat > 1) {
            Repeats repeats = new Repeats(runs);
            repeats.print(out);
            repeats.write(dir);
        }
        out.println("Reports: " + dir.resolve("report.json") + ", " + dir.resolve("report.md")
                + (repeat > 1 ? ", " + dir.resolve("repeats.json") + " (the last run's report, and every run's figures)" : ""));
        out.flush();
        return 0;
    }

    /** The named dataset, built first when it is the demo bank or the shop example (both made from a fixed seed). */
    static Optional<Dataset> dataset(Sift sift, String name, PrintWriter err) throws Exception {
        Optional<Dataset> found = sift.store().find(name);
        if (found.isPresent()) {
            return found;
        }
        if (name.equals(Sift.DEMO_DATASET)) {
            return Optional.of(sift.dataset(name, new ConsoleProgress(err, "Building dataset '" + name + "'")));
        }
        if (name.equals("shop")) {
            return Optional.of(sift.store().ensure(name, new dev.sift.data.source.ShopGenerator(
                    dev.sift.data.source.ShopGenerator.DEFAULT_SEED), new ConsoleProgress(err, "Building dataset '" + name + "'")));
        }
        return Optional.empty();
    }
}
