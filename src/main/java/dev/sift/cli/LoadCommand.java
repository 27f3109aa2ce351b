package dev.sift.cli;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.source.BankGenerator;
import dev.sift.data.source.ColumnType;
import dev.sift.data.source.DatasetSources;
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
        "Build a dataset (once; rebuilt only when its sources change, or with --refresh).",
        "  sift load NAME SOURCE...        a SOURCE is a data file (CSV/TSV/Parquet/JSON(L), one table each),",
        "                                  a SQLite or DuckDB file, a MongoDB dump folder, a URL",
        "                                  (postgresql://, mysql://, mariadb://, mongodb://, s3://),",
        "                                  or a sources file (YAML; DataAgentBench's db_config.yaml too)",
        "  sift load pkdd --from DIR       the PKDD'99 Financial .asc files",
        "  sift load bank [--scale X]      the synthetic demo bank",
        "  sift load shop [--seed N]       a generated shop as CSV files (customers, orders, products)"})
final class LoadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "dataset name, or pkdd / bank")
    String name;

    @Parameters(index = "1..*", paramLabel = "SOURCE", description = "files, database files, dump folders, URLs or one sources file")
    List<String> sources = List.of();

    @Option(names = "--from", paramLabel = "DIR", description = "folder of the PKDD'99 .asc files (with pkdd)")
    Path from;

    @Option(names = "--name", description = "store under this name instead (with pkdd or bank)")
    String as;

    @Option(names = "--scale", description = "size of the demo bank; 1.0 is about 1M transactions (with bank)")
    Double scale;

    @Option(names = "--seed", description = "random seed of the demo bank (with bank)")
    Long seed;

    @Option(names = "--types", paramLabel = "TABLE.COLUMN=KIND[:FORMAT]", description = "a column's type, e.g."
            + " orders.order_date=date:%%d/%%m/%%Y (kinds: date, timestamp, number, text; formats separated by '|'); repeatable")
    List<String> types = List.of();

    @Option(names = "--kg", paramLabel = "FILE", description = "the knowledge file whose 'types' section types columns"
            + " (default: $SIFT_HOME/kg/NAME.kg.yaml when it exists); --types wins for the same column")
    Path kg;

    @Option(names = "--refresh", description = "rebuild even when the sources look unchanged")
    boolean refresh;

    @Option(names = "--replace", description = "replace a dataset of this name built from other sources")
    boolean replace;

    @Override
    public Integer call() throws Exception {
        dev.sift.SiftConfig config = Runtime.config();
        DatasetStore store = DatasetStore.under(config.home());
        var progress = new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + (as == null ? name : as) + "'");
        Optional<Dataset> before;
        Dataset ds;
        if (sources.isEmpty() && (from != null || name.equals("pkdd") || name.equals("bank") || name.equals("shop"))) {
            if (replace) {
                throw new IllegalArgumentException("--replace goes with 'sift load NAME SOURCE...': the demo datasets are"
                        + " rebuilt by their own generators.");
            }
            DatasetBuilder builder = demo();
            String target = as == null ? name : as;
            DatasetStore.checkName(target);
            before = store.find(target);
            ds = refresh ? store.rebuild(target, builder, progress) : store.ensure(target, builder, progress);
        } else {
            if (from != null) {
                throw new IllegalArgumentException("--from DIR goes with 'sift load pkdd --from DIR' (no sources).");
            }
            if (scale != null || seed != null || as != null) {
                throw new IllegalArgumentException("--scale, --seed and --name go with 'pkdd' or 'bank' only.");
            }
            if (sources.isEmpty()) {
                throw new IllegalArgumentException("No sources given: sift load " + name + " SOURCE... (data files, a SQLite"
                        + " or DuckDB file, a MongoDB dump folder, a URL or a sources file).");
            }
            DatasetStore.checkName(name);
            if (DatasetStore.DEMO_NAMES.contains(name)) {
                throw new IllegalArgumentException("Dataset '" + name + "' is a demo dataset and is never replaced by files"
                        + " or sources: choose another name, e.g. 'sift load my_" + name + " " + String.join(" ", sources) + "'.");
            }
            DatasetBuilder builder = DatasetSources.of(sources, Path.of("").toAbsolutePath(), config.settings(),
                    withKnowledgeFileTypes(store, ColumnType.parseAll(types)));
            before = store.find(name);
            try {
                ds = store.load(name, builder, replace, refresh, progress);
            } catch (DatasetStore.DatasetExistsException e) {
                throw new IllegalArgumentException("Dataset '" + name + "' already exists, built from "
                        + String.join("; ", before.map(Dataset::sources).orElse(List.of()))
                        + ": add --replace to replace it, or choose another name.", e);
            }
        }
        dev.sift.data.LastDataset.under(config.home()).loaded(ds.name());
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

    /**
     * The {@code types} section of the dataset's knowledge file ({@code --kg FILE}, else $SIFT_HOME/kg/NAME.kg.yaml)
     * under the {@code --types} given here, which win for the same column.
     */
    private List<ColumnType> withKnowledgeFileTypes(DatasetStore store, List<ColumnType> given) {
        Path file = kg != null ? kg : Runtime.config().home().resolve("kg").resolve(name + ".kg.yaml");
        if (!java.nio.file.Files.isRegularFile(file)) {
            if (kg != null) {
                throw new IllegalArgumentException("--kg " + kg + ": no such file.");
            }
            return given;
        }
        List<ColumnType> out = new java.util.ArrayList<>(given);
        dev.sift.knowledge.KgLoader.read(file).types().forEach((column, type) -> {
            ColumnType t;
            try {
                t = ColumnType.parse(column + "=" + type);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": types[" + column + "]: " + e.getMessage().replaceFirst("^--types ", ""));
            }
            if (given.stream().noneMatch(g -> g.table().equals(t.table()) && g.column().equals(t.column()))) {
                out.add(t);
            }
        });
        return out;
    }

    private DatasetBuilder demo() {
        if (from != null) {
            if (!name.equals("pkdd")) {
                throw new IllegalArgumentException("--from DIR goes with 'sift load pkdd --from DIR' (no sources).");
            }
            return new PkddLoader(from);
        }
        if (name.equals("pkdd")) {
            throw new IllegalArgumentException("sift load pkdd needs --from DIR: the folder with account.asc, loan.asc, …");
        }
        if (name.equals("shop")) {
            return new ShopGenerator(seed == null ? ShopGenerator.DEFAULT_SEED : seed);
        }
        return new BankGenerator(scale == null ? BankGenerator.DEFAULT_SCALE : scale,
                seed == null ? BankGenerator.DEFAULT_SEED : seed);
    }
}
