package dev.sift.ml;

import dev.sift.TestDatasets;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class MlDataTest {
    /** Every kind of feature, each with NULLs: numbers (decimal, double, boolean), one-hot, ordinal and date. */
    private static final String ROWS = """
            SELECT i AS cust_id, 'c' || i AS code,
              CASE WHEN i % 7 = 0 THEN NULL ELSE i * 1.5 END AS amount,
              CAST(i % 13 AS DOUBLE) / 3 AS ratio,
              i % 5 = 0 AS flag,
              CASE WHEN i % 11 = 0 THEN NULL ELSE ['red', 'green', 'blue'][1 + i % 3] END AS color,
              CASE WHEN i % 17 = 0 THEN NULL ELSE 'grade_' || (i % 20) END AS grade,
              CASE WHEN i % 9 = 0 THEN NULL ELSE DATE '2020-01-01' + CAST(i AS INTEGER) END AS opened,
              CASE WHEN i % 2 = 0 THEN 'yes' ELSE 'no' END AS label
            FROM range(1, LAST) t(i)""";

    private Workspace ws;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.shop(), Workspace.Limits.defaults());
        ws.saveFrame("train_rows", ROWS.replace("LAST", "201"));
        // new rows with values the encoder never saw: a colour and a grade outside the training levels
        ws.saveFrame("new_rows", ROWS.replace("LAST", "41").replace("'blue'", "'violet'").replace("'grade_' ||", "'new_' ||"));
    }

    @AfterEach
    void close() {
        ws.close();
    }

    @Test
    void arrow_and_row_loop_give_the_same_matrix_with_nulls_as_nan() throws Exception {
        TableInfo table = ws.table("train_rows").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("cust_id", "label"), null);
        assertThat(enc.columns()).extracting(FeatureEncoder.ColumnPlan::kind).containsExactly(FeatureEncoder.Kind.NUMERIC,
                FeatureEncoder.Kind.NUMERIC, FeatureEncoder.Kind.NUMERIC, FeatureEncoder.Kind.ONE_HOT,
                FeatureEncoder.Kind.ORDINAL, FeatureEncoder.Kind.DATE);

        MlData arrow = bothAlike(table, enc, "cust_id", "label", null, false);
        assertThat(arrow.rows()).isEqualTo(200);
        assertThat(arrow.width()).isEqualTo(3 + 3 + 1 + 4);
        // row 7 (cust_id 7): amount NULL -> NaN; row 11: colour NULL -> NaN in all three one-hot columns
        assertThat(arrow.x()[6 * arrow.width()]).isNaN();
        assertThat(Arrays.copyOfRange(arrow.x(), 10 * arrow.width() + 3, 10 * arrow.width() + 6))
                .containsExactly(Float.NaN, Float.NaN, Float.NaN);
        assertThat(arrow.entities().get(0)).isEqualTo(1L);
        assertThat(arrow.entities().numeric()).isTrue();
        assertThat(arrow.target()[0]).isEqualTo("no");
    }

    @Test
    void unseen_values_encode_alike_in_both_readers_and_display_text_matches() throws Exception {
        TableInfo train = ws.table("train_rows").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, train, Set.of("cust_id", "label"), null);
        TableInfo fresh = ws.table("new_rows").orElseThrow();

        MlData arrow = bothAlike(fresh, enc, "code", null, null, true);
        // 'violet' is no training colour: all one-hot columns 0; a new grade is missing for the ordinal
        int violet = IntStream.range(0, arrow.rows()).filter(r -> "violet".equals(arrow.display()[r][3])).findFirst()
                .orElseThrow();
        int w = arrow.width();
        assertThat(Arrays.copyOfRange(arrow.x(), violet * w + 3, violet * w + 6)).containsExactly(0f, 0f, 0f);
        assertThat(arrow.x()[violet * w + 6]).isNaN();
        assertThat(IntStream.range(0, arrow.rows()).mapToObj(arrow.entities()::get)).allMatch(e -> e instanceof String);
        assertThat(arrow.entities().numeric()).isFalse();
        assertThat(arrow.target()).containsOnlyNulls();
    }

    @Test
    void a_filter_that_keeps_no_rows_reads_an_empty_matrix() throws Exception {
        TableInfo table = ws.table("train_rows").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("cust_id", "label"), List.of("ratio", "color"));

        MlData arrow = bothAlike(table, enc, null, "label", "ratio > 100", false);

        assertThat(arrow.rows()).isZero();
        assertThat(arrow.x()).isEmpty();
    }

    @Test
    void rows_stored_out_of_entity_order_land_in_entity_order_in_both_readers() throws Exception {
        // inserted in hash order, so the frame's rowids do not follow cust_id: the Arrow reader sorts the rows itself
        ws.saveFrame("shuffled", "SELECT * FROM (" + ROWS.replace("LAST", "301") + ") ORDER BY hash(cust_id)");
        TableInfo table = ws.table("shuffled").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("cust_id", "label"), null);

        MlData arrow = bothAlike(table, enc, "cust_id", "label", null, true);
        assertThat(entities(arrow)).containsExactly(IntStream.rangeClosed(1, 300).mapToObj(i -> (Object) (long) i).toArray());
        long[] sorted = arrow.rowids().clone();
        Arrays.sort(sorted);
        assertThat(arrow.rowids()).isNotEqualTo(sorted); // stored order is not entity order
    }

    @Test
    void a_filter_keeping_few_rows_of_a_large_frame_reads_them_in_entity_order() throws Exception {
        // 30 of 30,000 rows, spread over the whole rowid range, sorted by their text ids
        ws.saveFrame("large", "SELECT * FROM (" + ROWS.replace("LAST", "30001") + ") ORDER BY hash(cust_id)");
        TableInfo table = ws.table("large").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("cust_id", "label"), List.of("amount", "color", "opened"));

        MlData arrow = bothAlike(table, enc, "code", "label", "cust_id % 1000 = 0", false);
        assertThat(arrow.rows()).isEqualTo(30);
        assertThat(entities(arrow)).isSortedAccordingTo((a, b) -> ((String) a).compareTo((String) b)).contains("c1000");
    }

    @Test
    void text_ids_sort_by_their_bytes_with_nulls_last_and_ties_by_rowid_in_both_readers() throws Exception {
        // ids beyond ASCII (an accent, a character above U+E000, one outside the BMP), repeated ids and missing ids,
        // stored in hash order; an integer target with NULLs and negatives arrives as numbers and becomes the same text
        ws.saveFrame("odd_ids", """
                SELECT CASE WHEN i % 10 = 0 THEN NULL ELSE ['b', 'é', 'a�', 'a😀', 'Z', 'a'][1 + i % 6] || (i % 4) END
                         AS code, i * 0.5 AS amount, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 - 1 END AS score
                FROM range(0, 120) t(i) ORDER BY hash(i)""");
        TableInfo table = ws.table("odd_ids").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("code", "score"), null);

        MlData arrow = bothAlike(table, enc, "code", "score", null, true);
        assertThat(arrow.entities().get(arrow.rows() - 1)).isNull();
        assertThat(arrow.target()).contains("-1", "0", "1", null);
    }

    @Test
    void ids_that_are_neither_numbers_nor_text_are_sorted_by_duckdb_in_both_readers() throws Exception {
        // a DOUBLE id: its text ('10.5' before '2.5') is not its order, so DuckDB sorts it
        ws.saveFrame("double_ids", "SELECT (i % 50) * 0.5 + 2 AS ref, i % 3 = 0 AS flag, CASE WHEN i % 2 = 0 THEN 'yes'"
                + " ELSE 'no' END AS label FROM range(0, 200) t(i) ORDER BY hash(i)");
        TableInfo table = ws.table("double_ids").orElseThrow();
        FeatureEncoder enc = FeatureEncoder.plan(ws, table, Set.of("ref", "label"), null);

        MlData arrow = bothAlike(table, enc, "ref", "label", null, false);

        assertThat(arrow.entities().get(0)).isEqualTo("2.0");
        assertThat(arrow.entities().get(arrow.rows() - 1)).isEqualTo("26.5");
    }

    /** The rows read through Arrow, after checking the row loop reads the very same. */
    private MlData bothAlike(TableInfo table, FeatureEncoder enc, String entity, String target, String where,
                             boolean keepDisplay) throws Exception {
        MlData arrow = MlData.read(ws, table, enc, entity, target, where, keepDisplay);
        MlData rows = MlData.readRows(ws, table, enc, entity, target, where, keepDisplay);
        assertSame(arrow, rows);
        assertThat(arrow.display()).isDeepEqualTo(rows.display());
        return arrow;
    }

    /** Bit for bit (NaN equals NaN), and every other component equal. */
    private static void assertSame(MlData arrow, MlData rows) {
        assertThat(arrow.rows()).isEqualTo(rows.rows());
        assertThat(arrow.width()).isEqualTo(rows.width());
        assertThat(bits(arrow.x())).containsExactly(bits(rows.x()));
        assertThat(arrow.rowids()).containsExactly(rows.rowids());
        assertThat(entities(arrow)).containsExactly(entities(rows));
        assertThat(arrow.entities()).isEqualTo(rows.entities()).hasSameHashCodeAs(rows.entities());
        assertThat(arrow.target()).containsExactly(rows.target());
    }

    private static Object[] entities(MlData d) {
        return IntStream.range(0, d.rows()).mapToObj(d.entities()::get).toArray();
    }

    private static int[] bits(float[] x) {
        return IntStream.range(0, x.length).map(i -> Float.floatToIntBits(x[i])).toArray();
    }
}
