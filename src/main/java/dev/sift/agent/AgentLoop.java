package dev.sift.agent;


import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.agent.grounding.AnswerCheck;
import dev.sift.agent.grounding.Groundedness;
import dev.sift.agent.grounding.Grounding;
import dev.sift.agent.grounding.Judge;
import dev.sift.agent.grounding.ReferenceIndex;
import dev.sift.agent.grounding.Verdict;
import dev.sift.data.Clip;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.llm.LlmClient;
import dev.sift.llm.LlmException;
import dev.sift.ml.ModelRegistry;
import dev.sift.tool.ToolCallException;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

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
    private KnowledgeStore knowledge;
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

    /**
     * Where runs find their dataset's knowledge: the application's store, so it is built once per dataset.
     * Without one, each run builds the knowledge it needs for itself.
     */
    public AgentLoop knowledge(KnowledgeStore knowledge) {
        this.knowledge = knowledge;
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

    public AgentRun run(String question) throws InterruptedException {
        return new Run(question).execute();
    }

    /** One run's working state: its context, steps and notes, and the planner's plan for it. */
    private final class Run {
        private final String question;
        private final long start = System.nanoTime();
        private final String startedAt = Instant.now().toString();
        private final ToolContext ctx;
        private final List<Step> steps = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private final LoopGuard guard = new LoopGuard();
        private final Caveats caveats = new Caveats();
        private final RunState state;
        private final Planner.Run plan;
        private int invalidInARow;
        private boolean forced;
        /** The answer is Sift's own text (the evidence), not the planner's: there is nothing of the model's to check. */
        private boolean fellBack;
        /** The last answer checked (with the step count and kind it was checked at) and its check. */
        private String lastChecked;
        private AnswerCheck.Result lastCheck;
        /** The prompt's reference texts, indexed for the checks of this run. */
        private ReferenceIndex reference;
        /** The numbers a first answer stated without support, once a repair turn was asked for. */
        private List<String> repaired = List.of();
        /** The dataset's known names (knowledge-graph labels, aliases, code meanings), built when first needed. */
        private final Supplier<String> names = new Supplier<>() {
            private String text;

            @Override
            public String get() {
                if (text == null) {
                    text = AnswerReplay.names(state.knowledge());
                }
                return text;
            }
        };

        Run(String question) {
            this.question = question;
            Supplier<Knowledge> known = (knowledge == null ? new KnowledgeStore(1) : knowledge).lazy(workspace);
            this.ctx = new ToolContext(workspace, llm, question, models, known);
            ctx.clarifier(clarifier);
            ctx.progress(listener::progress);
            this.state = new RunState(question, steps, tools, workspace, ctx.evidence(), context, known);
            listener.begin(state);
            this.plan = planner.begin(state);
            if (!planner.offline()) {
                reference(); // indexed while the model thinks, not when its answer is checked
            }
        }

        AgentRun execute() throws InterruptedException {
            try {
                Decision.Answer answer = null;
                while (answer == null && steps.size() < config.maxSteps()) {
                    long t0 = System.nanoTime();
                    Usage before = plan.usage();
                    Decision d;
                    try {
                        d = plan.next(state);
                    } catch (UnreadableReplyException e) {
                        add(Step.unreadable(steps.size() + 1, e.getMessage(), millis(t0), plan.usage().minus(before)), null);
                        return finish(FinalAnswers.unreadable(e.getMessage()), AnswerKind.ERROR, null);
                    }
                    if (d instanceof Decision.Answer a) {
                        answer = needsRepair(a, t0, before) ? null : a;
                    } else {
                        AgentRun stopped = act((Decision.Call) d, t0, before);
                        if (stopped != null) {
                            return stopped;
                        }
                    }
                }
                if (answer == null) {
                    answer = forced();
                }
                Groundedness g = fellBack || !checked(answer.kind()) ? null
                        : Groundedness.of(check(answer.text(), answer.kind()), repaired, reference().texts());
                return finish(answer.text(), answer.kind(), g);
            } catch (LlmException e) {
                notes.add("The language model failed: " + e.getMessage());
                return finish(FinalAnswers.modelFailed(e.getMessage(), ctx.evidence()), AnswerKind.ERROR, null);
            }
        }

        /** A model's first answer that states numbers no result holds gets one repair turn: it may query for them. */
        private boolean needsRepair(Decision.Answer a, long t0, Usage before) {
            if (!repaired.isEmpty() || !checked(a.kind())) {
                return false;
            }
            AnswerCheck.Result check = check(a.text(), a.kind());
            if (check.grounded()) {
                return false;
            }
            repaired = check.unsupported().stream().map(c -> c.text()).distinct().toList();
            add(new Step(steps.size() + 1, Step.Outcome.UNSUPPORTED, a.thought(), null, null, false,
                    String.format(Grounding.REPAIR, check.unsupportedText()), a.raw(), millis(t0),
                    plan.usage().minus(before)), null);
            return true;
        }

        /**
         * Validates a call and runs it; an invalid call goes back for repair a bounded number of times, then is
         * dropped. Returns the finished run when the same call has now failed {@link LoopGuard#STOP_AFTER} times.
         */
        private AgentRun act(Decision.Call call, long t0, Usage before) throws InterruptedException {
            ToolRegistry.Outcome outcome = tools.call(call.tool(), call.args(), ctx);
            if (outcome instanceof ToolRegistry.Outcome.Invalid invalid) {
                return invalid(call, invalid.error(), t0, before);
            }
            invalidInARow = 0;
            ToolResult r = ((ToolRegistry.Outcome.Ran) outcome).result();
            String observation = r.summary();
            if (!r.ok()) {
                String directive = guard.failed(call.tool(), call.args(), r.error());
                observation += directive == null ? "" : "\n" + directive;
            }
            add(Step.ran(steps.size() + 1, call, r.ok(), observation, millis(t0), plan.usage().minus(before)), r);
            return !r.ok() && guard.failures(call.tool(), call.args()) >= LoopGuard.STOP_AFTER
                    ? stopRepeating(call, r.error()) : null;
        }

        private AgentRun invalid(Decision.Call call, String error, long t0, Usage before) {
            invalidInARow++;
            String directive = guard.failed(call.tool(), call.args(), error);
            if (guard.failures(call.tool(), call.args()) >= LoopGuard.STOP_AFTER) {
                return stopRepeating(call, error);
            }
            String redirect = directive == null ? "" : " " + directive;
            Usage tokens = plan.usage().minus(before);
            if (invalidInARow > config.maxRepairs()) {
                invalidInARow = 0;
                String note = "Dropped an invalid call to " + call.tool() + " " + compact(call.args()) + ": " + error;
                if (!notes.contains(note)) {
                    notes.add(note);
                }
                add(Step.dropped(steps.size() + 1, call, "Error: " + error + " This call could not be made valid and was"
                        + " dropped. Continue without it, using only tools, tables and columns that exist." + redirect,
                        millis(t0), tokens), null);
            } else {
                add(Step.invalid(steps.size() + 1, call, "Error: " + error + " Fix the call and try again." + redirect,
                        millis(t0), tokens), null);
            }
            return null;
        }

        /** The same call failed {@link LoopGuard#STOP_AFTER} times: stop, say so once, keep what was gathered. */
        private AgentRun stopRepeating(Decision.Call call, String error) {
            notes.add("Stopped after the same call to " + call.tool() + " failed " + LoopGuard.STOP_AFTER + " times: "
                    + error);
            return finish(FinalAnswers.repeatedFailure(call.tool(), LoopGuard.STOP_AFTER, error, ctx.evidence()),
                    ctx.evidence().isEmpty() ? AnswerKind.ERROR : AnswerKind.ANSWER, null);
        }

        /** The step budget is spent: the planner's best final answer, or the evidence itself. */
        private Decision.Answer forced() throws LlmException {
            forced = true;
            notes.add("The step budget of " + config.maxSteps() + " steps ran out; the answer was forced from"
                    + " what the run had gathered.");
            try {
                return plan.forceFinal(state);
            } catch (UnreadableReplyException e) {
                fellBack = true;
                return Decision.answer(null, FinalAnswers.budgetSpent(ctx.evidence()), AnswerKind.ANSWER, null);
            }
        }

        private void add(Step step, ToolResult result) {
            steps.add(step);
            caveats.add(result);
            if (result != null) {
                result.note().filter(n -> !notes.contains(n)).ifPresent(notes::add);
            }
            listener.onStep(step, result);
        }

        /** Model answers are checked, whatever their kind (a refusal that states a number states it); errors are ours. */
        private boolean checked(AnswerKind kind) {
            return !planner.offline() && kind != AnswerKind.ERROR;
        }

        private AnswerCheck.Result check(String answer, AnswerKind kind) {
            String key = steps.size() + "\u0000" + kind + "\u0000" + answer;
            if (!key.equals(lastChecked)) { // a grounded first answer is checked once, not again as the final one
                lastCheck = grounding.check(answer, ctx.evidence(), AnswerReplay.texts(steps),
                        AnswerReplay.literals(state.question(), steps), reference(), names,
                        kind == AnswerKind.CLARIFICATION || kind == AnswerKind.DECLINED);
                lastChecked = key;
            }
            return lastCheck;
        }

        /**
         * What the check reads that the steps do not hold: the conversation so far, the prompt's dataset facts; indexed
         * once for the run, again only if the prompt changes (a run that switches its dataset).
         */
        private ReferenceIndex reference() {
            List<String> texts = new ArrayList<>();
            if (!state.context().isEmpty()) {
                texts.add(state.context().render());
            }
            texts.addAll(plan.reference());
            if (reference == null || !reference.texts().equals(texts)) {
                reference = new ReferenceIndex(texts).prepare();
            }
            return reference;
        }

        /**
         * The caveats as notes, and the answer carrying them (put in front when it does not say so itself): a weak
         * model's, and a currency the question names that the data is not in.
         */
        private String warned(String answer) {
            String text = answer;
            Optional<UnitCaveat.Caveat> unit = UnitCaveat.of(question, ctx.evidence(), state.knowledge().graph());
            if (unit.isPresent()) { // a currency the data is not in
                notes.add(unit.get().text());
                text = unit.get().onto(text);
            }
            if (caveats.isEmpty()) {
                return text;
            }
            notes.addAll(caveats.all());
            String out = caveats.enforce(text);
            if (!java.util.Objects.equals(out, text)) {
                notes.add("The answer did not say that its model is weak; Sift put the warning in front of it.");
            }
            return out;
        }

        /** Each result the planner was shown, once: a query with its observation, or another tool's observation. */
        private List<String> results() {
            List<String> out = new ArrayList<>();
            for (Step s : steps) {
                if (s.outcome() == Step.Outcome.RAN && s.ok()) {
                    JsonNode sql = s.args() == null ? null : s.args().get("sql");
                    out.add((sql != null && sql.isTextual() ? "Query: " + sql.asText()
                            : "Tool " + s.tool() + " " + compact(s.args())) + "\n" + s.observation());
                }
            }
            return out;
        }

        /** The one place a run's outcome is assembled: answer, kind, groundedness status, evidence, steps, notes. */
        private AgentRun finish(String text, AnswerKind kind, Groundedness checked) {
            AnswerKind k = kind == null ? AnswerKind.ANSWER : kind;
            String capped = k == AnswerKind.ERROR ? text : FinalAnswers.capped(text);
            String answer = k == AnswerKind.ANSWER ? warned(capped) : capped;
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
                answer = FinalAnswers.warned(FinalAnswers.unsupportedWarning(g.unsupported(), g.repairAsked()), answer);
                notes.add("Numbers in this answer that no result supports" + (g.repairAsked() ? ", even after a repair"
                        + " turn" : "") + ": " + String.join(", ", g.unsupported()) + ".");
            } else {
                if (g.repairAsked()) {
                    notes.add("The first answer stated numbers that no result supports (" + String.join(", ",
                            g.repaired()) + "); after one repair turn the answer cites only results.");
                }
                status = AgentRun.Status.NOT_SAMPLED;
                if (k == AnswerKind.ANSWER && grounding.sampled(question, answer)) {
                    try {
                        Verdict v = grounding.judge(question, answer, results());
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
            return new AgentRun(UUID.randomUUID().toString(), question, workspace.dataset().name(), planner.name(),
                    answer, k, status, EvidenceRows.fit(ctx.evidence(), ctx.workspace(), config.evidenceRows()),
                    List.copyOf(steps), List.copyOf(notes), startedAt,
                    millis(start), plan.usage(), plan.toolsShown().orElse(null), g,
                    new AgentRun.Signals(guard.triggers(), forced));
        }
    }

    private static String compact(JsonNode args) {
        String s = String.valueOf(args);
        return Clip.words(s, 200);
    }

    private static long millis(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
