package dev.sift;

import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.StepListener;
import dev.sift.agent.TraceStore;
import dev.sift.agent.grounding.Grounding;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.LastDataset;
import dev.sift.data.DatasetTables;
import dev.sift.data.Progress;
import dev.sift.data.QueryGate;
import dev.sift.data.SqlParser;
import dev.sift.data.Workspace;
import dev.sift.data.source.BankGenerator;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.llm.LlmClient;
import dev.sift.llm.ToolCalling;
import dev.sift.ml.ModelRegistry;
import dev.sift.ml.ModelStore;
import dev.sift.planner.LlmPlanner;
import dev.sift.agent.Planner;
import dev.sift.planner.RulePlanner;
import dev.sift.session.Conversation;
import dev.sift.session.LlmReferenceResolver;
import dev.sift.session.ReferenceResolver;
import dev.sift.session.RuleReferenceResolver;
import dev.sift.session.SessionStore;
import dev.sift.session.Sessions;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.analysis.AutoInsights;
import dev.sift.tool.analysis.CorrelationAnalysis;
import dev.sift.tool.analysis.DataQualityReport;
import dev.sift.tool.analysis.ClassifyRows;
import dev.sift.tool.analysis.ExtractFields;
import dev.sift.tool.analysis.MatchRecords;
import dev.sift.tool.analysis.StatTest;
import dev.sift.tool.analysis.Forecast;
import dev.sift.tool.analysis.Pivot;
import dev.sift.tool.analysis.ProfileData;
import dev.sift.tool.analysis.SampleRows;
import dev.sift.tool.analysis.TransformColumn;
import dev.sift.tool.analysis.TrendAnalysis;
import dev.sift.data.source.AllowedSources;
import dev.sift.tool.data.ConnectSource;
import dev.sift.tool.data.InspectData;
import dev.sift.tool.chart.MakeChart;
import dev.sift.tool.data.SampleValues;
import dev.sift.tool.data.ShowFrame;
import dev.sift.tool.data.UnionFamily;
import dev.sift.tool.ml.AnomalyScan;
import dev.sift.tool.ml.CheckDrift;
import dev.sift.tool.ml.CompareModels;
import dev.sift.tool.ml.EvaluatePredictions;
import dev.sift.tool.ml.ExplainPrediction;
import dev.sift.tool.ml.KMeansClusters;
import dev.sift.tool.ml.ListModels;
import dev.sift.tool.ml.Predict;
import dev.sift.tool.ml.PredictionFrames;
import dev.sift.tool.ml.SelectModel;
import dev.sift.tool.ml.TrainModel;
import dev.sift.tool.ml.WhatIf;
import dev.sift.tool.ml.SimilarCases;
import dev.sift.tool.ml.MonitorPerformance;
import dev.sift.tool.knowledge.QueryKg;
import dev.sift.tool.knowledge.TextToSql;
import dev.sift.tool.dialog.Clarify;
import dev.sift.tool.narrate.SummarizeResult;
import dev.sift.tool.sql.RunSql;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Wiring: the dataset store, the tool registry, the model (if configured) and the planner that follows
 * from it. The demo dataset {@code bank} is generated on first use.
 */
public final class Sift {
    public static final String DEMO_DATASET = "bank";
    /** The version a saved model's card records. */
    public static final String VERSION = "0.1.0";

    private final DatasetStore store;
    private final TraceStore traces;
    private final ModelStore models;
    private final LlmClient llm;
    private final ToolCalling calling;
    private final ToolRegistry tools;
    private final Workspace.Limits limits;
    private final Path home;
    private final AllowedSources allowed;
    /** The configuration's settings: where a live engine's credentials come from. */
    private final java.util.Map<String, String> settings;
    /** The knowledge of recently used datasets, built once per dataset for all runs of this application. */
    private final KnowledgeStore knowledge;
    /** The offline planner: stateless, so one serves every run. */
    private final RulePlanner offline = new RulePlanner();
    private final Grounding grounding;
    private final PrometheusMeterRegistry meters;
    /** At most this many queries run at once across this process's workspaces (a server's sessions). */
    public static final int MAX_RUNNING_QUERIES = 4;
    /** What a fetched chunk may add past the heap and DuckDB's limit: the allowance of the process's budget. */
    public static final long CHUNK_ALLOWANCE_BYTES = 512L * 1024 * 1024;
    private final QueryGate gate;
    /** Where the workspaces' guards parse SQL (see {@link SqlParser}). */
    private final SqlParser parser = new SqlParser();

    /** Answers checked deterministically, none judged; metrics kept in a registry of its own. */
    public Sift(Path home, LlmClient llm, Workspace.Limits limits) {
        this(home, llm, limits, false, Grounding.CHECK_ONLY, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /** Built from the configuration: its home and whether knowledge search uses embeddings. */
    public Sift(SiftConfig config, LlmClient llm, Workspace.Limits limits, Grounding grounding,
                PrometheusMeterRegistry meters) {
        this(config.home(), llm, limits, config.embeddings(), grounding, meters, config.allowedSources(),
                config.settings(), config.llm().toolCalling());
    }

    /**
     * @param embeddings whether knowledge search uses dense embeddings
     * @param grounding  the checks every model answer goes through (and the judge, when one samples)
     * @param meters     where the model clients (already wrapped) and the server record their metrics
     */
    public Sift(Path home, LlmClient llm, Workspace.Limits limits, boolean embeddings, Grounding grounding,
                PrometheusMeterRegistry meters) {
        this(home, llm, limits, embeddings, grounding, meters,
                AllowedSources.of(null, home, Path.of("").toAbsolutePath(), java.util.Map.of()));
    }

    /** As above; {@code allowed} says which sources a run may connect ({@code connect_source}). */
    public Sift(Path home, LlmClient llm, Workspace.Limits limits, boolean embeddings, Grounding grounding,
                PrometheusMeterRegistry meters, AllowedSources allowed) {
        this(home, llm, limits, embeddings, grounding, meters, allowed, java.util.Map.of(), ToolCalling.DEFAULT);
    }

    /**
     * As above; {@code settings} is the configuration ({@link SiftConfig#settings}) a live dataset's engine reads
     * its credentials from ({@code password_env}, {@code PGPASSWORD}); {@code calling} says how the planner's model
     * calls tools (JSON replies or natively).
     */
    public Sift(Path home, LlmClient llm, Workspace.Limits limits, boolean embeddings, Grounding grounding,
                PrometheusMeterRegistry meters, AllowedSources allowed, java.util.Map<String, String> settings,
                ToolCalling calling) {
        this.settings = settings;
        this.calling = calling;
        // one budget for the process: the Java heap's bound, DuckDB's limit and one fetched chunk
        this.gate = new QueryGate(MAX_RUNNING_QUERIES, java.lang.Runtime.getRuntime().maxMemory()
                + Math.max(0, QueryGate.parseBytes(limits.memoryLimit())) + CHUNK_ALLOWANCE_BYTES);
        this.knowledge = new KnowledgeStore(KnowledgeStore.DEFAULT_CAPACITY, embeddings);
        this.home = home;
        this.store = new DatasetStore(home.resolve("datasets"));
        this.traces = new TraceStore(home.resolve("traces"));
        this.models = new ModelStore(home.resolve("models"), VERSION);
        this.llm = llm;
        this.allowed = allowed;
        this.tools = defaultTools(new ConnectSource(store, allowed), home.resolve("cache").resolve("rows"));
        this.limits = limits;
        this.grounding = grounding;
        this.meters = meters;
        io.micrometer.core.instrument.FunctionTimer.builder("sift.query.gate.wait", gate, QueryGate::admitted,
                        QueryGate::waitedNanos, java.util.concurrent.TimeUnit.NANOSECONDS)
                .description("Time queries waited for one of the " + MAX_RUNNING_QUERIES + " places to run")
                .register(meters);
    }

    public Grounding grounding() {
        return grounding;
    }

    public PrometheusMeterRegistry meters() {
        return meters;
    }

    /** The tools every run may use, with a {@code connect_source} that refuses every source. */
    public static ToolRegistry defaultTools() {
        return defaultTools(new ConnectSource(null, AllowedSources.none()), null);
    }

    /** The tools every run may use, the model's answers about rows kept for this registry only. */
    public static ToolRegistry defaultTools(ConnectSource connect) {
        return defaultTools(connect, null);
    }

    /**
     * The tools every run may use; {@code connect} attaches further sources, {@code rowCache} keeps what the model
     * said about rows across runs (null: for this registry only). Adding a tool is one line here.
     */
    public static ToolRegistry defaultTools(ConnectSource connect, Path rowCache) {
        return new ToolRegistry(List.of(new InspectData(), new SampleValues(), new RunSql(), new ShowFrame(), new SummarizeResult(),
                new PredictionFrames(), new TrainModel(), new Predict(), new ExplainPrediction(), new EvaluatePredictions(), new ListModels(),
                new SelectModel(), new CompareModels(), new WhatIf(), new SimilarCases(),
                new MonitorPerformance(), new CheckDrift(), new KMeansClusters(), new AnomalyScan(),
                new ProfileData(), new DataQualityReport(), new CorrelationAnalysis(), new TrendAnalysis(), new Pivot(),
                new Forecast(), new TransformColumn(), new SampleRows(), new AutoInsights(),
                new QueryKg(), new TextToSql(), new Clarify(), new MakeChart(), connect, new StatTest(), new MatchRecords(),
                new ClassifyRows(rowCache), new ExtractFields(rowCache), new UnionFamily()));
    }

    /** The Sift home (SIFT_HOME): datasets, sessions, traces, and the server's temporary uploads under {@code tmp/}. */
    public Path home() {
        return home;
    }

    /** Which sources a model, or a person through the web app, may connect ({@code SIFT_ALLOWED_SOURCES}). */
    public AllowedSources allowedSources() {
        return allowed;
    }

    public DatasetStore store() {
        return store;
    }

    /** The dataset last loaded or asked about ({@code last-dataset.json} in the Sift home): the web app opens on it. */
    public LastDataset lastDataset() {
        return LastDataset.under(home);
    }

    /** Saved models, under {@code models/} of the Sift home. */
    public ModelStore models() {
        return models;
    }

    /** The models a run in {@code ws} can use: those saved for its dataset, and those it trains (saved at once). */
    public ModelRegistry models(Workspace ws) {
        return new ModelRegistry(models, ws::dataset);
    }

    public ToolRegistry tools() {
        return tools;
    }

    public Optional<LlmClient> llm() {
        return Optional.ofNullable(llm);
    }

    /** The named dataset; the demo {@code bank} is generated (once) when it does not exist yet. */
    public Dataset dataset(String name, Progress progress) throws Exception {
        Optional<Dataset> found = store.find(name);
        if (found.isPresent()) {
            return found.get();
        }
        if (name.equals(DEMO_DATASET)) {
            return store.ensure(DEMO_DATASET, new BankGenerator(), progress);
        }
        return store.get(name); // throws with the list of datasets
    }

    public Workspace open(Dataset dataset) {
        return Workspace.open(dataset, limits, gate, store.tables(), settings, parser);
    }

    /** The limits of this application's workspaces (the configuration's byte budget). */
    public Workspace.Limits limits() {
        return limits;
    }

    /** A workspace of its own (own gate, own table descriptions) with other limits: for commands and benchmarks. */
    public Workspace open(Dataset dataset, Workspace.Limits other) {
        return Workspace.open(dataset, other, null, new DatasetTables(1), settings, parser);
    }

    /** The knowledge of the datasets this application has used (bounded). */
    public KnowledgeStore knowledge() {
        return knowledge;
    }

    public Planner planner() {
        return llm == null ? offline : new LlmPlanner(llm, calling);
    }

    /** Answers one question in a fresh workspace and saves the trace. */
    public Answered ask(String question, Dataset dataset, AgentConfig config) throws Exception {
        return ask(question, dataset, config, StepListener.NONE);
    }

    /** Answers one question, telling {@code listener} about each step (charts and rows arrive as payloads). */
    public Answered ask(String question, Dataset dataset, AgentConfig config, StepListener listener) throws Exception {
        try (Workspace ws = open(dataset)) {
            AgentRun run = new AgentLoop(planner(), tools, ws, llm, config, models(ws)).knowledge(knowledge).grounding(grounding)
                    .onStep(listener)
                    .run(question);
            return new Answered(run, traces.save(run));
        }
    }

    /**
     * Answers with the offline planner in {@code ws}, whatever model is configured, and saves no trace: how the app
     * checks a sample question before offering it.
     */
    public AgentRun askOffline(String question, Workspace ws) throws Exception {
        return new AgentLoop(offline, tools, ws, null, AgentConfig.defaults()).knowledge(knowledge)
                .grounding(grounding).run(question);
    }

    /**
     * Saves an answered question and the SQL its answer rests on (the last query of the run) as a verified example in
     * the dataset's knowledge file ({@code --kg FILE}, else {@code $SIFT_HOME/kg/<dataset>.kg.yaml}, created when
     * missing); returns the file. A run that did not answer from a query has nothing to save and is refused.
     */
    public Path saveExample(Dataset dataset, String question, AgentRun run) {
        if (run.kind() != dev.sift.agent.AnswerKind.ANSWER || run.evidence().isEmpty()
                || run.evidence().get(run.evidence().size() - 1).sql() == null) {
            throw new IllegalArgumentException("Nothing to save: the run ended with a " + run.kind().wire()
                    + " and no query answered it; only an answer built from a query can be saved as a verified example.");
        }
        return saveExample(dataset, question, run.evidence().get(run.evidence().size() - 1).sql());
    }

    /** Saves {@code question} with {@code sql} as a verified example of the dataset's knowledge file; returns the file. */
    public Path saveExample(Dataset dataset, String question, String sql) {
        Path file = knowledgeFile(dataset);
        dev.sift.knowledge.KgFileEditor.addExample(file, dataset.name(), question.trim(), sql.trim(), checkedOn(dataset));
        return file;
    }

    /**
     * Adds an entry (a synonym as a concept, an approved join, a metric…) to section {@code section} of the dataset's
     * knowledge file, written only when the edited file still fits the live data (else {@link
     * dev.sift.knowledge.KgException} naming the entry); returns the file.
     */
    public Path addKnowledge(Dataset dataset, String section, java.util.Map<String, Object> item) {
        Path file = knowledgeFile(dataset);
        dev.sift.knowledge.KgFileEditor.append(file, dataset.name(), section, item, checkedOn(dataset));
        return file;
    }

    /**
     * Adds an approved join ({@code item} with {@code name}, {@code from} and {@code to} as table.column) once the live
     * data shows it plausible ({@link dev.sift.knowledge.JoinCheck}): refused with the share found and the fix when its
     * values mostly miss, else written with the measured {@code cardinality} and {@code coverage}; returns the file.
     */
    public Path approveJoin(Dataset dataset, java.util.Map<String, Object> item) {
        Path file = knowledgeFile(dataset);
        try (Workspace ws = open(dataset)) {
            dev.sift.knowledge.JoinCheck.measure(ws, knowledge.of(ws).graph(), columns(item.get("from")),
                    columns(item.get("to")), file + ": join_paths[" + item.get("name") + "]").ifPresent(m -> {
                        item.put("cardinality", m.cardinality());
                        item.put("coverage", dev.sift.knowledge.JoinCheck.rounded(m.coverage()));
                    });
        }
        return addKnowledge(dataset, "join_paths", item);
    }

    /** A join side: one {@code table.column}, or a list of them for a join on several columns. */
    private static List<String> columns(Object side) {
        return side instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(side));
    }

    /** Where the dataset's knowledge file is written ({@code --kg FILE}, else {@code $SIFT_HOME/kg/<dataset>.kg.yaml}). */
    private Path knowledgeFile(Dataset dataset) {
        Path file = knowledge.userPath(dataset);
        if (file == null) {
            throw new IllegalArgumentException("Dataset '" + dataset.name() + "' has no knowledge file location; name one"
                    + " with --kg FILE.");
        }
        return file;
    }

    /** Validates an edited knowledge file against the dataset's live data before it is written. */
    private java.util.function.Consumer<dev.sift.knowledge.CuratedKg> checkedOn(Dataset dataset) {
        return curated -> {
            try (Workspace ws = open(dataset)) {
                dev.sift.knowledge.Knowledge.check(ws, curated);
            }
        };
    }

    /** Saved conversations, under {@code sessions/} of the Sift home. */
    public SessionStore sessionStore() {
        return new SessionStore(home.resolve("sessions"));
    }

    /** What a conversation turn needs: planner, tools, model, traces, the reference resolver and the saved models. */
    public Conversation.Engine engine() {
        return engine(tools, traces, models);
    }

    /** The same engine with other tools and traces kept elsewhere (a benchmark's conversations), saving no model. */
    public Conversation.Engine engine(ToolRegistry tools, TraceStore traces) {
        return engine(tools, traces, null);
    }

    private Conversation.Engine engine(ToolRegistry tools, TraceStore traces, ModelStore saved) {
        ReferenceResolver rules = new RuleReferenceResolver();
        return new Conversation.Engine(this::planner, tools, llm, traces,
                llm == null ? rules : new LlmReferenceResolver(llm, rules), knowledge, grounding, saved);
    }

    /** Active sessions of this process, opening workspaces on the named datasets. */
    public Sessions sessions(int maxOpen) {
        return new Sessions(sessionStore(), name -> open(dataset(name, Progress.NONE)), maxOpen);
    }

    /** A run and where its trace was saved. */
    public record Answered(AgentRun run, Path trace) { }
}
