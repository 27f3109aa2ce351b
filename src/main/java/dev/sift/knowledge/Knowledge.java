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
 * Everything Sift knows about one dataset, built once per dataset per process: the {@link KnowledgeGraph}
 * (automatic, overlaid with the bundled curated file {@code kg/<dataset>.kg.yaml} when there is one, and then
 * with the user's own file {@code $SIFT_HOME/kg/<dataset>.kg.yaml}, read again whenever it changes) and
 * the {@link ValueIndex}. A dataset without a curated file gets the automatic graph alone. A curated file
 * that does not match the data throws {@link KgException} naming the file and entries.
 */
public final class Knowledge {
    private static final Logger LOG = LoggerFactory.getLogger(Knowledge.class);
    private static final Map<String, Knowledge> CACHE = new ConcurrentHashMap<>();

    private final KnowledgeGraph graph;
    private final ValueIndex values;
    private SearchIndex index;

    private Knowledge(KnowledgeGraph graph) {
        this.graph = graph;
        this.values = new ValueIndex(graph);
    }

    /** The knowledge of the workspace's dataset (cached: datasets never change once built). */
    public static Knowledge of(Workspace ws) {
        Optional<java.nio.file.Path> user = KgLoader.userFile(ws.dataset());
        String stamp = user.map(KgLoader::stamp).orElse("");
        return CACHE.computeIfAbsent(ws.dataset().fingerprint() + "@" + ws.dataset().file() + "@" + stamp, k -> {
            Optional<CuratedKg> bundled = KgLoader.bundled(ws.dataset().name()).filter(c -> describes(c, ws));
            Optional<CuratedKg> own = user.map(KgLoader::read);
            Optional<CuratedKg> curated = own.isEmpty() ? bundled
                    : Optional.of(bundled.map(b -> CuratedKg.merge(b, own.get())).orElse(own.get()));
            return build(ws, curated, true);
        });
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
     * {@link KgCache} file. The curated file is always validated against the live data.
     */
    static Knowledge build(Workspace ws, Optional<CuratedKg> curated, boolean diskCache) {
        long t0 = System.nanoTime();
        KnowledgeGraph auto = diskCache ? automatic(ws) : KgBuilder.build(ws);
        KnowledgeGraph kg = curated.map(c -> KgLoader.overlay(auto, c, ws)).orElse(auto);
        LOG.debug("Knowledge of {} built in {} ms ({})", ws.dataset().name(), (System.nanoTime() - t0) / 1_000_000,
                kg.source().orElse("automatic only"));
        return new Knowledge(kg);
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
     * disambiguations, value aliases), built on first use; dense retrieval joins in when {@link Embeddings}
     * is enabled.
     */
    public synchronized SearchIndex index() {
        if (index == null) {
            long t0 = System.nanoTime();
            index = new SearchIndex(docs(graph), Embeddings.ifEnabled());
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
