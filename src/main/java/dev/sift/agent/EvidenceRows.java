package dev.sift.agent;

import dev.sift.data.QueryException;
import dev.sift.data.QueryResult;
import dev.sift.data.Sql;
import dev.sift.data.Workspace;
import dev.sift.text.Evidence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A finished run's evidence with the number of rows its caller asked for ({@code ask --json --max-rows}): cut to
 * fewer, or read again, while the run's workspace is still open, from the result's saved frame or its query. A
 * re-read that does not start with the rows the run saw (a tool's own shape, an unordered result) keeps the
 * evidence as it was, so {@link Evidence#truncated()} stays true rather than rows being passed off as the result.
 */
final class EvidenceRows {
    private static final Logger log = LoggerFactory.getLogger(EvidenceRows.class);

    private EvidenceRows() { }

    static List<Evidence> fit(List<Evidence> evidence, Workspace ws, int maxRows) {
        if (maxRows == Evidence.MAX_ROWS) {
            return List.copyOf(evidence);
        }
        List<Evidence> out = new ArrayList<>(evidence.size());
        for (Evidence e : evidence) {
            out.add(fit(e, ws, maxRows == 0 ? Long.MAX_VALUE : maxRows));
        }
        return List.copyOf(out);
    }

    private static Evidence fit(Evidence e, Workspace ws, long maxRows) {
        if (e.rows().size() >= maxRows) {
            return new Evidence(e.sql(), e.columns(), List.copyOf(e.rows().subList(0, (int) maxRows)), e.rowCount(),
                    e.frame());
        }
        if (!e.truncated()) {
            return e;
        }
        String sql = e.frame() != null ? "SELECT * FROM frames." + Sql.quoteIdent(e.frame()) : e.sql();
        List<String> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        long count;
        try {
            count = ws.stream(sql, maxRows, new Workspace.RowSink() {
                @Override
                public void columns(List<QueryResult.Column> cs) {
                    cs.forEach(c -> columns.add(c.name()));
                }

                @Override
                public void row(List<Object> row) {
                    rows.add(row);
                }
            });
        } catch (QueryException | IOException | RuntimeException ex) {
            log.debug("Evidence rows of {} could not be read again: {}", sql, ex.toString());
            return e;
        }
        if (!columns.equals(e.columns()) || rows.size() < e.rows().size()
                || !rows.subList(0, e.rows().size()).equals(e.rows())) {
            return e;
        }
        return new Evidence(e.sql(), e.columns(), List.copyOf(rows), e.rowCount() >= 0 ? e.rowCount() : count, e.frame());
    }
}
