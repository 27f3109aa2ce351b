package dev.sift.data;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetStoreTest {
    @TempDir
    Path tmp;
    Path root;
    DatasetStore store;

    @BeforeEach
    void setUp() {
        root = tmp.resolve("datasets");
        store = new DatasetStore(root);
    }

    /** Makes table {@code t} with {@code rows} rows; counts its builds. */
    static final class Numbers implements DatasetBuilder {
        final String fingerprint;
        final int rows;
        final AtomicInteger builds = new AtomicInteger();

        Numbers(String fingerprint, int rows) {
            this.fingerprint = fingerprint;
            this.rows = rows;
        }

        @Override
        public String fingerprint() {
            return fingerprint;
        }

        @Override
        public String describe() {
            return "numbers 0.." + (rows - 1);
        }

        @Override
        public void build(Connection db, Progress progress) throws Exception {
            builds.incrementAndGet();
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TABLE t AS SELECT range AS n FROM range(" + rows + ")");
            }
        }
    }

    /** Writes a table, then fails as a builder does on bad input. */
    static final class Failing implements DatasetBuilder {
        @Override
        public String fingerprint() {
            return "failing";
        }

        @Override
        public String describe() {
            return "fails";
        }

        @Override
        public void build(Connection db, Progress progress) throws Exception {
            try (Statement st = db.createStatement()) {
                st.execute("CREATE TABLE t AS SELECT range AS n FROM range(1000)");
            }
            throw new IllegalArgumentException("File x.csv is bad");
        }
    }

    private List<String> filesInRoot() throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(root)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Connection readOnly(Path file) throws SQLException {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        return DriverManager.getConnection("jdbc:duckdb:" + file, ro);
    }

    private static long count(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    @Test
    void an_empty_store_lists_nothing_and_says_how_to_get_data() {
        assertThat(store.list()).isEmpty();
        assertThat(store.find("bank")).isEmpty();
        assertThat(store.find(null)).isEmpty();
        assertThat(store.find("../etc")).isEmpty();
        assertThatThrownBy(() -> store.get("bank")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown dataset 'bank'. No datasets are built yet; the demo dataset 'bank' is built on first use.");
    }

    @Test
    void a_damaged_manifest_hides_only_its_dataset_and_a_rebuild_replaces_it() throws Exception {
        store.ensure("alpha", new Numbers("a1", 5), Progress.NONE);
        store.ensure("beta", new Numbers("b1", 2), Progress.NONE);
        Files.writeString(root.resolve("beta.json"), "hello");

        assertThat(store.list()).extracting(Dataset::name).containsExactly("alpha");
        assertThat(store.find("beta")).isEmpty();
        assertThatThrownBy(() -> store.get("beta")).hasMessage("Unknown dataset 'beta'. Available: alpha.");
        assertThat(store.ensure("beta", new Numbers("b1", 2), Progress.NONE).rows("t")).isEqualTo(2);
        assertThat(store.list()).extracting(Dataset::name).containsExactly("alpha", "beta");
    }

    @Test
    void list_find_and_get_see_built_datasets() throws Exception {
        store.ensure("beta", new Numbers("b1", 2), Progress.NONE);
        Dataset alpha = store.ensure("alpha", new Numbers("a1", 5), Progress.NONE);

        assertThat(store.list()).extracting(Dataset::name).containsExactly("alpha", "beta");
        assertThat(alpha.tables()).containsExactly(new Dataset.TableSummary("t", 5));
        assertThat(alpha.rows("t")).isEqualTo(5);
        assertThat(alpha.rows("nope")).isEqualTo(-1);
        assertThat(alpha.description()).isEqualTo("numbers 0..4");
        // the manifest round-trips: a fresh store reads the same dataset back
        assertThat(new DatasetStore(root).find("alpha")).contains(alpha);
        assertThat(store.get("beta").fingerprint()).isEqualTo("b1");
        assertThatThrownBy(() -> store.get("gamma")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown dataset 'gamma'. Available: alpha, beta.");
    }

    @Test
    void check_name_rejects_bad_names() {
        for (String bad : new String[] {"Bank", "1bank", "_bank", "my-data", "a b", "", "../x", "a".repeat(64)}) {
            assertThatThrownBy(() -> DatasetStore.checkName(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Dataset name '" + bad + "' is not valid: use lowercase letters, digits and '_',"
                            + " starting with a letter.");
        }
        assertThatThrownBy(() -> DatasetStore.checkName(null)).hasMessage(
                "Dataset name 'null' is not valid: use lowercase letters, digits and '_', starting with a letter.");
        assertThat(DatasetStore.checkName("pkdd_99")).isEqualTo("pkdd_99");
        assertThat(DatasetStore.checkName("a".repeat(63))).hasSize(63);
    }

    @Test
    void ensure_refuses_a_bad_name_before_building() throws Exception {
        Numbers b = new Numbers("x", 1);
        assertThatThrownBy(() -> store.ensure("Bad Name", b, Progress.NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.builds).hasValue(0);
        assertThat(filesInRoot()).isEmpty();
    }

    @Test
    void ensure_publishes_once_and_rebuilds_only_when_the_fingerprint_changes() throws Exception {
        Numbers first = new Numbers("v1", 3);
        Dataset built = store.ensure("nums", first, Progress.NONE);
        assertThat(filesInRoot()).containsExactly("nums.duckdb", "nums.json");
        assertThat(built.file()).isEqualTo(root.resolve("nums.duckdb"));

        Numbers same = new Numbers("v1", 99);
        Dataset again = store.ensure("nums", same, Progress.NONE);
        assertThat(same.builds).hasValue(0);
        assertThat(again.builtAt()).isEqualTo(built.builtAt());

        Dataset rebuilt = store.ensure("nums", new Numbers("v2", 7), Progress.NONE);
        assertThat(rebuilt.fingerprint()).isEqualTo("v2");
        assertThat(rebuilt.rows("t")).isEqualTo(7);
        try (Connection c = readOnly(rebuilt.file())) {
            assertThat(count(c)).isEqualTo(7);
        }
        assertThat(filesInRoot()).containsExactly("nums.duckdb", "nums.json");
    }

    @Test
    void a_failed_build_leaves_nothing() throws Exception {
        assertThatThrownBy(() -> store.ensure("bad", new Failing(), Progress.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("File x.csv is bad");
        assertThat(store.list()).isEmpty();
        assertThat(filesInRoot()).isEmpty();
    }

    @Test
    void a_build_without_tables_is_refused() throws Exception {
        DatasetBuilder noTables = new DatasetBuilder() {
            @Override
            public String fingerprint() {
                return "empty";
            }

            @Override
            public String describe() {
                return "nothing";
            }

            @Override
            public void build(Connection db, Progress progress) {
            }
        };
        assertThatThrownBy(() -> store.ensure("empty", noTables, Progress.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The build of dataset 'empty' produced no tables.");
        assertThat(filesInRoot()).isEmpty();
    }

    @Test
    void a_failed_rebuild_keeps_the_previous_dataset_intact_and_readable() throws Exception {
        Dataset good = store.ensure("nums", new Numbers("v1", 4), Progress.NONE);
        String bytes = sha256(good.file());

        assertThatThrownBy(() -> store.ensure("nums", new Failing(), Progress.NONE)).hasMessage("File x.csv is bad");

        assertThat(store.get("nums")).isEqualTo(good);
        assertThat(sha256(good.file())).isEqualTo(bytes);
        try (Connection c = readOnly(good.file())) {
            assertThat(count(c)).isEqualTo(4);
        }
        assertThat(filesInRoot()).containsExactly("nums.duckdb", "nums.json");
    }

    @Test
    void a_reader_keeps_its_snapshot_while_a_rebuild_is_published() throws Exception {
        Dataset old = store.ensure("nums", new Numbers("v1", 4), Progress.NONE);
        try (Connection reader = readOnly(old.file())) {
            assertThat(count(reader)).isEqualTo(4);
            store.ensure("nums", new Numbers("v2", 9), Progress.NONE);
            assertThat(count(reader)).isEqualTo(4); // the old file stays whole under the open reader
            // DuckDB caches open databases by path within a process: while any connection to the old file is
            // open, a new connection to the same path still gets the old one
            try (Connection fresh = readOnly(store.get("nums").file())) {
                assertThat(count(fresh)).isEqualTo(4);
            }
        }
        try (Connection fresh = readOnly(store.get("nums").file())) {
            assertThat(count(fresh)).isEqualTo(9);
        }
    }

    @Test
    void readers_open_the_published_file_read_only_and_leave_its_bytes_unchanged() throws Exception {
        Dataset ds = store.ensure("nums", new Numbers("v1", 1000), Progress.NONE);
        String before = sha256(ds.file());
        try (Connection c = readOnly(ds.file())) {
            assertThat(count(c)).isEqualTo(1000);
            try (Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.execute("INSERT INTO t VALUES (1)")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("read-only");
            }
        }
        assertThat(sha256(ds.file())).isEqualTo(before);
        assertThat(filesInRoot()).containsExactly("nums.duckdb", "nums.json");
    }

    @Test
    void remove_deletes_manifest_and_file() throws Exception {
        store.ensure("nums", new Numbers("v1", 1), Progress.NONE);
        assertThat(store.remove("nums")).isTrue();
        assertThat(store.remove("nums")).isFalse();
        assertThat(store.find("nums")).isEmpty();
        assertThat(filesInRoot()).isEmpty();
        assertThatThrownBy(() -> store.remove("../nums")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_manifest_without_its_file_is_no_dataset() throws Exception {
        Dataset ds = store.ensure("nums", new Numbers("v1", 1), Progress.NONE);
        Files.delete(ds.file());
        assertThat(store.find("nums")).isEmpty();
        Numbers again = new Numbers("v1", 2);
        assertThat(store.ensure("nums", again, Progress.NONE).rows("t")).isEqualTo(2);
        assertThat(again.builds).hasValue(1);
    }
}
