package dev.sift.data;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A text column is left unwrapped only when it is certain to be a plain column of a dataset table whose stored values
 * are short: every way a select item could bring something else (a CTE or subquery of the same name, an alias, a
 * union, a star, renamed columns, a frame) leaves its length unknown.
 */
class StoredLengthsTest {
    private static Connection c;
    private static StoredLengths lengths;
    private static Dataset ds;

    @BeforeAll
    static void open() throws Exception {
        ds = TestDatasets.csv("stored_lengths", Map.of(
                "notes.csv", "id,label,note\n1,a,short\n2,bb,\"" + "z".repeat(10_000) + "\"\n",
                "tags.csv", "label,weight\nccc,1\n"));
        c = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = c.createStatement()) {
            st.execute("ATTACH " + Sql.quoteString(ds.file().toString()) + " AS data (READ_ONLY)");
            st.execute("CREATE SCHEMA memory.frames");
            st.execute("CREATE TABLE memory.frames.wide AS SELECT 'x' AS label");
            st.execute("USE data");
            st.execute("SET search_path = 'data.main,memory.frames'");
        }
        StoredLengths.Shared shared = new StoredLengths.Shared();
        lengths = new StoredLengths(c, () -> shared);
    }

    @AfterAll
    static void close() throws Exception {
        if (c != null) {
            c.close();
        }
    }

    private static long[] of(String sql) throws Exception {
        int columns;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            columns = ps.getMetaData().getColumnCount();
        }
        return lengths.of(LiveRouting.parse(c, sql).orElseThrow().root(), columns);
    }

    @Test
    void plain_columns_of_dataset_tables_give_their_longest_stored_value() throws Exception {
        assertThat(of("SELECT label, count(*) AS n FROM notes GROUP BY label ORDER BY 1")).containsExactly(2, -1);
        assertThat(of("SELECT n.note, n.id FROM notes n WHERE id = 1")).containsExactly(10_000, -1);
        assertThat(of("SELECT t.label, n.label AS l2 FROM notes n JOIN main.tags t ON true")).containsExactly(3, 2);
        assertThat(of("SELECT label FROM data.main.notes")).containsExactly(2);
        // a name both tables have (USING) may bring either table's value: the longer counts
        assertThat(of("SELECT label FROM notes FULL JOIN tags USING (label)")).containsExactly(3);
    }

    @Test
    void a_star_gives_every_column_the_longest_text_of_its_tables() throws Exception {
        assertThat(of("SELECT * FROM tags")).containsExactly(3, 3);
        assertThat(of("SELECT * EXCLUDE (note) FROM notes")).containsExactly(10_000, 10_000);
        assertThat(of("SELECT t.*, t.label AS again FROM tags t")).containsExactly(3, 3, 3);
        // every table of the FROM clause counts, whichever the star names
        assertThat(of("SELECT t.*, n.label FROM tags t JOIN notes n USING (label)")).containsOnly(10_000);
        assertThat(of("SELECT n.*, t.label AS l2 FROM notes n JOIN tags t ON true")).containsOnly(10_000);
    }

    @Test
    void anything_that_may_not_be_the_stored_column_stays_unknown() throws Exception {
        assertThat(of("WITH notes AS (SELECT repeat('x', 99) AS label) SELECT label FROM notes")).isNull();
        assertThat(of("SELECT label FROM (SELECT repeat('x', 99) AS label)")).isNull();
        assertThat(of("SELECT label FROM notes UNION ALL SELECT repeat('x', 99)")).isNull();
        assertThat(of("SELECT * REPLACE (repeat('x', 99) AS label) FROM tags")).isNull();
        assertThat(of("SELECT COLUMNS('label') FROM tags")).isNull();
        assertThat(of("SELECT *, upper(label) FROM tags")).isNull();
        assertThat(of("SELECT concat(COLUMNS('label'), 'x'), label FROM tags")).isNull();
        assertThat(of("SELECT label FROM notes x(label, id, note)")).isNull();
        assertThat(of("SELECT label FROM wide")).isNull(); // a frame, not a dataset table
        assertThat(of("SELECT label FROM frames.wide")).isNull();
        assertThat(of("SELECT n.label FROM notes n, (SELECT repeat('x', 99) AS label) s")).isNull();
        assertThat(of("SELECT label FROM range(3) r(label)")).isNull();
        assertThat(of("SELECT upper(label), repeat('x', 99) AS zz, zz FROM notes n"))
                .containsExactly(-1, -1, -1);
        // a table's own column wins over an alias of the same name (DuckDB resolves it so)
        assertThat(of("SELECT repeat('x', 99) AS label, label FROM notes")).containsExactly(-1, 2);
    }

    @Test
    void what_is_read_of_a_dataset_is_kept_for_the_workspaces_on_it() {
        DatasetTables tables = new DatasetTables(1);
        StoredLengths.Shared first = tables.stored(ds);
        assertThat(tables.stored(ds)).isSameAs(first);
        tables.stored(new Dataset("other", ds.file(), "another-fingerprint", "", "", java.util.List.of()));
        assertThat(tables.stored(ds)).isNotSameAs(first); // one dataset kept: the other pushed it out
    }

    @Test
    void the_statistics_text_is_read_for_its_length_only() {
        assertThat(StoredLengths.maxLength("[Min: A, Max: D, Has Unicode: false, Max String Length: 14][Has Null: false]"))
                .isEqualTo(14);
        assertThat(StoredLengths.maxLength("[Min: , Max: \\xFF, Has Unicode: true, Max String Length: ?][Has Null: true]"))
                .isEqualTo(-1);
        assertThat(StoredLengths.maxLength(null)).isEqualTo(-1);
    }
}
