package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.cli.ConsoleProgress;
import dev.sift.cli.Runtime;
import dev.sift.agent.AgentConfig;
import dev.sift.bench.BenchReport;
import dev.sift.bench.BenchRunner;
import dev.sift.bench.Suite;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/** {@code sift bench run --suite FILE}: runs a question suite with the configured planner and writes the reports. */
final class SuiteRun {
    private final Path suiteFile;
    private final String dataset;
    private final ReportDirOption outDir;
    private final int limit;

    private final dev.sift.cli.KgFileOption kg;

    SuiteRun(Path suiteFile, String dataset, ReportDirOption outDir, int limit, dev.sift.cli.KgFileOption kg) {
        this.kg = kg;
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
        Dataset ds;
        Optional<Dataset> found = sift.store().find(name);
        if (found.isPresent()) {
            ds = found.get();
        } else if (name.equals(Sift.DEMO_DATASET)) {
            ds = sift.dataset(name, new ConsoleProgress(err, "Building dataset '" + name + "'"));
        } else if (name.equals("shop")) { // generated from a fixed seed, like the demo bank
            ds = sift.store().ensure(name, new dev.sift.data.source.ShopGenerator(dev.sift.data.source.ShopGenerator.DEFAULT_SEED),
                    new ConsoleProgress(err, "Building dataset '" + name + "'"));
        } else {
            out.println("Skipped suite " + suite.name() + ": dataset '" + name + "' is not built in "
                    + sift.store().root() + "." + (suite.buildHint() == null ? "" : " Build it with: " + suite.buildHint()));
            out.flush();
            return 0;
        }
        Path dir = outDir.resolve(suite.name());
        BenchReport report = new BenchRunner(sift, AgentConfig.defaults()).run(suite, ds, limit, err);
        report.write(dir);
        report.printSummary(out);
        out.println("Reports: " + dir.resolve("report.json") + ", " + dir.resolve("report.md"));
        out.flush();
        return 0;
    }
}
