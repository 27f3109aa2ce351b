package dev.sift.tool;

import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Knowledge;
import dev.sift.knowledge.KnowledgeStore;
import dev.sift.llm.LlmClient;
import dev.sift.ml.ModelRegistry;
import dev.sift.text.Evidence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What tools may use during one run: the session's workspace, the model (if any), the run's evidence and
 * the session's ML model registry (shared across the steps of a run, and across turns when a session
 * passes the same registry in).
 */
public final class ToolContext {
    private final Workspace workspace;
    private final LlmClient llm;
    private final String question;
    private final ModelRegistry models;
    private final Supplier<Knowledge> knowledge;
    private final List<Evidence> evidence = new ArrayList<>();

    private Clarifier clarifier;
    private dev.sift.data.Progress progress = dev.sift.data.Progress.NONE;

    /**
     * Answers a clarifying question during a run: the app pauses the run until the person replies; headless
     * runs have none and take the tool's stated default.
     */
    @FunctionalInterface
    public interface Clarifier {
        /** The chosen answer (one of {@code options} or free text); blocks until the person replies. */
        String ask(String question, List<String> options, String defaultOption) throws InterruptedException;
    }

    public ToolContext(Workspace workspace, LlmClient llm, String question) {
        this(workspace, llm, question, new ModelRegistry());
    }

    /** A context whose knowledge is built for it alone, on first use. */
    public ToolContext(Workspace workspace, LlmClient llm, String question, ModelRegistry models) {
        this(workspace, llm, question, models, new KnowledgeStore(1).lazy(workspace));
    }

    /** A run's context: {@code knowledge} is the dataset's knowledge, looked up when a tool first needs it. */
    public ToolContext(Workspace workspace, LlmClient llm, String question, ModelRegistry models,
                       Supplier<Knowledge> knowledge) {
        this.workspace = workspace;
        this.llm = llm;
        this.question = question;
        this.models = models;
        this.knowledge = knowledge;
    }

    /** The knowledge of the workspace's dataset (graph, value index, search index). */
    public Knowledge knowledge() {
        return knowledge.get();
    }

    /** The session's trained models. */
    public ModelRegistry models() {
        return models;
    }

    public void clarifier(Clarifier clarifier) {
        this.clarifier = clarifier;
    }

    /** Who answers {@code clarify}; empty in headless runs. */
    public Optional<Clarifier> clarifier() {
        return Optional.ofNullable(clarifier);
    }

    /** Where a long tool (one calling the model on rows) reports how far it is: the CLI's stderr, the web trace. */
    public void progress(dev.sift.data.Progress progress) {
        this.progress = progress == null ? dev.sift.data.Progress.NONE : progress;
    }

    public dev.sift.data.Progress progress() {
        return progress;
    }

    public Workspace workspace() {
        return workspace;
    }

    /**
     * The table or frame a {@code SOURCE} argument names. The registry checked that it exists before the tool ran,
     * so its absence here is a bug of ours, not the planner's: it fails loudly.
     */
    public TableInfo source(String name) {
        return workspace.table(name).orElseThrow(() -> new IllegalStateException("source '" + name
                + "' was validated before the tool ran and is gone now"));
    }

    /** The configured model; empty when Sift runs offline. */
    public Optional<LlmClient> llm() {
        return Optional.ofNullable(llm);
    }

    public String question() {
        return question;
    }

    public void addEvidence(Evidence e) {
        evidence.add(e);
    }

    public List<Evidence> evidence() {
        return Collections.unmodifiableList(evidence);
    }
}
