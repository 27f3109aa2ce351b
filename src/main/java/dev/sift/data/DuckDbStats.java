package dev.sift.data;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link TableStats} by full scans of a workspace's DuckDB tables (a built dataset never changes, so once). */
final class DuckDbStats implements TableStats {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Workspace ws;

    DuckDbStats(Workspace ws) {
        this.ws = ws;
    }

    @Override
    public List<String> keyColumns(TableInfo t, List<ColumnInfo> candidates) throws QueryException {
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        for (ColumnInfo c : candidates) {
            String q = Sql.quoteIdent(c.name());
            sql.append(", count(").append(q).append("), count(DISTINCT ").append(q).append(')');
        }
        sql.append(" FROM ").append(t.sqlName());
        List<String> out = new ArrayList<>();
        List<Object> row = ws.trustedQuery(sql.toString(), 1).rows().get(0);
        long n = ((Number) row.get(0)).longValue();
        for (int i = 0; i < candidates.size(); i++) {
            long nonNull = ((Number) row.get(1 + 2 * i)).longValue();
            long distinct = ((Number) row.get(2 + 2 * i)).longValue();
            if (nonNull == n && distinct == n) {
                out.add(candidates.get(i).name());
            }
        }
        return out;
    }

    /** Two scans whatever the width: approximate distinct counts first, then the sorted values of the few. */
    @Override
    public Map<String, List<String>> fewValues(TableInfo t, List<ColumnInfo> text, int max) throws QueryException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        StringBuilder approx = new StringBuilder("SELECT ");
        for (int i = 0; i < text.size(); i++) {
            approx.append(i == 0 ? "" : ", ").append("approx_count_distinct(").append(Sql.quoteIdent(text.get(i).name()))
                    .append(')');
        }
        List<Object> counts = ws.trustedQuery(approx + " FROM " + t.sqlName(), 1).rows().get(0);
        List<ColumnInfo> few = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (((Number) counts.get(i)).longValue() <= max * 2L) {
                few.add(text.get(i));
            }
        }
        if (few.isEmpty()) {
            return out;
        }
        StringBuilder lists = new StringBuilder("SELECT ");
        for (int i = 0; i < few.size(); i++) {
            String q = Sql.quoteIdent(few.get(i).name());
            lists.append(i == 0 ? "" : ", ").append("CAST(to_json(array_sort(list(DISTINCT ").append(q)
                    .append(") FILTER (WHERE ").append(q).append(" IS NOT NULL))) AS VARCHAR)");
        }
        List<Object> row = ws.trustedQuery(lists + " FROM " + t.sqlName(), 1).rows().get(0);
        try {
            for (int i = 0; i < few.size(); i++) {
                List<String> vals = row.get(i) == null ? List.of()
                        : List.of(JSON.readValue((String) row.get(i), String[].class));
                if (vals.size() <= max) {
                    out.put(few.get(i).name(), vals);
                }
            }
        } catch (IOException e) {
            throw new QueryException(QueryException.Kind.FAILED, "Could not read the values of " + t.name() + ": " + e.getMessage());
        }
        return out;
    }

    @Override
    public Containment containment(Containment.Pair pair) throws QueryException {
        return Containment.of(ws.trustedQuery(Containment.sql(pair, 0), 1).rows().get(0));
    }

    @Override
    public Containment containment(Containment.Tuple tuple) throws QueryException {
        return Containment.of(ws.trustedQuery(Containment.sql(tuple, 0), 1).rows().get(0));
    }

    /** One scan for all the sets: a set is unique when its rows with every column set are all the rows, all distinct. */
    @Override
    public List<List<String>> uniqueSets(TableInfo t, List<List<String>> sets) throws QueryException {
        if (sets.isEmpty()) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder("SELECT count(*)");
        for (List<String> set : sets) {
            List<String> q = set.stream().map(Sql::quoteIdent).toList();
            sql.append(", count(*) FILTER (WHERE ").append(String.join(" IS NOT NULL AND ", q)).append(" IS NOT NULL)")
                    .append(", count(DISTINCT ").append(q.size() == 1 ? q.get(0) : "(" + String.join(", ", q) + ")")
                    .append(')');
        }
        List<Object> row = ws.trustedQuery(sql + " FROM " + t.sqlName(), 1).rows().get(0);
        long n = ((Number) row.get(0)).longValue();
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            if (n > 0 && ((Number) row.get(1 + 2 * i)).longValue() == n && ((Number) row.get(2 + 2 * i)).longValue() == n) {
                out.add(sets.get(i));
            }
        }
        return out;
    }
}
