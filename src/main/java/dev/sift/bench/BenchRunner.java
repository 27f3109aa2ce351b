package dev.sift.bench;

import dev.sift.bench.suite.ResultMatcher;
import dev.sift.bench.suite.Suite;
import dev.sift.Sift;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.Step;
import dev.sift.bench.suite.Suite.Item;
import dev.sift.bench.suite.Suite.Scoring;
import dev.sift.data.ColumnInfo;
import dev.sift.data.Dataset;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.text.Evidence;
import dev.sift.tool.Tool;
import dev.sift.tool.ToolRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs a suite through the real loop ({@link AgentLoop} with the configured planner, the default tools and a
 * fresh workspace per item) and scores every answer from its evidence. Gold results come from running each
 * item's {@code gold_sql} on the same dataset through a workspace. A failure on one item is that item's
 * {@code error} outcome; the suite always runs to the end.
 *
 * <p>Scoring, per tier (documented in docs/benchmarks.md):
 * <ul>
 * <li>analytic — kind {@code clarification}/{@code declined}: abstained; {@code error}: error; {@code answer}:
 * correct when its evidence matches the gold result, else wrong. The <em>decisive</em> evidence is the last
 * query of the run (the one the answer is built from); a single-value gold result also matches any query of
 * the run whose only cell is that value. {@code numeric} scoring compares that single value with the item's
 * tolerance.</li>
 * <li>predictive — {@code answer} is correct when a tool of group {@code predictive} (train_model, predict) ran successfully and some frame of
 * the run has a column named like the gold column holding exactly the gold entity ids; any other answer is
 * wrong (a predictive question answered without a model); clarification/declined: abstained.</li>
 * <li>adversarial / clarify — correct when the answer's kind is the expected one ({@code declined} /
 * {@code clarification}); an {@code answer} is wrong; the other abstention is abstained.</li>
 * </ul>
 */
public final class BenchRunner {
    private static final Logger LOG = LoggerFactory.getLogger(BenchRunner.class);
    /** Items run once before the timed pass (offline only: warming a paid model is not free). */
    public static final int WARM_UP_ITEMS = 3;
    /** The most rows a gold result may have (predictive items list entity sets of thousands). */
    public static final int GOLD_ROWS = 100_000;

    public enum Outcome {
        CORRECT, WRONG, ABSTAINED, ERROR;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One scored item; {@code status} is the run's groundedness status, {@code verdict} the judge's (or null). */
    public record ItemResult(Item item, Outcome outcome, String reason, String kind, String answer, List<String> sql,
                             double seconds, int steps, String status, String verdict, String resolved,
                             List<String> tools) {
        /** A result without the tools its run used (none ran, or they were not recorded). */
        public ItemResult(Item item, Outcome outcome, String reason, String kind, String answer, List<String> sql,
                          double seconds, int steps, String status, String verdict, String resolved) {
            this(item, outcome, reason, kind, answer, sql, seconds, steps, status, verdict, resolved, List.of());
        }

        /** A single question's result (not a conversation's turn: nothing was resolved). */
        public ItemResult(Item item, Outcome outcome, String reason, String kind, String answer, List<String> sql,
                          double seconds, int steps, String status, String verdict) {
            this(item, outcome, reason, kind, answer, sql, seconds, steps, status, verdict, null);
        }

        /** An item whose run gave no answer (it failed before one). */
        public ItemResult(Item item, Outcome outcome, String reason, String kind, String answer, List<String> sql,
                          double seconds, int steps) {
            this(item, outcome, reason, kind, answer, sql, seconds, steps, null, null);
        }
    }

    private final Sift sift;
    private final AgentConfig config;
    private final ToolRegistry tools;
    private boolean includePredictive;

    public BenchRunner(Sift sift, AgentConfig config) {
        this(sift, config, sift.tools());
    }

    /** With another tool registry (tests add tools the default registry does not have yet). */
    public BenchRunner(Sift sift, AgentConfig config, ToolRegistry tools) {
        this.sift = sift;
        this.config = config;
        this.tools = tools;
    }

    /** With {@code on}, a predictive answer must also pass its model's {@link HeldBack} check. */
    public BenchRunner includePredictive(boolean on) {
        this.includePredictive = on;
        return this;
    }

    /** Runs the first {@code limit} items (all when {@code limit <= 0}), printing one line per item to {@code progress}. */
    public BenchReport run(Suite suite, Dataset dataset, int limit, PrintWriter progress) {
        return run(suite, dataset, dataset, limit, progress);
    }

    /**
     * As above, with the gold answers computed on {@code gold} and the questions asked of {@code dataset}: the same data
     * on a live engine is scored against DuckDB's answers (a parity run).
     */
    public BenchReport run(Suite suite, Dataset gold, Dataset dataset, int limit, PrintWriter progress) {
        List<Item> items = limit > 0 && limit < suite.items().size() ? suite.items().subList(0, limit) : suite.items();
        String planner = sift.planner().name();
        boolean offline = sift.planner().offline();
        String startedAt = Instant.now().toString();
        List<ItemResult> results = new ArrayList<>();
        Workspace.Limits d = Workspace.Limits.defaults();
        try (Workspace goldWs = sift.open(gold, new Workspace.Limits(d.threads(), d.memoryLimit(), d.queryTimeout(),
                GOLD_ROWS))) {
            if (offline) {
                for (Item item : items.subList(0, Math.min(WARM_UP_ITEMS, items.size()))) {
                    runOne(item, dataset, goldWs); // warm-up: JIT, dataset metadata, value index
                }
            }
            List<Suite.Dialogue> chats = limit > 0 && limit < suite.conversations().size()
                    ? suite.conversations().subList(0, limit) : suite.conversations();
            if (offline && items.isEmpty() && !chats.isEmpty()) {
                new Dialogues(this, dataset, goldWs).run(chats.get(0)); // warm-up, as for items
            }
            int total = items.size() + chats.stream().mapToInt(c -> c.turns().size()).sum();
            for (Item item : items) {
                results.add(progress(runOne(item, dataset, goldWs), results.size() + 1, total, progress));
            }
            Dialogues dialogues = new Dialogues(this, dataset, goldWs);
            for (Suite.Dialogue chat : chats) {
                for (ItemResult r : dialogues.run(chat)) {
                    results.add(progress(r, results.size() + 1, total, progress));
                }
            }
        }
        return new BenchReport(suite, dataset.name(), planner, startedAt, results);
    }

    private static ItemResult progress(ItemResult r, int i, int total, PrintWriter progress) {
        if (progress != null) {
            progress.printf("[%d/%d] %-10s %-11s %-9s %6.3fs%s%n", i, total, r.item().id(), r.item().tier().wire(),
                    r.outcome().wire(), r.seconds(), r.reason() == null ? "" : "  " + oneLine(r.reason(), 160));
            progress.flush();
        }
        return r;
    }

    Sift sift() {
        return sift;
    }

    AgentConfig config() {
        return config;
    }

    ToolRegistry tools() {
        return tools;
    }

    private ItemResult runOne(Item item, Dataset dataset, Workspace goldWs) {
        QueryResult gold;
        try {
            gold = item.goldSql() == null ? null : gold(item, goldWs);
        } catch (Exception e) {
            return goldFailed(item, e);
        }
        long t0 = System.nanoTime();
        try (Workspace ws = sift.open(dataset)) {
            AgentRun run = new AgentLoop(sift.planner(), tools, ws, sift.llm().orElse(null), config)
                    .knowledge(sift.knowledge()).grounding(sift.grounding()).run(item.question());
            double seconds = (System.nanoTime() - t0) / 1e9;
            String[] scored = score(item, gold, run, ws);
            List<String> sql = run.evidence().stream().map(Evidence::sql).toList();
            return new ItemResult(item, Outcome.valueOf(scored[0]), scored[1], run.kind().wire(), run.answer(), sql,
                    seconds, run.steps().size(), run.status().wire(),
                    run.grounding().judge() == null ? null : run.grounding().judge().verdict(), null, toolsRan(run));
        } catch (Exception | StackOverflowError e) {
            LOG.warn("Bench item {} failed", item.id(), e);
            return new ItemResult(item, Outcome.ERROR, "the run failed: " + message(e), null, null, List.of(),
                    (System.nanoTime() - t0) / 1e9, 0);
        }
    }

    /** The tools a run ran successfully, each once, in the order of their first use. */
    static List<String> toolsRan(AgentRun run) {
        return run.steps().stream().filter(s -> s.outcome() == Step.Outcome.RAN && s.ok()).map(Step::tool).distinct().toList();
    }

    static ItemResult goldFailed(Item item, Exception e) {
        LOG.warn("Gold SQL of {} failed: {}", item.id(), message(e));
        return new ItemResult(item, Outcome.ERROR, "gold_sql failed: " + message(e), null, null, List.of(), 0, 0);
    }

    static QueryResult gold(Item item, Workspace ws) throws Exception {
        QueryResult g = ws.query(item.goldSql());
        if (g.truncated() || g.rowCount() != g.rows().size()) {
            throw new IllegalStateException("the gold result has " + g.rowCount() + " rows, more than the "
                    + g.rows().size() + " that can be compared");
        }
        if (item.scoring() == Scoring.NUMERIC && !(g.rows().size() == 1 && g.columns().size() == 1
                && ResultMatcher.number(g.rows().get(0).get(0)) != null)) {
            throw new IllegalStateException("numeric scoring needs a single numeric gold value, got "
                    + g.rows().size() + " rows x " + g.columns().size() + " columns");
        }
        if (item.tier() == Suite.Tier.PREDICTIVE && g.columns().size() != 1) {
            throw new IllegalStateException("a predictive item's gold_sql lists entity ids in one column, got "
                    + g.columns().size() + " columns");
        }
        return g;
    }

    /** {outcome, reason}. */
    String[] score(Item item, QueryResult gold, AgentRun run, Workspace ws) throws Exception {
        AnswerKind kind = run.kind();
        if (kind == AnswerKind.ERROR) {
            return new String[] {"ERROR", "the run ended in an error: " + oneLine(run.answer(), 300)};
        }
        return switch (item.tier()) {
            case ADVERSARIAL, CLARIFY -> {
                AnswerKind want = item.expect() == Suite.Expect.DECLINE ? AnswerKind.DECLINED : AnswerKind.CLARIFICATION;
                if (kind == want) {
                    yield new String[] {"CORRECT", null};
                }
                yield new String[] {kind == AnswerKind.ANSWER ? "WRONG" : "ABSTAINED",
                        "expected " + want.wire() + ", got " + kind.wire()};
            }
            case PREDICTIVE -> kind != AnswerKind.ANSWER ? new String[] {"ABSTAINED", null} : predictive(gold, run, ws);
            case ANALYTIC -> kind != AnswerKind.ANSWER ? new String[] {"ABSTAINED", null} : analytic(item, gold, run, ws);
        };
    }

    private static String[] analytic(Item item, QueryResult gold, AgentRun run, Workspace ws) {
        List<Evidence> evidence = run.evidence();
        if (evidence.isEmpty()) {
            return new String[] {"WRONG", "answered without any query evidence"};
        }
        Evidence last = evidence.get(evidence.size() - 1);
        if (gold.rows().size() == 1 && gold.columns().size() == 1) {
            Object value = gold.rows().get(0).get(0);
            for (Evidence e : evidence) {
                if (ResultMatcher.singleValue(value, e.rows(), e.columns().size(), item.tolerance())) {
                    return new String[] {"CORRECT", null};
                }
            }
            return new String[] {"WRONG", "expected the single value " + value + "; the last query returned "
                    + preview(last.rows(), last.rowCount())};
        }
        List<List<Object>> rows = last.rows();
        if (last.rowCount() != gold.rows().size()) {
            return new String[] {"WRONG", "expected " + gold.rows().size() + " rows " + preview(gold.rows(), gold.rowCount())
                    + "; the last query returned " + preview(rows, last.rowCount())};
        }
        if (rows.size() < last.rowCount()) { // evidence keeps 50 rows: read the rest again in the run's workspace
            try {
                rows = ws.query(last.sql()).rows();
            } catch (Exception e) {
                return new String[] {"WRONG", "the last query's full result could not be re-read: " + message(e)};
            }
        }
        if (ResultMatcher.rowSet(gold.rows(), gold.columns().size(), rows, last.columns().size(), item.tolerance())) {
            return new String[] {"CORRECT", null};
        }
        return new String[] {"WRONG", "rows differ: expected " + preview(gold.rows(), gold.rowCount()) + "; got "
                + preview(rows, last.rowCount())};
    }

    private String[] predictive(QueryResult gold, AgentRun run, Workspace ws) throws Exception {
        Set<String> ml = tools.tools().stream().map(Tool::spec).filter(s -> s.groups() != null && s.groups().contains("predictive"))
                .map(s -> s.name()).collect(Collectors.toSet());
        boolean trained = run.steps().stream().anyMatch(s -> s.outcome() == Step.Outcome.RAN && s.ok() && ml.contains(s.tool()));
        if (!trained) {
            return new String[] {"WRONG", "answered a predictive question without running a model tool"
                    + (ml.isEmpty() ? " (no tool of group 'predictive' is registered)" : " (" + String.join(", ", ml.stream().sorted().toList()) + ")")};
        }
        String column = gold.columns().get(0).name();
        List<Object> want = gold.rows().stream().map(r -> r.get(0)).distinct().toList();
        for (TableInfo f : ws.frames()) {
            for (ColumnInfo c : f.columns()) {
                if (!c.name().equalsIgnoreCase(column)) {
                    continue;
                }
                QueryResult got = ws.trustedQuery("SELECT DISTINCT " + Sql.quoteIdent(c.name()) + " FROM memory.frames."
                        + Sql.quoteIdent(f.name()), want.size() + 1);
                List<List<Object>> wantRows = want.stream().map(v -> Arrays.asList(v)).toList();
                if (ResultMatcher.rowSet(wantRows, 1, got.rows(), 1, 0)) {
                    return includePredictive ? heldBack(run, ws) : new String[] {"CORRECT", null};
                }
            }
        }
        return new String[] {"WRONG", "no frame of the run holds predictions for exactly the " + want.size()
                + " entities of the gold set (column " + column + ")"};
    }

    /** {outcome, reason} of the {@link HeldBack} check of a predictive answer's model. */
    private String[] heldBack(AgentRun run, Workspace ws) throws Exception {
        java.util.Optional<HeldBack.Score> s;
        try {
            s = HeldBack.of(run, ws, tools);
        } catch (dev.sift.ml.MlException e) {
            return new String[] {"ERROR", "held-back check could not be made: " + e.getMessage()};
        }
        if (s.isEmpty()) {
            return new String[] {"WRONG", "held-back check: the run trained no classifier whose call can be made again"};
        }
        return new String[] {s.get().passes() ? "CORRECT" : "WRONG", "held-back check: " + s.get().line()};
    }

    private static String preview(List<List<Object>> rows, long count) {
        String head = rows.stream().limit(3).map(Object::toString).collect(Collectors.joining(", "));
        return count + (count == 1 ? " row" : " rows") + (rows.isEmpty() ? "" : " [" + head + (count > 3 ? ", …" : "") + "]");
    }

    static String message(Throwable e) {
        return oneLine(e.getMessage() == null ? e.toString() : e.getMessage(), 400);
    }

    static String oneLine(String s, int max) {
        String one = String.valueOf(s).replaceAll("\\s*\\R\\s*", " ").trim();
        return one.length() <= max ? one : one.substring(0, max - 1) + "…";
    }
}
