package dev.sift.data;

import dev.sift.data.source.FileLoader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dataset's described tables are remembered beside it, so later processes skip the describing queries; other data,
 * or a corrupt or foreign record, is never taken for the description.
 */
class TablesRecordTest {
    @TempDir
    Path home;
    private DatasetStore store;
    private Path csv;

    @BeforeEach
    void store() throws Exception {
        store = new DatasetStore(home.resolve("datasets"));
        csv = home.resolve("visits.csv");
    }

    private Dataset load(String rows) throws Exception {
        Files.writeString(csv, "city,visits,note\n" + rows);
        return store.ensure("visits", new FileLoader(List.of(csv)), Progress.NONE);
    }

    private static List<TableInfo> tablesOf(Dataset ds) {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            return ws.datasetTables();
        }
    }

    /** Described through a connection of its own, never through the record. */
    private static List<TableInfo> described(Dataset ds) throws Exception {
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults());
             var c = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
            try (var st = c.createStatement()) {
                st.execute("ATTACH " + Sql.quoteString(ds.file().toString()) + " AS data (READ_ONLY)");
            }
            return TableDescriber.describe(c, "data", "main", TableInfo.Kind.TABLE);
        }
    }

    @Test
    void the_recorded_tables_equal_the_described_ones_column_for_column() throws Exception {
        Dataset ds = load("Oslo,3,\nLima,5,\n");

        List<TableInfo> first = tablesOf(ds);

        assertThat(TablesRecord.path(ds)).isEqualTo(home.resolve("datasets/visits.tables.json")).isRegularFile();
        List<TableInfo> read = TablesRecord.of(ds).orElseThrow().read().orElseThrow();
        assertThat(read).isEqualTo(first).isEqualTo(described(ds));
        assertThat(read.get(0).rows()).isEqualTo(2);
        assertThat(read.get(0).columns()).extracting(ColumnInfo::type).containsExactly("VARCHAR", "BIGINT", "VARCHAR");
        assertThat(read.get(0).columns().get(2).sample()).isNull(); // an empty column has no sample, and keeps none
        assertThat(tablesOf(ds)).isEqualTo(first);
        assertThat(home.resolve("datasets")).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void a_matching_record_is_read_instead_of_describing() throws Exception {
        Dataset ds = load("Oslo,3,a\n");
        tablesOf(ds);
        Path p = TablesRecord.path(ds);
        // editing a sample under the same key shows that a matching record is what a workspace reads
        Files.writeString(p, Files.readString(p).replace("\"Oslo\"", "\"Bergen\""));

        assertThat(tablesOf(ds).get(0).column("city").orElseThrow().sample()).isEqualTo("Bergen");
    }

    @Test
    void a_dataset_rebuilt_with_other_data_is_described_again() throws Exception {
        Dataset before = load("Oslo,3,a\n");
        assertThat(tablesOf(before).get(0).rows()).isEqualTo(1);
        String oldKey = Files.readString(TablesRecord.path(before));

        Dataset after = load("Lima,5,b\nQuito,7,c\nCusco,1,d\n");

        assertThat(after.fingerprint()).isNotEqualTo(before.fingerprint());
        assertThat(TablesRecord.of(after).orElseThrow().read()).isEmpty(); // the old record is keyed to the old data
        List<TableInfo> tables = tablesOf(after);
        assertThat(tables.get(0).rows()).isEqualTo(3);
        assertThat(tables.get(0).column("city").orElseThrow().sample()).isNotEqualTo("Oslo");
        assertThat(tables).isEqualTo(described(after));
        assertThat(Files.readString(TablesRecord.path(after))).isNotEqualTo(oldKey);
        assertThat(TablesRecord.of(after).orElseThrow().read()).contains(tables);
    }

    @Test
    void a_corrupt_record_is_ignored_and_replaced() throws Exception {
        Dataset ds = load("Oslo,3,a\nLima,5,b\n");
        for (String corrupt : List.of("{\"key\": \"trunc", "", "[1, 2]", "{\"key\":null,\"tables\":[]}",
                "{\"key\":\"another\",\"tables\":[]}", "{\"key\":\"another\",\"tables\":[{\"rows\":\"many\"}]}")) {
            Files.createDirectories(TablesRecord.path(ds).getParent());
            Files.writeString(TablesRecord.path(ds), corrupt);

            List<TableInfo> tables = tablesOf(ds);

            assertThat(tables).isEqualTo(described(ds));
            assertThat(tables.get(0).rows()).isEqualTo(2);
            assertThat(TablesRecord.of(ds).orElseThrow().read()).contains(tables);
        }
    }

    @Test
    void a_record_whose_columns_are_incomplete_under_the_right_key_is_ignored() throws Exception {
        Dataset ds = load("Oslo,3,a\n");
        tablesOf(ds);
        Path p = TablesRecord.path(ds);
        String text = Files.readString(p);
        assertThat(text).contains("[\"visits\",\"BIGINT\",\"3\"]");
        Files.writeString(p, text.replace("[\"visits\",\"BIGINT\",\"3\"]", "[\"visits\"]"));
        assertThat(TablesRecord.of(ds).orElseThrow().read()).isEmpty();

        assertThat(tablesOf(ds)).isEqualTo(described(ds));
        assertThat(TablesRecord.of(ds).orElseThrow().read()).isPresent();
    }

    @Test
    void removing_a_dataset_removes_its_record() throws Exception {
        Dataset ds = load("Oslo,3,a\n");
        tablesOf(ds);
        assertThat(TablesRecord.path(ds)).isRegularFile();

        store.remove("visits");

        assertThat(TablesRecord.path(ds)).doesNotExist();
    }
}
