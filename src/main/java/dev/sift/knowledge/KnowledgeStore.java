package dev.sift.knowledge;

import dev.sift.data.Workspace;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The knowledge of recently used datasets, built once and kept for the next run: a bounded cache (least
 * recently used dataset out first) owned by the application object that creates it, so a long-running
 * server does not grow without limit. Keyed on the dataset's content fingerprint and file: datasets never
 * change once built, and a rebuilt one has a new fingerprint.
 */
public final class KnowledgeStore {
    /** Datasets whose knowledge is kept; a server rarely has more in use at once. */
    public static final int DEFAULT_CAPACITY = 16;

    private final Map<String, Knowledge> cache;
    /** Knowledge files named for datasets ({@code --kg FILE}), by dataset name. */
    private final Map<String, java.nio.file.Path> files = new java.util.HashMap<>();
    private final boolean dense;

    /** A store of at most {@code capacity} datasets' knowledge; {@code dense}: search adds MiniLM embeddings. */
    public KnowledgeStore(int capacity, boolean dense) {
        this.dense = dense;
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Knowledge> eldest) {
                return size() > capacity;
            }
        };
    }

    public KnowledgeStore(int capacity) {
        this(capacity, false);
    }

    public KnowledgeStore() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * Reads the user's knowledge of dataset {@code dataset} from {@code file} from now on, instead of
     * {@code $SIFT_HOME/kg/<dataset>.kg.yaml} ({@code --kg FILE}).
     */
    public synchronized void useFile(String dataset, java.nio.file.Path file) {
        files.put(dataset, file.toAbsolutePath());
    }

    /** The user's knowledge file of a dataset when it exists: the one {@link #useFile} named, else the default. */
    public synchronized java.util.Optional<java.nio.file.Path> userFile(dev.sift.data.Dataset ds) {
        java.nio.file.Path f = files.get(ds.name());
        return f != null ? java.util.Optional.of(f).filter(java.nio.file.Files::isRegularFile) : KgLoader.userFile(ds);
    }

    /** Where the user's knowledge of a dataset is kept, whether or not the file exists yet (null for an in-memory one). */
    public synchronized java.nio.file.Path userPath(dev.sift.data.Dataset ds) {
        java.nio.file.Path f = files.get(ds.name());
        return f != null ? f : KgLoader.userPath(ds);
    }

    /** The knowledge of the workspace's dataset, built on first use (see {@link Knowledge#load}). */
    public synchronized Knowledge of(Workspace ws) {
        java.util.Optional<java.nio.file.Path> user = userFile(ws.dataset());
        String key = Knowledge.key(ws, user);
        Knowledge k = cache.get(key);
        if (k == null) {
            k = Knowledge.load(ws, dense, user);
            cache.put(key, k);
        }
        return k;
    }

    /**
     * The knowledge of the workspace's dataset, looked up on first {@code get()} and then kept by the supplier until
     * the workspace switches to another dataset ({@code connect_source}).
     */
    public Supplier<Knowledge> lazy(Workspace ws) {
        return new Supplier<>() {
            private Knowledge k;
            private dev.sift.data.Dataset of;

            @Override
            public synchronized Knowledge get() {
                if (k == null || of != ws.dataset()) {
                    of = ws.dataset();
                    k = of(ws);
                }
                return k;
            }
        };
    }

    /** How many datasets' knowledge is kept now. */
    public synchronized int size() {
        return cache.size();
    }
}
