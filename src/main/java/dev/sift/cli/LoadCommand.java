package dev.sift.cli;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.source.BankGenerator;
import dev.sift.data.source.ColumnType;
import dev.sift.data.source.FileLoader;
import dev.sift.data.source.PkddLoader;
import dev.sift.data.source.ShopGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "load", description = {
        "Build a dataset (once; rebuilt only when its sources change).",
        "  sift load NAME FILE...          one table per CSV/TSV/Parquet/JSON(L) file",
        "  sift load pkdd --from DIR       the PKDD'99 Financial .asc files",
        "  sift load bank [--scale X]      the synthetic demo bank",
        "  sift load shop [--seed N]       a generated shop as CSV files (customers, orders, products)"})
final class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "dataset name, or pkdd / bank")
    String name;

    @Parameters(index = "1..*", paramLabel = "FILE", description = "data files, one table each")
    List<Path> files = List.of();

    @Option(names = "--from", paramLabel = "DIR", description = "folder of the PKDD'99 .asc files (with pkdd)")
    Path from;

    @Option(names = "--name", description = "store under this name instead (with pkdd or bank)")
    String as;

    @Option(names = "--scale", description = "size of the demo bank; 1.0 is about 1M transactions (with bank)")
    Double scale;

    @Option(names = "--seed", description = "random seed of the demo bank (with bank)")
    Long seed;

    @Option(names = "--types", paramLabel = "TABLE.COLUMN=KIND[:FORMAT]", description = "a column's type, e.g."
            + " orders.order_date=date:%d/%m/%Y (kinds: date, timestamp, number, text; formats separated by '|'); repeatable")
    List<String> types = List.of();

    @Override
    public Integer call() throws Exception {
        DatasetBuilder builder;
        String target = name;
        if (from != null) {
            if (!name.equals("pkdd") || !files.isEmpty()) {
                throw new IllegalArgumentException("--from DIR goes with 'sift load pkdd --from DIR' (no files).");
            }
            builder = new PkddLoader(from);
        } else if (name.equals("pkdd") && files.isEmpty()) {
            throw new IllegalArgumentException("sift load pkdd needs --from DIR: the folder with account.asc, loan.asc, …");
        } else if (name.equals("bank") && files.isEmpty()) {
            builder = new BankGenerator(scale == null ? BankGenerator.DEFAULT_SCALE : scale,
                    seed == null ? BankGenerator.DEFAULT_SEED : seed);
        } else if (name.equals("shop") && files.isEmpty()) {
            builder = new ShopGenerator(seed == null ? ShopGenerator.DEFAULT_SEED : seed);
        } else {
            if (files.isEmpty()) {
                throw new IllegalArgumentException("No files given: sift load " + name + " FILE... (CSV, TSV, Parquet, JSON or JSONL).");
            }
            if (scale != null || seed != null || as != null) {
                throw new IllegalArgumentException("--scale, --seed and --name go with 'pkdd' or 'bank' only.");
            }
            builder = new FileLoader(files, ColumnType.parseAll(types));
        }
        if (as != null) {
            target = as;
        }
        DatasetStore store = DatasetStore.defaultStore();
        DatasetStore.checkName(target);
        Optional<Dataset> before = store.find(target);
        Dataset ds = store.ensure(target, builder, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + target + "'"));
        boolean rebuilt = before.isEmpty() || !before.get().builtAt().equals(ds.builtAt());
        var out = spec.commandLine().getOut();
        out.println((rebuilt ? "Built" : "Up to date:") + " dataset '" + ds.name() + "' — " + ds.description());
        ds.tables().forEach(t -> out.printf("  %-12s %,d rows%n", t.name(), t.rows()));
        var report = store.loadReport(ds.name());
        if (!report.isEmpty()) {
            out.println("Load report:");
            report.lines().forEach(l -> out.println("  " + l));
        }
        out.flush();
        return 0;
    }
}
