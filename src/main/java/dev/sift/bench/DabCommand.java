package dev.sift.bench;

import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.cli.ConsoleProgress;
import dev.sift.cli.Runtime;
import dev.sift.bench.dab.DabDataset;
import dev.sift.bench.dab.DabReport;
import dev.sift.bench.dab.DabResult;
import dev.sift.bench.dab.DabRunner;
import dev.sift.bench.dab.DabTask;
import dev.sift.bench.dab.DabValidator;
import dev.sift.data.Dataset;
import dev.sift.data.source.DatasetSources;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.llm.CachingLlm;
import dev.sift.llm.LlmClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "dab", description = {
        "Run DataAgentBench tasks and score each answer with the task's own validate.py (needs python3).",
        "  sift bench dab --root DIR [--all | --dataset NAME...] [--db-types T1,T2] [--query queryN...] [--iterations K]",
        "                 [--max-steps N] [--hints]",
        "Each dataset is folded in once from its db_config.yaml (reused across runs); finished task iterations",
        "in --out are skipped, so a run resumes where it stopped."})
final class DabCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--root", required = true, paramLabel = "DIR", description = "the benchmark folder: one folder per dataset")
    Path root;

    @Option(names = "--dataset", paramLabel = "NAME", description = "only these datasets (repeatable; default: all)")
    List<String> datasets = new ArrayList<>();

    @Option(names = "--all", description = "every dataset under --root (the default when no --dataset is named)")
    boolean all;

    @Option(names = "--db-types", split = ",", paramLabel = "T1,T2", description = "only datasets whose databases are all"
            + " of these db_types (duckdb, sqlite, postgres, mongo, ...)")
    List<String> dbTypes = new ArrayList<>();

    @Option(names = "--query", paramLabel = "queryN", description = "only these queries (repeatable; default: all)")
    List<String> queries = new ArrayList<>();

    @Option(names = "--iterations", defaultValue = "1", description = "runs per task; pass@1 is their mean (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--hints", description = "compose questions with db_description_withhint.txt")
    boolean hints;

    /** The most steps a task may take (the loop's own bound). */
    static final int MAX_STEPS = 100;

    @Option(names = "--max-steps", defaultValue = "" + AgentConfig.DEFAULT_MAX_STEPS, description = "step budget per task (default: ${DEFAULT-VALUE})")
    int maxSteps;

    @picocli.CommandLine.Mixin
    ReportDirOption reportDir = new ReportDirOption();

    @Option(names = "--cache", paramLabel = "DIR", description = "replay model replies from (and save them to) this folder")
    Path cache;

    @Option(names = "--python", defaultValue = "python3", description = "the Python that runs validate.py (default: ${DEFAULT-VALUE})")
    String python;

    @Option(names = "--validator-timeout", defaultValue = "30", description = "seconds a validator may take (default: ${DEFAULT-VALUE})")
    int validatorSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxSteps < 1 || maxSteps > MAX_STEPS) {
            throw new IllegalArgumentException("--max-steps must be between 1 and " + MAX_STEPS + ", got " + maxSteps);
        }
        DabRunner.Options options = new DabRunner.Options(iterations, hints, AgentConfig.defaults().withMaxSteps(maxSteps));
        List<String> names = selected(err);
        DabValidator validator = new DabValidator(python, Duration.ofSeconds(Math.max(1, validatorSeconds)));
        String missing = validator.unavailable();
        if (missing != null) {
            throw new IllegalArgumentException("Cannot score DataAgentBench tasks: " + missing + ".");
        }
        Sift configured = Runtime.sift();
        LlmClient llm = configured.llm().map(m -> cache == null ? m : (LlmClient) new CachingLlm(m, CachingLlm.DEFAULT_MAX_ENTRIES, cache))
                .orElse(null);
        Path home = Runtime.config().home();
        Path dir = reportDir.resolve("dab");
        DabRunner runner = new DabRunner(model -> new Sift(home, model, Workspace.Limits.defaults()), llm,
                (d, progress) -> fold(configured, d, progress), validator, options);
        List<DabResult> results = new ArrayList<>();
        for (String name : names) {
            DabDataset d = DabDataset.read(root, name);
            List<DabTask> tasks = d.tasks().stream().filter(t -> queries.isEmpty() || queries.contains(t.query())).toList();
            if (tasks.isEmpty()) {
                err.println("Dataset " + name + ": none of " + String.join(", ", queries) + " exists; it has "
                        + String.join(", ", d.tasks().stream().map(DabTask::query).toList()) + ".");
                continue;
            }
            results.addAll(runner.run(d, tasks, dir, err, new ConsoleProgress(err, "Building dataset 'dab_" + name + "'")));
        }
        DabReport report = new DabReport(configured.planner().name(), hints, results);
        report.write(dir);
        report.print(o);
        if (llm == null) {
            o.println("No model is configured: the offline planner answers only what it can prove and abstains on the rest.");
        }
        o.println("Reports: " + dir.resolve("report.json") + ", " + dir.resolve("report.md") + "; traces in " + dir);
        o.flush();
        return 0;
    }

    /** The datasets to run: those named, or all under the root; kept when every db_type is one of --db-types. */
    private List<String> selected(PrintWriter err) throws java.io.IOException {
        if (all && !datasets.isEmpty()) {
            throw new IllegalArgumentException("Give --all or --dataset, not both.");
        }
        List<String> names = datasets.isEmpty() ? DabDataset.names(root) : datasets;
        if (names.isEmpty()) {
            throw new IllegalArgumentException("No DataAgentBench datasets under " + root + " (no <dataset>/db_config.yaml).");
        }
        if (dbTypes.isEmpty()) {
            return names;
        }
        List<String> kept = new ArrayList<>();
        for (String name : names) {
            java.util.Set<String> types = DabDataset.dbTypes(root.resolve(name).resolve("db_config.yaml"));
            if (dbTypes.containsAll(types)) {
                kept.add(name);
            } else {
                err.println("Dataset " + name + " skipped: its db_types " + String.join(", ", types) + " are not all in --db-types.");
            }
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("No dataset under " + root + " has only db_types " + String.join(", ", dbTypes) + ".");
        }
        return kept;
    }

    /**
     * The dataset {@code dab_<name>} folded in from the benchmark dataset's {@code db_config.yaml} through the
     * sources layer: one schema per database alias, built once and rebuilt only when the sources change.
     */
    static Dataset fold(Sift sift, DabDataset d, Progress progress) throws Exception {
        String name = "dab_" + d.name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return sift.store().ensure(name, DatasetSources.of(List.of(d.dbConfig().toAbsolutePath().toString()), d.dir().toAbsolutePath(), Runtime.config().settings()),
                progress);
    }
}
