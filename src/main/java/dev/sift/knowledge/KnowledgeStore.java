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

    /** The knowledge of the workspace's dataset, built on first use (see {@link Knowledge#load}). */
    public synchronized Knowledge of(Workspace ws) {
        String key = Knowledge.key(ws);
        Knowledge k = cache.get(key);
        if (k == null) {
            k = Knowledge.load(ws, dense);
            cache.put(key, k);
        }
        return k;
    }

    /** The knowledge of the workspace's dataset, looked up on first {@code get()} and then kept by the supplier. */
    public Supplier<Knowledge> lazy(Workspace ws) {
        return new Supplier<>() {
            private Knowledge k;

            @Override
            public synchronized Knowledge get() {
                if (k == null) {
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
