package dev.sift.bench;

import dev.sift.bench.suite.Suite;
import dev.sift.Sift;
import dev.sift.cli.CommandExtension;
import dev.sift.cli.ConsoleProgress;
import dev.sift.cli.Runtime;
import dev.sift.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "bench", subcommands = {DabCommand.class, DabStyleCommand.class, DatagenCommand.class, LoadBenchCommand.class, LoadMemoryCommand.class}, description = "Benchmarks that print numbers: overhead, ml, analysis, linking, tools, serve, mcp, startup, engine, grounding,"
        + " prompt-tokens --suite FILE, or 'run --suite FILE'"
        + " (a question suite).")
public final class BenchCommand implements Callable<Integer>, CommandExtension {
    static final List<String> BENCHES = List.of("overhead", "ml", "analysis", "linking", "tools", "serve", "mcp", "startup",
            "engine", "grounding", "prompt-tokens");

    @Spec
    CommandSpec spec;

    // optional so that the subcommands (dab, load) parse without it
    @Parameters(index = "0", arity = "0..1", paramLabel = "BENCH",
            description = "overhead | ml | analysis | linking | tools | serve | mcp | startup | engine | grounding | prompt-tokens | run"
                    + " (or the subcommands dab, dab-style, load, load-memory)")
    String bench;

    @Option(names = "--dataset", description = "dataset (default: the suite's dataset; bank otherwise)")
    String dataset;

    @Option(names = "--suite", paramLabel = "FILE", description = "run, prompt-tokens: the suite file (YAML), e.g. bench/bank.yaml")
    Path suiteFile;

    @picocli.CommandLine.Mixin
    ReportDirOption reportDir = new ReportDirOption();

    @picocli.CommandLine.Mixin
    dev.sift.cli.KgFileOption kg = new dev.sift.cli.KgFileOption();

    @Option(names = "--engine", paramLabel = "ENGINE", description = "run: answer on a live copy of the dataset on this"
            + " engine (postgres: an embedded PostgreSQL, column names kept, a read-only role; spark: Spark SQL local[1] in this"
            + " process, Parquet tables, needs the Spark build; spark-cluster: a standalone master and 2 workers, each a process"
            + " on 127.0.0.1; spark-connect: that cluster behind a Spark Connect server), scored against DuckDB's gold")
    String engineCopy;

    @Option(names = "--include-predictive", description = "run: also check each predictive answer's model on labelled"
            + " rows held back from it: its ranking against their outcomes, its reported AUC against theirs")
    boolean includePredictive;

    @Option(names = "--limit", defaultValue = "0", description = "run: only the first N items (default: all)")
    int limit;

    @Option(names = "--repeat", description = "runs per measurement (default: 20 for overhead, 3 for analysis and ml, 2000 for grounding, 1 for run: K runs of a suite report pass@1 ± spread and pass^K)")
    Integer repeat;

    @Option(names = "--sessions", defaultValue = "8,32,64", split = ",", paramLabel = "N[,N…]",
            description = "serve: concurrent sessions, one round per number on the same server (default: ${DEFAULT-VALUE})")
    List<Integer> sessions;

    @Option(names = "--questions", defaultValue = "4", description = "serve, mcp: questions per session or client (default: ${DEFAULT-VALUE})")
    int questions;

    @Option(names = "--clients", defaultValue = "16", description = "mcp: concurrent MCP clients (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--url", paramLabel = "URL", description = "engine: a PostgreSQL where the bench may create its table"
            + " (default: an embedded PostgreSQL)")
    String url;

    @picocli.CommandLine.Mixin
    RowsOption rows = new RowsOption();

    @Option(names = "--corpus", paramLabel = "DIR", description = "grounding: also measure false alarms and catches on a"
            + " labelled corpus (real/*.json traces and mutations.jsonl), e.g. bench/grounding")
    Path corpus;

    @Option(names = "--write-mutations", description = "grounding: write DIR/mutations.jsonl again from the corpus's"
            + " real answers before measuring")
    boolean writeMutations;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (bench == null) {
            throw new IllegalArgumentException("Name a bench: " + String.join(", ", BENCHES)
                    + ", run --suite FILE, dab or load.");
        }
        switch (bench) {
            case "engine" -> {
                return engine(out);
            }
            case "run" -> {
                return new SuiteRun(suiteFile, dataset, reportDir, limit, kg, repeats(1), engineCopy, includePredictive).call(out,
                        spec.commandLine().getErr());
            }
            case "linking" -> {
                LinkingBench b = new LinkingBench(LinkingBench.QUESTIONS, Runtime.config().embeddings());
                b.print(b.run(), out);
                return 0;
            }
            case "tools" -> {
                ToolsBench b = new ToolsBench();
                b.print(b.run(), out);
                b.print(b.runSift(), out);
                return 0;
            }
            case "serve" -> {
                return serve(out);
            }
            case "mcp" -> {
                return mcp(out);
            }
            case "startup" -> {
                StartupBench b = new StartupBench(StartupBench.launcherOfThisJar(), repeats(5));
                b.print(b.run(), out);
                return 0;
            }
            case "prompt-tokens" -> {
                return promptTokens(out);
            }
            case "grounding" -> {
                int runs = repeats(2000);
                GroundingBench b = new GroundingBench(runs);
                b.print(b.run(), out);
                return corpus == null ? 0 : corpus(out);
            }
            default -> {
                return onDataset(out);
            }
        }
    }

    /** False-alarm and catch rates of the answer check on a labelled corpus, with the check's cost there. */
    private int corpus(PrintWriter out) throws Exception {
        GroundingCorpus c = GroundingCorpus.load(corpus);
        if (writeMutations) {
            java.nio.file.Files.writeString(corpus.resolve("mutations.jsonl"), c.generatedMutations());
            c = GroundingCorpus.load(corpus);
        }
        GroundingCorpus.print(corpus, c.measure(20), out);
        return 0;
    }

    /** --repeat, else the bench's own default; fewer than one run is refused. */
    private int repeats(int defaultRuns) {
        int runs = repeat != null ? repeat : defaultRuns;
        if (runs < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + runs);
        }
        return runs;
    }

    /** The benches that measure Sift on a dataset (the demo bank unless --dataset says otherwise). */
    private int onDataset(PrintWriter out) throws Exception {
        if (!List.of("overhead", "ml", "analysis").contains(bench)) {
            throw new IllegalArgumentException("Unknown bench '" + bench + "'. Benches: " + String.join(", ", BENCHES)
                    + ", run --suite FILE.");
        }
        int runs = repeats(bench.equals("analysis") || bench.equals("ml") ? 3 : 20);
        String name = dataset == null ? Sift.DEMO_DATASET : dataset;
        Sift sift = Runtime.offline();
        Dataset ds = sift.dataset(name, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + name + "'"));
        switch (bench) {
            case "ml" -> {
                out.println("ML bench (synthetic, deterministic; workspace on dataset '" + ds.name() + "')");
                new MlBench(ds, runs, 100_000, 1_000_000).run(out);
            }
            case "analysis" -> {
                out.println("Analysis bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
                new AnalysisBench(sift, ds, runs).run(out);
            }
            default -> {
                out.println("Overhead bench on dataset '" + ds.name() + "' (" + ds.description() + ")");
                new OverheadBench(sift, ds, runs).run(out);
            }
        }
        return 0;
    }

    /** Prompt tokens per question of a suite, with JSON replies and with native tool calling. */
    private int promptTokens(PrintWriter out) throws Exception {
        if (suiteFile == null) {
            throw new IllegalArgumentException("bench prompt-tokens needs --suite FILE, e.g. --suite bench/bank.yaml");
        }
        Suite suite = Suite.load(suiteFile);
        dev.sift.SiftConfig config = Runtime.config();
        String name = dataset == null ? suite.dataset() : dataset;
        Sift offline = Runtime.offline();
        if (!name.equals(Sift.DEMO_DATASET) && offline.store().find(name).isEmpty()) {
            throw new IllegalArgumentException("Dataset '" + name + "' is not built in " + offline.store().root() + "."
                    + (suite.buildHint() == null ? "" : " Build it with: " + suite.buildHint()));
        }
        Dataset ds = offline.dataset(name, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset '" + name + "'"));
        out.println("Prompt tokens per question on dataset '" + ds.name() + "' (o200k_base): the first request (system"
                + " prompt, question and, natively, the tool definitions) and the whole scripted run (the gold SQL through"
                + " run_sql, then the answer)");
        PromptTokenBench bench = new PromptTokenBench();
        for (dev.sift.llm.ToolCalling mode : dev.sift.llm.ToolCalling.values()) {
            PromptTokenBench.Result r = bench.run(suite, ds, llm -> new Sift(config.home(), llm,
                    dev.sift.data.Workspace.Limits.defaults(), config.embeddings(), dev.sift.agent.grounding.Grounding.CHECK_ONLY,
                    new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                            io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT),
                    config.allowedSources(), config.settings(), mode), mode == dev.sift.llm.ToolCalling.JSON);
            PromptTokenBench.print(mode.wire(), r, out);
        }
        return 0;
    }

    /** Aggregating on a live PostgreSQL vs copying into DuckDB first; an embedded server when no --url is given. */
    private int engine(PrintWriter out) throws Exception {
        long rows = this.rows.rows(10_000_000);
        if (url != null) {
            new EngineBench(url, rows, Runtime.config().settings()).run(out);
            return 0;
        }
        Class<?> embedded;
        try {
            embedded = Class.forName("io.zonky.test.db.postgres.embedded.EmbeddedPostgres");
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("bench engine needs --url postgresql://USER@HOST/DB (a database where it may"
                    + " create table " + "sift_bench_events), or an embedded PostgreSQL: build with"
                    + " 'mvn -Pbench-pg -DskipTests package' and run again.");
        }
        try (AutoCloseable pg = (AutoCloseable) embedded.getMethod("start").invoke(null)) {
            int port = (int) embedded.getMethod("getPort").invoke(pg);
            out.println("Engine bench on an embedded PostgreSQL (port " + port + ")");
            new EngineBench("postgresql://postgres@localhost:" + port + "/postgres", rows, Runtime.config().settings()).run(out);
        }
        return 0;
    }

    private int serve(PrintWriter out) throws Exception {
        if (sessions.stream().anyMatch(n -> n < 1) || questions < 1) {
            throw new IllegalArgumentException("--sessions and --questions must be at least 1");
        }
        Sift sift = Runtime.offline();
        sift.dataset(Sift.DEMO_DATASET, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset 'bank'"));
        ServeBench b = new ServeBench(sift, sessions, questions);
        List<ServeBench.Round> rounds = b.run();
        b.print(rounds, out);
        return rounds.stream().allMatch(r -> r.result().errors() == 0) ? 0 : 1;
    }

    private int mcp(PrintWriter out) throws Exception {
        if (clients < 1 || questions < 1) {
            throw new IllegalArgumentException("--clients and --questions must be at least 1");
        }
        Sift sift = Runtime.offline();
        sift.dataset(Sift.DEMO_DATASET, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset 'bank'"));
        McpBench b = new McpBench(sift, clients, questions);
        ServeBench.Result r = b.run();
        b.print(r, out);
        return r.errors() == 0 ? 0 : 1;
    }
}
