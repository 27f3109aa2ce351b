package dev.sift.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sift.agent.AgentConfig;
import dev.sift.agent.AgentLoop;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.agent.FinalAnswers;
import dev.sift.agent.RunCharts;
import dev.sift.agent.RunJson;
import dev.sift.agent.StepListener;
import dev.sift.agent.TraceStore;
import dev.sift.agent.TurnContext;
import dev.sift.agent.Usage;
import dev.sift.agent.grounding.Grounding;
import dev.sift.data.QueryException;
import dev.sift.data.Workspace;
import dev.sift.ml.ModelRegistry;
import dev.sift.ml.ModelStore;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.llm.LlmClient;
import dev.sift.agent.Planner;
import dev.sift.text.Evidence;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A session that is active in this process: its saved state plus an open workspace holding its frames.
 * Opening it re-creates the frames of earlier turns from their saved SQL (datasets never change after they
 * are built, so the rows are the same). One turn runs at a time; every turn is saved atomically before
 * {@link #ask} returns, so a restart loses nothing but the open workspace, which the next open rebuilds.
 */
public final class Conversation implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Conversation.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What a turn needs from the wiring; {@code knowledge} is the application's store of dataset knowledge,
     * {@code models} where trained models are saved (null: they live while the session is open).
     */
    public record Engine(Supplier<Planner> planner, ToolRegistry tools, LlmClient llm, TraceStore traces,
                         ReferenceResolver resolver, KnowledgeStore knowledge, Grounding grounding, ModelStore models) {

        /** An engine whose models are saved nowhere. */
        public Engine(Supplier<Planner> planner, ToolRegistry tools, LlmClient llm, TraceStore traces,
                      ReferenceResolver resolver, KnowledgeStore knowledge, Grounding grounding) {
            this(planner, tools, llm, traces, resolver, knowledge, grounding, null);
        }

        /** An engine with a knowledge store of its own, whose answers get the deterministic check only. */
        public Engine(Supplier<Planner> planner, ToolRegistry tools, LlmClient llm, TraceStore traces,
                      ReferenceResolver resolver) {
            this(planner, tools, llm, traces, resolver, new KnowledgeStore(), Grounding.CHECK_ONLY);
        }
    }

    /** A finished turn: the saved turn, the run, its trace, the run's JSON (with charts) and the session after it. */
    public record Outcome(Turn turn, AgentRun run, Path trace, ObjectNode json, Session session) { }

    private final SessionStore store;
    private final Workspace workspace;
    /** The models this session's turns use: made on the first turn, from the engine's store (if any). */
    private ModelRegistry models;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final List<String> restoreNotes;
    private volatile Session session;

    private Conversation(SessionStore store, Session session, Workspace workspace, List<String> restoreNotes) {
        this.store = store;
        this.session = session;
        this.workspace = workspace;
        this.restoreNotes = restoreNotes;
    }

    /** Opens a session on a workspace of its dataset and re-creates its frames, oldest first. */
    public static Conversation open(SessionStore store, Session session, Workspace workspace) {
        List<String> notes = new ArrayList<>();
        if (session.datasetFingerprint() != null && !session.datasetFingerprint().equals(workspace.dataset().fingerprint())) {
            notes.add("Dataset '" + session.dataset() + "' was rebuilt since this session's frames were made; they"
                    + " were re-created from their SQL on the current data.");
        }
        for (SavedFrame f : session.frames()) {
            try {
                workspace.saveFrame(f.label(), f.sql());
            } catch (QueryException e) {
                LOG.warn("Could not re-create frame {} of session {}: {}", f.label(), session.id(), e.getMessage());
                notes.add("Frame '" + f.label() + "' (turn " + f.turn() + ") could not be re-created: " + e.getMessage());
            }
        }
        return new Conversation(store, session, workspace, Collections.unmodifiableList(notes));
    }

    public Session session() {
        return session;
    }

    /** The session's models, made on its first turn from the engine's store (saved nowhere without one). */
    private ModelRegistry models(Engine engine) {
        if (models == null) {
            models = engine.models() == null ? new ModelRegistry() : new ModelRegistry(engine.models(), workspace::dataset);
        }
        return models;
    }

    public Workspace workspace() {
        return workspace;
    }

    /** Problems met when the frames were re-created (empty when all went well). */
    public List<String> restoreNotes() {
        return restoreNotes;
    }

    /** True while a turn is running (the session is busy). */
    public boolean busy() {
        return lock.isLocked();
    }

    /**
     * Runs one turn: classifies it and resolves its references, hands both to the planner, runs the loop,
     * records the turn (with its frames and charts) and saves the session.
     */
    public Outcome ask(String asked, Engine engine, AgentConfig config, StepListener listener,
                       ToolContext.Clarifier clarifier, Consumer<Resolution> onResolved) throws Exception {
        if (asked == null || asked.isBlank()) {
            throw new IllegalArgumentException("The question is empty: ask something, e.g. \"How many loans are there?\"");
        }
        lock.lock();
        try {
            Session s = session;
            Resolution r = unanchored(asked, s.thread(), ClarificationReply.merge(asked.trim(), s.thread(), workspace.datasetTables())
                    .orElseGet(() -> engine.resolver().resolve(asked.trim(), s.thread(), workspace.datasetTables())));
            if (onResolved != null) {
                onResolved.accept(r);
            }
            RunCharts collect = new RunCharts(listener);
            AgentRun run = r.kind() == TurnKind.ABANDON && r.question().isBlank()
                    ? setAside(asked, s.dataset())
                    : r.kind() == TurnKind.AMBIGUOUS || r.kind() == TurnKind.UNANCHORED ? askBack(asked, s.dataset(), r)
                    : new AgentLoop(engine.planner().get(), engine.tools(), workspace, engine.llm(), config, models(engine))
                            .knowledge(engine.knowledge()).grounding(engine.grounding()).onStep(collect)
                            .clarifier(clarifier).context(context(asked, r, s.thread())).run(r.question());
            Path trace = engine.traces().save(run);
            ObjectNode json = RunJson.of(run, trace);
            json.set("charts", JSON.valueToTree(collect.of(run)));
            putTurn(json, s, asked, r);
            return record(s, asked, r, run, trace, json);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A follow-up with nothing to follow ({@link TurnKind#UNANCHORED}): read as a question of its own, "and their average
     * depth?" after a turn that was asked back would be answered over every row, which is not what was asked.
     */
    private static Resolution unanchored(String asked, List<Turn> thread, Resolution r) {
        boolean orphan = r.kind() == TurnKind.NEW && !thread.isEmpty() && RuleReferenceResolver.answered(thread).isEmpty()
                && TurnClassifier.leansBack(asked.trim());
        return orphan ? new Resolution(TurnKind.UNANCHORED, asked.trim(), List.of(), "rules") : r;
    }

    /** The run of a turn that only set the thread aside: nothing planned, nothing to answer. */
    private static AgentRun setAside(String asked, String dataset) {
        return new AgentRun(UUID.randomUUID().toString(), asked, dataset, "none", FinalAnswers.setAside(),
                AnswerKind.CLARIFICATION, AgentRun.Status.LLM_DISABLED, List.of(), List.of(), List.of(),
                Instant.now().toString(), 0, Usage.NONE);
    }

    /** The run of a turn that could lean on more than one earlier turn: nothing planned, the person asked which. */
    private static AgentRun askBack(String asked, String dataset, Resolution r) {
        return new AgentRun(UUID.randomUUID().toString(), asked, dataset, "none", r.askBack(),
                AnswerKind.CLARIFICATION, AgentRun.Status.NOT_SAMPLED, List.of(), List.of(), List.of(),
                Instant.now().toString(), 0, Usage.NONE);
    }

    /** What the planner is told of the thread: the turn's kind, its own words when resolved, earlier answers. */
    private static TurnContext context(String asked, Resolution r, List<Turn> thread) {
        List<String> earlier = new ArrayList<>();
        if (r.kind() != TurnKind.ABANDON) {
            for (Turn t : RuleReferenceResolver.answered(thread)) { // a refused turn is no context
                String first = t.answer() == null ? "" : t.answer().lines().findFirst().orElse("");
                earlier.add("Turn " + t.index() + ": " + t.question() + " → " + first
                        + (t.frames().isEmpty() ? "" : " (frames: " + String.join(", ", t.frames()) + ")"));
            }
        }
        List<String> refs = new ArrayList<>(r.references());
        thread.stream().filter(t -> r.kind() == TurnKind.SAME && t.index() == r.sameAs()).findFirst()
                .ifPresent(t -> refs.add("'" + asked.trim() + "' asks turn " + t.index() + "'s question again (\""
                        + t.question() + "\") with what it changes"));
        return new TurnContext(r.kind().wire(), r.question().equals(asked.trim()) ? null : asked.trim(), refs, earlier,
                r.kind() == TurnKind.REFINE ? followUpsBefore(thread) : List.of());
    }

    /**
     * The own words of the follow-ups the last answered turn's question was built from, oldest first: each turn back
     * that refined the one before it, up to the question they all lean on.
     */
    private static List<String> followUpsBefore(List<Turn> thread) {
        List<Turn> answered = RuleReferenceResolver.answered(thread);
        java.util.LinkedList<String> out = new java.util.LinkedList<>();
        for (int k = answered.size() - 1; k >= 0; k--) {
            Turn t = answered.get(k);
            if (t.kind() != TurnKind.REFINE || t.asked().equals(t.question())) {
                break;
            }
            out.addFirst(t.asked());
        }
        return out;
    }

    private static void putTurn(ObjectNode json, Session s, String asked, Resolution r) {
        ObjectNode turnJson = json.putObject("turn");
        turnJson.put("index", s.turns().size() + 1);
        turnJson.put("kind", r.kind().wire());
        turnJson.put("asked", asked.trim());
        turnJson.put("question", r.question());
        turnJson.set("references", JSON.valueToTree(r.references()));
        turnJson.put("resolved_by", r.resolvedBy());
        if (r.sameAs() > 0) {
            turnJson.put("same_as", r.sameAs());
        }
        if (!r.readings().isEmpty()) {
            turnJson.set("readings", JSON.valueToTree(r.readings()));
        }
        turnJson.put("session_id", s.id());
    }

    /** Records the turn with the frames its run made and saves the session atomically. */
    private Outcome record(Session s, String asked, Resolution r, AgentRun run, Path trace, ObjectNode json)
            throws IOException {
        int index = s.turns().size() + 1;
        String subject = RuleReferenceResolver.subjectOf(r.question(), workspace.datasetTables());
        List<Turn> answered = RuleReferenceResolver.answered(s.thread());
        if (subject == null && r.kind() == TurnKind.REFINE && !answered.isEmpty()) {
            subject = answered.get(answered.size() - 1).subject();
        }
        if (subject == null && r.kind() == TurnKind.SAME) { // the subject of the turn it repeats
            subject = answered.stream().filter(t -> t.index() == r.sameAs()).map(Turn::subject).findFirst().orElse(null);
        }
        List<SavedFrame> made = new ArrayList<>();
        for (Evidence e : run.evidence()) {
            if (e.frame() != null) {
                made.add(new SavedFrame(e.frame(), e.sql(), index));
            }
        }
        Turn turn = new Turn(index, asked.trim(), r.question(), r.kind(), r.references(), r.resolvedBy(), subject,
                run.runId(), run.answer(), run.kind().wire(), run.status().wire(),
                made.stream().map(SavedFrame::label).toList(), json, Instant.now().toString(), run.millis());
        dev.sift.data.Dataset now = workspace.dataset();
        Session on = now.name().equals(s.dataset()) ? s
                : s.withDataset(now.name(), now.fingerprint()); // the run connected another source
        Session next = on.withTurn(turn, made, Instant.now().toString());
        store.save(next);
        session = next;
        return new Outcome(turn, run, trace, json, next);
    }

    @Override
    public void close() {
        workspace.close();
    }
}
