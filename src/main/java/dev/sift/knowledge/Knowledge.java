package dev.sift.knowledge;

import dev.sift.data.Workspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything Sift knows about one dataset: the {@link KnowledgeGraph} (automatic, overlaid with the bundled
 * curated file {@code kg/<dataset>.kg.yaml} when there is one, and then with the user's own file
 * {@code $SIFT_HOME/kg/<dataset>.kg.yaml}) and the {@link ValueIndex}. A dataset without a curated file gets the
 * automatic graph alone. A curated file that does not match the data throws {@link KgException} naming the file
 * and entries. Built by {@link #load}; a {@link KnowledgeStore} keeps the knowledge of recently used datasets
 * (keyed with the user file's stamp, so an edited file is read again).
 */
public final class Knowledge {
    private static final Logger LOG = LoggerFactory.getLogger(Knowledge.class);

    private final KnowledgeGraph graph;
    private final ValueIndex values;
    private SearchIndex index;
    /** What is derived from this knowledge and lives as long as it does (a rendering, a planner's lexicon). */
    private final Map<Class<?>, Object> derived = new ConcurrentHashMap<>();

    /** Whether the search index adds dense retrieval (configuration, {@code SIFT_EMBEDDINGS}). */
    private volatile boolean dense;

    private Knowledge(KnowledgeGraph graph, Optional<ValueFile> many) {
        this.graph = graph;
        this.values = new ValueIndex(graph, many);
    }

    /** What identifies the knowledge of the workspace's dataset: its fingerprint, file and the user file's stamp. */
    static String key(Workspace ws, Optional<java.nio.file.Path> user) {
        String stamp = user.map(f -> f + ":" + KgLoader.stamp(f)).orElse("");
        return ws.dataset().fingerprint() + "@" + ws.dataset().file() + "@" + stamp;
    }

    /**
     * Builds the knowledge of the workspace's dataset: its bundled curated file (when it describes this dataset)
     * and the user's own file over the automatic graph, which comes from the dataset's {@link KgCache} file when
     * that is usable.
     */
    public static Knowledge load(Workspace ws) {
        return load(ws, false);
    }

    /** As {@link #load(Workspace)}; with {@code dense} the search index adds MiniLM embeddings when they load. */
    public static Knowledge load(Workspace ws, boolean dense) {
        return load(ws, dense, KgLoader.userFile(ws.dataset()));
    }

    /** As above, with {@code user} as the user's knowledge file (the one {@code --kg FILE} names) instead of the default. */
    public static Knowledge load(Workspace ws, boolean dense, Optional<java.nio.file.Path> user) {
        Knowledge k = build(ws, curated(ws, user.map(KgLoader::read)), true);
        k.dense = dense;
        return k;
    }

    /**
     * Checks a user's knowledge file as it would be loaded over the workspace's dataset (with the bundled file, against
     * the live data); throws {@link KgException} naming each entry that does not fit.
     */
    public static void check(Workspace ws, CuratedKg own) {
        build(ws, curated(ws, Optional.of(own)), true);
    }

    /** The bundled file (when it describes this dataset) with the user's own laid over it, entry by entry. */
    private static Optional<CuratedKg> curated(Workspace ws, Optional<CuratedKg> own) {
        Optional<CuratedKg> bundled = KgLoader.bundled(ws.dataset().name()).filter(c -> describes(c, ws));
        return own.isEmpty() ? bundled : Optional.of(bundled.map(b -> CuratedKg.merge(b, own.get())).orElse(own.get()));
    }

    /**
     * The value of type {@code type} derived from this knowledge, made by {@code make} on first use and kept
     * as long as this knowledge is (knowledge is immutable, so neither goes stale). {@code make} runs outside the map's
     * lock, so it may itself use other derived values (the app's sample questions run the planner, which derives its
     * lexicon); two threads may both make a value the first time, and the first one stored wins.
     */
    public <T> T derived(Class<T> type, java.util.function.Function<Knowledge, T> make) {
        Object v = derived.get(type);
        if (v == null) {
            Object made = make.apply(this);
            v = derived.putIfAbsent(type, made);
            v = v == null ? made : v;
        }
        return type.cast(v);
    }

    /**
     * Whether a bundled file (chosen by dataset name) is about this dataset at all: every table it curates
     * exists. A user's own dataset that happens to be called "bank" gets the automatic graph (and a warning);
     * a dataset with those tables but a missing column still fails validation.
     */
    private static boolean describes(CuratedKg c, Workspace ws) {
        List<String> missing = c.tables().keySet().stream()
                .filter(t -> ws.datasetTables().stream().noneMatch(x -> x.name().equalsIgnoreCase(t))).toList();
        if (!missing.isEmpty()) {
            LOG.warn("{} does not describe dataset '{}' (no table {}); using the automatic knowledge graph alone",
                    c.source(), ws.dataset().name(), String.join(", ", missing));
        }
        return missing.isEmpty();
    }

    /** Builds (uncached) from the data and an optional curated file. */
    public static Knowledge build(Workspace ws, Optional<CuratedKg> curated) {
        return build(ws, curated, false);
    }

    /**
     * As above; with {@code diskCache} the automatic graph comes from (and goes to) the dataset's
     * {@link KgCache} file, and the curated file is validated against the live data unless this very content was
     * found valid over this very data before ({@link KgValidity}).
     */
    static Knowledge build(Workspace ws, Optional<CuratedKg> curated, boolean diskCache) {
        long t0 = System.nanoTime();
        KnowledgeGraph auto = diskCache ? automatic(ws) : KgBuilder.build(ws);
        long t1 = System.nanoTime();
        KnowledgeGraph kg = curated.map(c -> diskCache ? overlayOnce(auto, c, ws) : KgLoader.overlay(auto, c, ws))
                .orElse(auto);
        LOG.debug("Knowledge of {} built in {} ms ({}; {} ms of it overlaying)", ws.dataset().name(),
                (System.nanoTime() - t0) / 1_000_000, kg.source().orElse("automatic only"), (System.nanoTime() - t1) / 1_000_000);
        return new Knowledge(kg, ValueFile.of(ws, kg));
    }

    /**
     * The curated file over the automatic graph, validated against the data only when this content was not found valid
     * over this data (and jar) before ({@link KgValidity}); a success is recorded for the next process.
     */
    private static KnowledgeGraph overlayOnce(KnowledgeGraph auto, CuratedKg curated, Workspace ws) {
        long t0 = System.nanoTime();
        Optional<KgValidity> validity = KgValidity.of(ws.dataset(), curated);
        if (validity.isPresent() && validity.get().recorded()) {
            LOG.debug("{} was validated against {} before ({} ms to tell); not validating again", curated.source(),
                    ws.dataset().name(), (System.nanoTime() - t0) / 1_000_000);
            return KgLoader.merge(auto, curated);
        }
        KnowledgeGraph kg = KgLoader.overlay(auto, curated, ws);
        validity.ifPresent(KgValidity::record);
        return kg;
    }

    /** The automatic graph from the disk cache when it is usable, else built from the data and cached. */
    static KnowledgeGraph automatic(Workspace ws) {
        var ds = ws.dataset();
        if (ds.fingerprint() == null || ds.fingerprint().isBlank() || ds.file() == null) {
            return KgBuilder.build(ws);
        }
        long t0 = System.nanoTime();
        Optional<KnowledgeGraph> cached = KgCache.load(ds);
        if (cached.isPresent()) {
            LOG.debug("Automatic knowledge graph of {} read from {} in {} ms", ds.name(), KgCache.path(ds),
                    (System.nanoTime() - t0) / 1_000_000);
            return cached.get();
        }
        KnowledgeGraph auto = KgBuilder.build(ws);
        KgCache.save(ds, auto);
        return auto;
    }

    public KnowledgeGraph graph() {
        return graph;
    }

    public ValueIndex values() {
        return values;
    }

    /**
     * The search index over every entry of the graph (tables, columns, concepts, metrics, joins,
     * disambiguations, value aliases), built on first use; dense retrieval joins in when the knowledge was
     * loaded with embeddings enabled.
     */
    public synchronized SearchIndex index() {
        if (index == null) {
            long t0 = System.nanoTime();
            index = new SearchIndex(docs(graph), Embeddings.ifEnabled(dense));
            LOG.debug("Search index of {} ({} docs, dense {}) built in {} ms", graph.dataset(), index.size(),
                    index.dense(), (System.nanoTime() - t0) / 1_000_000);
        }
        return index;
    }

    /** One search document per entry: its id, kind, names (phrases, and table/column names) and description. */
    public static List<SearchIndex.Doc> docs(KnowledgeGraph kg) {
        List<SearchIndex.Doc> out = new ArrayList<>();
        for (KgEntry e : kg.entries()) {
            List<String> names = new ArrayList<>(e.phrases());
            String text = e.describe();
            if (e instanceof KgEntry.Table t) {
                List<String> cols = kg.columns(t.name()).stream().map(c -> c.name() + (c.description() == null ? ""
                        : " " + c.description())).toList();
                text += " columns: " + String.join(", ", cols);
            } else if (e instanceof KgEntry.Column c) {
                names.add(c.table() + " " + c.name());
            }
            out.add(new SearchIndex.Doc(e.id(), e.kind().wire(), String.join(" ", names), text));
        }
        return out;
    }
}
