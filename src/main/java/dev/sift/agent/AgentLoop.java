package dev.sift.agent;


import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Groundedness;
import dev.sift.agent.grounding.Grounding;
import dev.sift.agent.grounding.Judge;
import dev.sift.agent.grounding.Verdict;
import dev.sift.data.Workspace;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.ml.ModelRegistry;
import dev.sift.agent.Planner;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import dev.sift.text.EvidenceText;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The run: ask the planner for one decision at a time, validate it against the live schema, run it, and
 * feed the observation back, until a final answer or the step budget. Planner mistakes become
 * observations (repaired a bounded number of times, then dropped with a note); our bugs propagate.
 */
public final class AgentLoop {
    private final Planner planner;
    private final ToolRegistry tools;
    private final Workspace workspace;
    private final LlmClient llm;
    private final AgentConfig config;
    private final ModelRegistry models;
    private StepListener listener = StepListener.NONE;
    private ToolContext.Clarifier clarifier;
    private TurnContext context = TurnContext.NONE;
    private Grounding grounding = Grounding.CHECK_ONLY;

    public AgentLoop(Planner planner, ToolRegistry tools, Workspace workspace, LlmClient llm, AgentConfig config) {
        this(planner, tools, workspace, llm, config, new ModelRegistry());
    }

    /** A loop whose runs share {@code models} (a session passes its registry so models outlive a turn). */
    public AgentLoop(Planner planner, ToolRegistry tools, Workspace workspace, LlmClient llm, AgentConfig config,
                     ModelRegistry models) {
        this.planner = planner;
        this.tools = tools;
        this.workspace = workspace;
        this.llm = llm;
        this.config = config;
        this.models = models;
    }

    /** Called with each step as soon as it is made (the web app streams them); must not throw. */
    public AgentLoop onStep(StepListener listener) {
        this.listener = listener == null ? StepListener.NONE : listener;
        return this;
    }

    /** Who answers the {@code clarify} tool; without one, runs take the tool's stated default. */
    public AgentLoop clarifier(ToolContext.Clarifier clarifier) {
        this.clarifier = clarifier;
        return this;
    }

    /** The conversation this run is a turn of: resolved references and earlier turns, shown to the planner. */
    public AgentLoop context(TurnContext context) {
        this.context = context == null ? TurnContext.NONE : context;
        return this;
    }

    /** The groundedness checks for model answers (default: the deterministic check, no judge). */
    public AgentLoop grounding(Grounding grounding) {
        this.grounding = grounding == null ? Grounding.CHECK_ONLY : grounding;
        return this;
    }

    public AgentRun run(String question) throws Exception {
        long start = System.nanoTime();
        String startedAt = Instant.now().toString();
        ToolContext ctx = new ToolContext(workspace, llm, question, models);
        ctx.clarifier(clarifier);
        List<Step> steps = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        LoopGuard guard = new LoopGuard();
        RunState state = new RunState(question, steps, tools, workspace, ctx.evidence(), context);
        Decision last = null;
        boolean forced = false;
        int invalidInARow = 0;
        List<String> repaired = List.of();
        try {
            while (steps.size() < config.maxSteps()) {
                long t0 = System.nanoTime();
                Usage before = planner.usage();
                Decision d;
                try {
                    d = planner.next(state);
                } catch (UnreadableReplyException e) {
                    emit(steps, new Step(steps.size() + 1, Step.Outcome.UNREADABLE, null, null, null, false,
                            e.getMessage(), null, millis(t0), planner.usage().minus(before)), null);
                    return finish(question, "The model's replies could not be read as a decision, even after a"
                            + " correction: " + e.getMessage() + " No answer was produced; nothing was guessed.",
                            AnswerKind.ERROR, ctx, steps, notes, startedAt, start, null, guard, false);
                }
                if (d.isFinal()) {
                    if (repaired.isEmpty() && checked(d.kind())) {
                        AnswerCheck.Result check = check(d.finalAnswer(), ctx, steps, state);
                        if (!check.grounded()) {
                            // One repair turn: the planner sees which numbers no result holds and may query for them.
                            repaired = check.unsupported().stream().map(c -> c.text()).distinct().toList();
                            emit(steps, new Step(steps.size() + 1, Step.Outcome.UNSUPPORTED, d.thought(), null, null,
                                    false, String.format(Grounding.REPAIR, check.unsupportedText()), d.raw(), millis(t0),
                                    planner.usage().minus(before)), null);
                            continue;
                        }
                    }
                    last = d;
                    break;
                }
                ToolRegistry.PreparedCall call;
                try {
                    call = tools.prepare(d.tool(), d.args(), workspace);
                } catch (ToolCallException e) {
                    invalidInARow++;
                    String error = e.getMessage();
                    String directive = guard.failed(d.tool(), d.args(), error);
                    if (guard.failures(d.tool(), d.args()) >= LoopGuard.STOP_AFTER) {
                        return stopRepeating(question, d, error, ctx, steps, notes, startedAt, start, guard);
                    }
                    if (invalidInARow > config.maxRepairs()) {
                        invalidInARow = 0;
                        String note = "Dropped an invalid call to " + d.tool() + " " + compact(d.args()) + ": " + error;
                        if (!notes.contains(note)) {
                            notes.add(note);
                        }
                        emit(steps, new Step(steps.size() + 1, Step.Outcome.DROPPED, d.thought(), d.tool(), d.args(),
                                false, "Error: " + error + " This call could not be made valid and was dropped."
                                + " Continue without it, using only tools, tables and columns that exist."
                                + (directive == null ? "" : " " + directive), d.raw(), millis(t0), planner.usage().minus(before)), null);
                    } else {
                        emit(steps, new Step(steps.size() + 1, Step.Outcome.INVALID, d.thought(), d.tool(), d.args(),
                                false, "Error: " + error + " Fix the call and try again."
                                + (directive == null ? "" : " " + directive), d.raw(), millis(t0), planner.usage().minus(before)), null);
                    }
                    continue;
                }
                invalidInARow = 0;
                ToolResult r = tools.run(call, ctx);
                String observation = r.summary();
                if (!r.ok()) {
                    String directive = guard.failed(d.tool(), d.args(), r.error());
                    observation += directive == null ? "" : "\n" + directive;
                }
                emit(steps, new Step(steps.size() + 1, Step.Outcome.RAN, d.thought(), d.tool(), d.args(), r.ok(),
                        observation, d.raw(), millis(t0), planner.usage().minus(before)), r);
                if (!r.ok() && guard.failures(d.tool(), d.args()) >= LoopGuard.STOP_AFTER) {
                    return stopRepeating(question, d, r.error(), ctx, steps, notes, startedAt, start, guard);
                }
            }
            boolean ours = false;
            if (last == null) {
                forced = true;
                notes.add("The step budget of " + config.maxSteps() + " steps ran out; the answer was forced from"
                        + " what the run had gathered.");
                try {
                    last = planner.forceFinal(state);
                } catch (UnreadableReplyException e) {
                    last = Decision.answer(null, fallbackAnswer(ctx), AnswerKind.ANSWER, null);
                    ours = true;
                }
            }
            Groundedness g = null;
            if (!ours && checked(last.kind())) {
                AnswerCheck.Result check = check(last.finalAnswer(), ctx, steps, state);
                g = new Groundedness(check.claims().size(),
                        check.unsupported().stream().map(c -> c.text()).distinct().toList(), repaired, null, null);
            }
            return finish(question, last.finalAnswer(), last.kind(), ctx, steps, notes, startedAt, start, g, guard,
                    forced);
        } catch (LlmException e) {
            notes.add("The language model failed: " + e.getMessage());
            return finish(question, "The language model could not be used, so this run stopped: " + e.getMessage()
                    + (ctx.evidence().isEmpty() ? " Nothing was guessed." : "\nResults gathered before it failed:\n"
                    + EvidenceText.plainText(ctx.evidence())), AnswerKind.ERROR, ctx, steps, notes, startedAt, start,
                    null, guard, forced);
        }
    }

    /** Model answers are checked, whatever their kind (a refusal that states a number states it); errors are ours. */
    private boolean checked(AnswerKind kind) {
        return !planner.offline() && kind != AnswerKind.ERROR;
    }

    private AnswerCheck.Result check(String answer, ToolContext ctx, List<Step> steps, RunState state) {
        return grounding.check(answer, ctx.evidence(), shown(steps, state));
    }

    /** The text the planner was shown besides result tables: question, context, observations, call arguments. */
    private static List<String> shown(List<Step> steps, RunState state) {
        List<String> texts = new ArrayList<>();
        texts.add(state.question());
        if (!state.context().isEmpty()) {
            texts.add(state.context().render());
        }
        for (Step s : steps) {
            if (s.outcome() == Step.Outcome.RAN && s.ok()) {
                texts.add(s.observation());
                if (s.args() != null) {
                    texts.add(s.args().toString());
                }
            }
        }
        return texts;
    }

    private static List<String> observations(List<Step> steps) {
        return steps.stream().filter(s -> s.outcome() == Step.Outcome.RAN && s.ok()).map(Step::observation).toList();
    }

    /** The same call failed {@link LoopGuard#STOP_AFTER} times: stop, say so once, keep what was gathered. */
    private AgentRun stopRepeating(String question, Decision d, String error, ToolContext ctx, List<Step> steps,
                                   List<String> notes, String startedAt, long start, LoopGuard guard) {
        notes.add("Stopped after the same call to " + d.tool() + " failed " + LoopGuard.STOP_AFTER + " times: " + error);
        String answer = "I stopped because the same " + d.tool() + " call failed " + LoopGuard.STOP_AFTER
                + " times (" + error + ")" + (ctx.evidence().isEmpty() ? ", and no results were gathered, so there is"
                + " no answer; nothing was guessed." : ". The results gathered before that:\n"
                + EvidenceText.plainText(ctx.evidence()));
        return finish(question, answer, ctx.evidence().isEmpty() ? AnswerKind.ERROR : AnswerKind.ANSWER, ctx, steps,
                notes, startedAt, start, null, guard, false);
    }

    private void emit(List<Step> steps, Step step, ToolResult result) {
        steps.add(step);
        listener.onStep(step, result);
    }

    /** With nothing better, the evidence itself, plainly. */
    private static String fallbackAnswer(ToolContext ctx) {
        return ctx.evidence().isEmpty() ? "I could not reach an answer within the step budget, and no query results"
                + " were gathered." : "I could not finish within the step budget. The results gathered so far:\n"
                + EvidenceText.plainText(ctx.evidence());
    }

    private AgentRun finish(String question, String answer, AnswerKind kind, ToolContext ctx, List<Step> steps,
                            List<String> notes, String startedAt, long start, Groundedness checked, LoopGuard guard,
                            boolean forced) {
        AnswerKind k = kind == null ? AnswerKind.ANSWER : kind;
        if (planner.offline()) {
            notes.add("No language model is in use, so Sift answered offline (rule-based).");
        }
        Groundedness g = checked == null ? Groundedness.NONE : checked;
        AgentRun.Status status;
        if (k == AnswerKind.ERROR) {
            status = AgentRun.Status.FAILED;
        } else if (planner.offline()) {
            status = ctx.evidence().isEmpty() ? AgentRun.Status.LLM_DISABLED : AgentRun.Status.RULE_BASED;
        } else if (!g.unsupported().isEmpty()) {
            status = AgentRun.Status.UNGROUNDED;
            notes.add("Numbers in this answer that no result supports" + (g.repairAsked() ? ", even after a repair turn"
                    : "") + ": " + String.join(", ", g.unsupported()) + ".");
        } else {
            if (g.repairAsked()) {
                notes.add("The first answer stated numbers that no result supports (" + String.join(", ", g.repaired())
                        + "); after one repair turn the answer cites only results.");
            }
            status = AgentRun.Status.NOT_SAMPLED;
            if (k == AnswerKind.ANSWER && grounding.sampled(question, answer)) {
                try {
                    Verdict v = grounding.judge(question, answer, ctx.evidence(), observations(steps));
                    g = g.withJudge(v);
                    status = AgentRun.Status.JUDGED;
                    if (!v.grounded()) {
                        notes.add("The judge found this answer " + v.verdict() + (v.unsupported().isEmpty() ? ""
                                : "; claims it could not find: " + String.join("; ", v.unsupported())) + ".");
                    }
                } catch (Judge.JudgeException e) {
                    g = g.withJudgeError(e.getMessage());
                    status = AgentRun.Status.FAILED;
                    notes.add("This answer was sampled for judging but the judge failed: " + e.getMessage());
                }
            }
        }
        return new AgentRun(UUID.randomUUID().toString(), question, workspace.dataset().name(), planner.name(), answer,
                k, status, List.copyOf(ctx.evidence()), List.copyOf(steps), List.copyOf(notes), startedAt,
                millis(start), planner.usage(), planner.toolsShown().orElse(null), g,
                new AgentRun.Signals(guard.triggers(), forced));
    }

    private static String compact(JsonNode args) {
        String s = String.valueOf(args);
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    private static long millis(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
