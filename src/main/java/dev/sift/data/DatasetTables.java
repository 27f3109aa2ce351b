package dev.sift.data;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The described tables (schema, row counts, a sample value per column) of recently used datasets, so the
 * workspaces of one application read them once per dataset: datasets never change once built, and a rebuilt
 * one has a new fingerprint. Bounded (least recently used out first) and owned by the {@link DatasetStore}.
 */
public final class DatasetTables {
    public static final int DEFAULT_CAPACITY = 32;

    private final Map<String, List<TableInfo>> cache;

    public DatasetTables(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, List<TableInfo>> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The tables of {@code dataset}, described by {@code describe} the first time. */
    public List<TableInfo> of(Dataset dataset, Supplier<List<TableInfo>> describe) {
        String key = dataset.fingerprint() + "@" + dataset.file();
        synchronized (this) {
            List<TableInfo> known = cache.get(key);
            if (known != null) {
                return known;
            }
        }
        List<TableInfo> described = List.copyOf(describe.get()); // outside the lock: it runs queries
        synchronized (this) {
            cache.putIfAbsent(key, described);
            return cache.get(key);
        }
    }

    public synchronized int size() {
        return cache.size();
    }
}
