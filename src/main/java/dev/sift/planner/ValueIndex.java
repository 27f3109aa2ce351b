package dev.sift.planner;

import dev.sift.data.ColumnInfo;
import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values of every low-cardinality text column of a dataset, so an offline planner can recognise
 * "gold" in a question as {@code card.type = 'gold'} — only values that really occur in the data.
 * Built once per dataset per process (datasets never change).
 */
public final class ValueIndex {
    static final int MAX_DISTINCT = 50;
    private static final Map<String, ValueIndex> CACHE = new ConcurrentHashMap<>();

    /** A value that occurs in {@code table.column}. */
    public record Hit(String table, String column, String value) { }

    private final List<Hit> hits;

    private ValueIndex(List<Hit> hits) {
        this.hits = hits;
    }

    public static ValueIndex of(Workspace ws) {
        return CACHE.computeIfAbsent(ws.dataset().fingerprint() + "@" + ws.dataset().file(), k -> build(ws));
    }

    private static ValueIndex build(Workspace ws) {
        List<Hit> hits = new ArrayList<>();
        for (TableInfo t : ws.datasetTables()) {
            for (ColumnInfo c : t.columns()) {
                if (!c.type().startsWith("VARCHAR")) {
                    continue;
                }
                try {
                    QueryResult r = ws.trustedQuery("SELECT DISTINCT " + Sql.quoteIdent(c.name()) + " FROM "
                            + t.sqlName() + " WHERE " + Sql.quoteIdent(c.name()) + " IS NOT NULL LIMIT "
                            + (MAX_DISTINCT + 1), MAX_DISTINCT + 1);
                    if (r.rows().size() <= MAX_DISTINCT) {
                        r.rows().forEach(row -> hits.add(new Hit(t.name(), c.name(), (String) row.get(0))));
                    }
                } catch (QueryException e) {
                    throw new IllegalStateException("Could not index values of " + t.name() + "." + c.name(), e);
                }
            }
        }
        return new ValueIndex(List.copyOf(hits));
    }

    /** Values of {@code table} equal (ignoring case) to the phrase. */
    public List<Hit> find(String table, String phrase) {
        String p = phrase.toLowerCase(Locale.ROOT);
        return hits.stream().filter(h -> h.table().equals(table) && h.value().toLowerCase(Locale.ROOT).equals(p)).toList();
    }
}
