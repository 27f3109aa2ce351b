package dev.sift.agent.grounding;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The indexed facts of the texts a run's prompt showed its model besides the results — the conversation so far, the
 * dataset's section (row counts, variants), its knowledge section — which an answer may cite. Whoever owns the
 * prompt makes one per prompt and passes it to every check of that run, so the kilobytes are scanned once;
 * {@link #prepare()} scans them on a background thread while the model thinks, and a check that comes first waits
 * for that scan or makes it itself.
 */
public final class ReferenceIndex {
    /** No reference texts: a planner without a prompt. */
    public static final ReferenceIndex NONE = new ReferenceIndex(List.of());

    private final List<String> texts;
    private final FutureTask<List<Facts>> index;

    public ReferenceIndex(List<String> texts) {
        this.texts = List.copyOf(texts);
        List<String> own = this.texts;
        this.index = new FutureTask<>(() -> own.stream().map(t -> Facts.builder().text(t).build()).toList());
    }

    /** Starts the scan on a background thread; returns this index. */
    public ReferenceIndex prepare() {
        if (!texts.isEmpty()) {
            CompletableFuture.runAsync(index);
        }
        return this;
    }

    /** The texts, as a trace keeps them for a replay. */
    public List<String> texts() {
        return texts;
    }

    /** The indexed texts: made here unless the background scan has begun, then waited for. */
    List<Facts> facts() {
        index.run(); // does nothing when the scan has run or is running
        try {
            return index.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return texts.stream().map(t -> Facts.builder().text(t).build()).toList();
        } catch (ExecutionException e) {
            throw new IllegalStateException("indexing the prompt's reference texts failed", e.getCause());
        }
    }
}
