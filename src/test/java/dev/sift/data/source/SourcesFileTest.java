package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static dev.sift.data.source.DatabaseFileSourcesTest.columns;
import static dev.sift.data.source.DatabaseFileSourcesTest.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * Sources files: several sources under aliases, one schema each, DataAgentBench's {@code db_config.yaml} read as
 * it is (the real yelp fold-in), and every mistake in the file named by its line and key.
 */
class SourcesFileTest {
    /** DataAgentBench's yelp set, relative to the project folder (the tests' working directory). */
    static final Path YELP = Path.of("../shared/data/dab/yelp");

    @TempDir
    Path tmp;
    DatasetStore store;

    @BeforeEach
    void setUp() {
        store = new DatasetStore(tmp.resolve("store"));
    }

    private Path yaml(String text) throws Exception {
        return Files.writeString(tmp.resolve("sources.yaml"), text);
    }

    private Dataset load(String name, Path file) throws Exception {
        return store.load(name, DatasetSources.of(List.of(file.toString()), tmp, Map.of()), false, false, Progress.NONE);
    }

    private void duckdb(String name, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + tmp.resolve(name)); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void the_yelp_db_config_folds_a_mongodb_dump_and_a_duckdb_file_into_one_dataset() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(YELP.resolve("db_config.yaml")),
                "DataAgentBench's yelp set is not at " + YELP.toAbsolutePath() + " (see ../shared/data/README.md)");
        Dataset ds = load("yelp", YELP.resolve("db_config.yaml").toAbsolutePath());
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows).containsExactly(
                tuple("businessinfo_database.business", 100L), tuple("businessinfo_database.checkin", 90L),
                tuple("user_database.review", 2000L), tuple("user_database.tip", 784L), tuple("user_database.user", 1999L));
        assertThat(columns(ds, "businessinfo_database.business")).containsExactly("_id VARCHAR", "business_id VARCHAR",
                "name VARCHAR", "review_count INTEGER", "is_open INTEGER", "attributes JSON", "hours JSON",
                "description VARCHAR");
        // nested documents are JSON: queryable with DuckDB's JSON functions, across schemas
        assertThat(query(ds.file(), "SELECT count(*) FROM businessinfo_database.business"
                + " WHERE attributes->>'BusinessAcceptsCreditCards' = 'True'")).containsExactly(List.of("75")); // = lines with that attribute in yelp_business_json/business.jsonl
        assertThat(query(ds.file(), "SELECT hours->>'Tuesday' FROM businessinfo_database.business"
                + " WHERE business_id = 'businessid_49'")).containsExactly(List.of("8:0-17:0"));
        assertThat(query(ds.file(), "SELECT count(*) FROM user_database.review r JOIN businessinfo_database.business b"
                + " ON b.business_id = replace(r.business_ref, 'businessref_', 'businessid_')"))
                .containsExactly(List.of("2000"));
        Path base = YELP.toAbsolutePath().normalize().resolve("query_dataset");
        assertThat(ds.sources()).containsExactly(
                "businessinfo_database: MongoDB dump " + base.resolve("yelp_business"),
                "user_database: DuckDB file " + base.resolve("yelp_user.db"));
        assertThat(load("yelp", YELP.resolve("db_config.yaml").toAbsolutePath()).builtAt()).as("built once").isEqualTo(ds.builtAt());
    }

    @Test
    void sift_sources_files_name_aliases_and_paths_relative_to_the_file() throws Exception {
        Files.createDirectories(tmp.resolve("data"));
        Files.writeString(tmp.resolve("data/shops.csv"), "id,city\n1,Prague\n2,Brno\n");
        duckdb("crm.duckdb", "CREATE TABLE customer AS SELECT 1 AS id, 1 AS shop_id");
        Dataset ds = load("mixed", yaml("sources:\n  stores: data/shops.csv\n  crm:\n    location: crm.duckdb\n"));
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name).containsExactly("crm.customer", "stores.shops");
        assertThat(query(ds.file(), "SELECT s.city FROM crm.customer c JOIN stores.shops s ON s.id = c.shop_id"))
                .containsExactly(List.of("Prague"));
    }

    @Test
    void a_sources_file_of_one_source_keeps_main() throws Exception {
        duckdb("crm.duckdb", "CREATE TABLE customer AS SELECT 1 AS id");
        Dataset ds = load("one", yaml("db_clients:\n  crm_database:\n    db_type: duckdb\n    db_path: crm.duckdb\n"));
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name).containsExactly("customer");
    }

    @Test
    void an_unknown_key_is_named_with_its_line() throws Exception {
        duckdb("crm.duckdb", "CREATE TABLE customer AS SELECT 1 AS id");
        Path f = yaml("db_clients:\n  crm:\n    db_type: duckdb\n    db_paht: crm.duckdb\n");
        assertThatThrownBy(() -> load("x", f)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + f + ", line 3: alias 'crm' (db_type duckdb) needs a 'db_path' key Did you mean 'db_path'?");
    }

    @Test
    void an_unknown_db_type_is_named_with_its_line() throws Exception {
        Path f = yaml("db_clients:\n  a:\n    db_type: duckdb\n    db_path: x.duckdb\n  b:\n    db_type: mongodbx\n");
        assertThatThrownBy(() -> load("x", f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Sources file " + f + ", line 4: alias 'a': File not found: ");
        Path g = yaml("db_clients:\n  b:\n    db_type: oracle\n    db_path: x\n");
        assertThatThrownBy(() -> load("x", g)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + g + ", line 3: db_type 'oracle' of alias 'b' is not known: use one of duckdb, sqlite, mongo, postgres,"
                + " mysql, file");
    }

    @Test
    void a_local_source_with_extra_keys_and_a_bad_alias_are_refused() throws Exception {
        duckdb("crm.duckdb", "CREATE TABLE customer AS SELECT 1 AS id");
        Path f = yaml("sources:\n  crm:\n    location: crm.duckdb\n    password_env: X\n");
        assertThatThrownBy(() -> load("x", f)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + f + ", line 3: key 'password_env' of alias 'crm' is not known: a local file or folder takes only its path");
        Path g = yaml("sources:\n  Main: crm.duckdb\n");
        assertThatThrownBy(() -> load("x", g)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + g + ", line 2: alias 'Main' is not valid: use lowercase letters, digits and '_', starting with a letter"
                + " (it names the schema of the source's tables)");
        Path h = yaml("sources:\n  frames: crm.duckdb\n");
        assertThatThrownBy(() -> load("x", h)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + h + ", line 2: alias 'frames' is reserved: choose another name");
    }

    @Test
    void broken_yaml_and_a_wrong_top_key_are_named_with_their_line() throws Exception {
        Path f = yaml("sources:\n  a: x.csv\n  b: [unclosed\n");
        assertThatThrownBy(() -> load("x", f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Sources file " + f + ", line 4: not valid YAML (");
        Path g = yaml("\nsource:\n  a: x.csv\n");
        assertThatThrownBy(() -> load("x", g)).isInstanceOf(IllegalArgumentException.class).hasMessage("Sources file "
                + g + ", line 2: key 'source' is not known: use 'sources' or 'db_clients' Did you mean 'sources'?");
    }

    @Test
    void network_locations_without_a_connector_are_refused_with_the_password_masked() throws Exception {
        Path f = yaml("sources:\n  shop: ftp://me:secret@host/db\n");
        assertThatThrownBy(() -> load("x", f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sources file " + f + ", line 2: alias 'shop': Source ftp://me:***@host/db: the scheme 'ftp' is not"
                        + " supported; use " + NetworkSources.SCHEMES);
    }
}
