package dev.sift.data;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * The described tables (schema, row counts, a sample value per column) of recently used datasets, and their column
 * facts once something asked for them, so the workspaces of one application read them once per dataset: datasets
 * never change once built, and a rebuilt one has a new fingerprint. A table's facts are read by one workspace while
 * the others asking at the same time wait for that read, so sessions that all show the schema at once scan the
 * table once, not once each. Bounded (least recently used out first) and owned by the {@link DatasetStore}.
 */
public final class DatasetTables {
    public static final int DEFAULT_CAPACITY = 32;

    private record Entry(List<TableInfo> tables, Map<String, Future<List<ColumnFacts>>> facts) { }

    private final Map<String, Entry> cache;
    private final Map<String, StoredLengths.Shared> stored;

    public DatasetTables(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > capacity;
            }
        };
        this.stored = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, StoredLengths.Shared> eldest) {
                return size() > capacity;
            }
        };
    }

    private static String key(Dataset dataset) {
        return dataset.fingerprint() + "@" + dataset.file();
    }

    /** The tables of {@code dataset}, described by {@code describe} the first time. */
    public List<TableInfo> of(Dataset dataset, Supplier<List<TableInfo>> describe) {
        String key = key(dataset);
        synchronized (this) {
            Entry known = cache.get(key);
            if (known != null) {
                return known.tables();
            }
        }
        List<TableInfo> described = List.copyOf(describe.get()); // outside the lock: it runs queries
        synchronized (this) {
            cache.putIfAbsent(key, new Entry(described, new ConcurrentHashMap<>()));
            return cache.get(key).tables();
        }
    }

    /**
     * The column facts of {@code table} of {@code dataset}, read by {@code read} the first time; a caller that comes
     * while another reads them waits for that read. A failed read is forgotten, so the next caller tries again.
     */
    public List<ColumnFacts> facts(Dataset dataset, String table, Supplier<List<ColumnFacts>> read) {
        Entry entry;
        synchronized (this) {
            entry = cache.get(key(dataset));
        }
        if (entry == null) {
            return List.copyOf(read.get());
        }
        FutureTask<List<ColumnFacts>> mine = new FutureTask<>(() -> List.copyOf(read.get()));
        Future<List<ColumnFacts>> known = entry.facts().putIfAbsent(table, mine);
        if (known == null) {
            known = mine;
            mine.run(); // outside the lock: it scans the table
        }
        try {
            return known.get();
        } catch (ExecutionException e) {
            entry.facts().remove(table, known);
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("Could not read the column facts of table " + table, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the column facts of table " + table, e);
        }
    }

    /**
     * The longest stored text of {@code dataset}'s columns, as far as read ({@link StoredLengths}): shared by the
     * workspaces on it, since a dataset never changes once built. Kept for as many datasets as the tables are.
     */
    synchronized StoredLengths.Shared stored(Dataset dataset) {
        return stored.computeIfAbsent(key(dataset), k -> new StoredLengths.Shared());
    }

    /** How many tables of {@code dataset} have had their column facts read. */
    public synchronized int factsRead(Dataset dataset) {
        Entry entry = cache.get(key(dataset));
        return entry == null ? 0 : (int) entry.facts().values().stream().filter(f -> f.isDone() && !f.isCancelled()).count();
    }

    public synchronized int size() {
        return cache.size();
    }
}
