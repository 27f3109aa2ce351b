package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A result's byte budget holds before values reach Java: long cells are cut at the engine to their first bytes (or
 * come back NULL when they are lists), rows stop at the result's budget, each cut is stated with the way to read
 * more, and ordinary results come back exactly as before.
 */
class ResultBudgetTest {
    private static final long CELL = 4096;
    private static Workspace ws;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), new Workspace.Limits(2, "500MB", Duration.ofSeconds(20), 1000, CELL,
                1L << 20));
    }

    @AfterAll
    static void close() {
        if (ws != null) {
            ws.close();
        }
    }

    @Test
    void long_text_keeps_its_first_bytes_in_order_and_the_cut_is_stated() throws Exception {
        QueryResult r = ws.query("SELECT id, repeat('x', 100000) AS s, 'short' AS t FROM range(3) r(id) ORDER BY id DESC");

        assertThat(r.rows()).extracting(row -> row.get(0)).containsExactly(2L, 1L, 0L);
        assertThat(r.rows()).allSatisfy(row -> {
            assertThat((String) row.get(1)).hasSize(4096).matches("x+");
            assertThat(row.get(2)).isEqualTo("short");
        });
        assertThat(r.columns()).extracting(QueryResult.Column::type).containsExactly("BIGINT", "VARCHAR", "VARCHAR");
        assertThat(r.cuts().columns()).containsExactly(new CellCuts.Column("s", 3, 100_000, false));
        assertThat(r.cuts().statement()).isEqualTo("Cut to the result's byte budget: 3 values of s were over 4 KB (the"
                + " largest 100,000 bytes) and kept their first 4 KB. To read more, select a part of a long value"
                + " (substr(s, 4097, 4096) gives the next characters) or its length, or raise the budget"
                + " (SIFT_MAX_CELL_BYTES, SIFT_MAX_RESULT_MB; sift sql --max-cell-bytes).");
    }

    @Test
    void multi_byte_text_blobs_and_lists_stay_within_the_cell_budget() throws Exception {
        QueryResult r = ws.query("SELECT repeat('é', 10000) AS s, encode(repeat('ab', 5000)) AS b, range(5000) AS l,"
                + " [1, 2] AS k");

        List<Object> row = r.rows().get(0);
        // 4,096 characters of 'é' are 8,192 bytes: a quarter as many are kept, which fits
        assertThat((String) row.get(0)).hasSize(1024).matches("é+");
        assertThat((String) row.get(1)).hasSize(4095).startsWith("abab");
        assertThat(row.get(2)).isNull();
        assertThat(row.get(3)).isEqualTo("[1, 2]");
        assertThat(r.cuts().columns()).extracting(CellCuts.Column::name, CellCuts.Column::largestBytes,
                CellCuts.Column::dropped).containsExactly(org.assertj.core.groups.Tuple.tuple("s", 20_000L, false),
                org.assertj.core.groups.Tuple.tuple("b", 10_000L, false), org.assertj.core.groups.Tuple.tuple("l", 28_890L, true));
        assertThat(r.cuts().statement()).contains("1 value of l was over 4 KB (the largest 28,890 bytes) and came back"
                + " as NULL (a list, struct or map cannot be cut)").contains("select part of a long list (l[1:100])");
    }

    @Test
    void rows_stop_at_the_result_budget_and_say_how_many_were_kept() throws Exception {
        QueryResult r = ws.query("SELECT range AS i, repeat('x', 4000) AS s FROM range(1000)");

        // 1 MB of 4,016-byte rows (4,000 characters and a number)
        assertThat(r.rows()).hasSize(261);
        assertThat(r.truncated()).isTrue();
        assertThat(r.rowCount()).isEqualTo(1000);
        assertThat(r.cuts().rowsKept()).isEqualTo(261);
        assertThat(r.cuts().statement()).contains("rows after the first 261 were not brought, since the rows kept"
                + " reached the result's budget of 1 MB").contains("select fewer or narrower rows");
    }

    @Test
    void ordinary_results_are_unchanged() throws Exception {
        QueryResult r = ws.query("SELECT 'a' AS s, '{\"k\": 1}'::JSON AS j, NULL::VARCHAR AS n, {'a': 1} AS st,"
                + " 2.5 AS d, DATE '2020-01-02' AS day, x AS x, x AS x FROM (SELECT 7 AS x)");

        assertThat(r.columns()).extracting(QueryResult.Column::type).containsExactly("VARCHAR", "JSON", "VARCHAR",
                "STRUCT(a INTEGER)", "DECIMAL(2,1)", "DATE", "INTEGER", "INTEGER");
        assertThat(r.columnNames()).containsExactly("s", "j", "n", "st", "d", "day", "x", "x");
        assertThat(r.rows().get(0)).containsExactly("a", "{\"k\": 1}", null, "{a=1}", 2.5, "2020-01-02", 7, 7);
        assertThat(r.cuts()).isEqualTo(CellCuts.NONE);
        assertThat(r.cuts().statement()).isEmpty();
    }

    @Test
    void a_frame_keeps_whole_values_and_streamed_rows_report_their_cuts() throws Exception {
        QueryResult saved = ws.saveFrame("wide", "SELECT repeat('y', 50000) AS s");
        assertThat((String) saved.rows().get(0).get(0)).hasSize(4096);
        assertThat(saved.cuts().columns()).hasSize(1);
        assertThat(ws.query("SELECT length(s) FROM frames.wide").scalar()).isEqualTo(50_000L);

        List<List<Object>> rows = new ArrayList<>();
        CellCuts[] cuts = {null};
        long n = ws.stream("SELECT s FROM frames.wide", 10, new Workspace.RowSink() {
            @Override
            public void columns(List<QueryResult.Column> columns) { }

            @Override
            public void row(List<Object> row) {
                rows.add(row);
            }

            @Override
            public void cuts(CellCuts c) {
                cuts[0] = c;
            }
        });
        assertThat(n).isEqualTo(1);
        assertThat((String) rows.get(0).get(0)).hasSize(4096);
        assertThat(cuts[0].columns()).containsExactly(new CellCuts.Column("s", 1, 50_000, false));
    }

    @Test
    void a_long_value_stored_in_a_dataset_table_is_cut_even_after_a_switch_from_a_dataset_where_it_was_short()
            throws Exception {
        Dataset shortNotes = TestDatasets.csv("budget_short_notes", java.util.Map.of("notes.csv",
                "id,label,note\n1,a,short\n2,bb,also short\n"));
        Dataset wideNotes = TestDatasets.csv("budget_wide_notes", java.util.Map.of("notes.csv",
                "id,label,note\n1,a,short\n2,bb,\"" + "z".repeat(10_000) + "\"\n"));
        String sql = "SELECT label, note FROM notes ORDER BY id";
        try (Workspace w = Workspace.open(shortNotes, new Workspace.Limits(2, "500MB", Duration.ofSeconds(20), 1000,
                CELL, 1L << 20))) {
            // stored values this short come back as they are, with no second prepare
            assertThat(w.query(sql).rows()).containsExactly(List.of("a", "short"), List.of("bb", "also short"));
            assertThat(w.query(sql).cuts()).isEqualTo(CellCuts.NONE);

            w.use(wideNotes); // the same statement, remembered, now reads a column with a long value
            for (String query : List.of(sql, sql, "SELECT n.label, n.note FROM notes n ORDER BY n.id")) {
                QueryResult r = w.query(query);
                assertThat(r.rows()).extracting(row -> row.get(0)).containsExactly("a", "bb");
                assertThat((String) r.rows().get(1).get(1)).hasSize(4096).matches("z+");
                assertThat(r.cuts().columns()).containsExactly(new CellCuts.Column("note", 1, 10_000, false));
            }
            assertThat(w.query("SELECT label FROM notes ORDER BY id").rows()).containsExactly(List.of("a"), List.of("bb"));
        }
    }
}
