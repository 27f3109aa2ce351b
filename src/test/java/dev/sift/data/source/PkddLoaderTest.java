package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PkddLoaderTest {
    static final Path REAL = Path.of("..", "shared", "data", "berka");
    static final String EXPECTED = "expected account.asc, card.asc, client.asc, disp.asc, district.asc, loan.asc,"
            + " order.asc and optionally trans*.asc[.gz]";

    /** The real files are built once for all tests that read them (about a second). */
    @TempDir
    static Path realStore;
    private static Dataset real;

    private static synchronized Dataset real() throws Exception {
        assumeTrue(Files.isDirectory(REAL),
                "../shared/data/berka not found: real PKDD'99 files are not in this checkout; skipping");
        if (real == null) {
            real = new DatasetStore(realStore).ensure("pkdd", new PkddLoader(REAL), Progress.NONE);
        }
        return real;
    }

    @TempDir
    Path tmp;
    Path dir;
    Path storeDir;
    DatasetStore store;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createDirectories(tmp.resolve("berka"));
        storeDir = tmp.resolve("store");
        store = new DatasetStore(storeDir);
    }

    // --- real files ---------------------------------------------------------------------------------

    @Test
    void real_files_give_the_known_row_counts() throws Exception {
        Dataset ds = real();
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows).containsExactly(
                tuple("account", 4500L), tuple("card", 892L), tuple("client", 5369L), tuple("disp", 5369L),
                tuple("district", 77L), tuple("loan", 682L), tuple("order", 6471L), tuple("trans", 99999L));
        assertThat(ds.description()).isEqualTo("PKDD'99 Financial data from " + REAL.toAbsolutePath().normalize()
                + " (trans: partial file trans_first100k.asc.gz, 99,999 rows)");
    }

    @Test
    void real_files_give_the_known_values() throws Exception {
        Dataset ds = real();
        assertThat(query(ds, "SELECT account_id, date, amount, duration, payments, status FROM loan WHERE loan_id = 5314"))
                .containsExactly(List.of("1787", "1993-07-05", "96396", "12", "8033.0", "B"));
        assertThat(query(ds, "SELECT client_id, birth_number, gender, birth_date FROM client WHERE client_id IN (1, 2)"
                + " ORDER BY 1")).containsExactly(List.of("1", "706213", "F", "1970-12-13"),
                List.of("2", "450204", "M", "1945-02-04"));
        assertThat(query(ds, "SELECT issued FROM card WHERE card_id = 1005")).containsExactly(List.of("1993-11-07"));
        assertThat(query(ds, "SELECT A1, A2, A3, A12, A15 FROM district WHERE A1 IN (1, 69) ORDER BY 1")).containsExactly(
                Arrays.asList("1", "Hl.m. Praha", "Prague", "0.29", "85677"),
                Arrays.asList("69", "Jesenik", "north Moravia", null, null));
        assertThat(query(ds, "SELECT status, count(*) FROM loan GROUP BY 1 ORDER BY 1")).containsExactly(
                List.of("A", "203"), List.of("B", "31"), List.of("C", "403"), List.of("D", "45"));
        // two-digit years are all 19xx: the oldest client is born in 1911, not 2011
        assertThat(query(ds, "SELECT min(birth_date), max(birth_date), count(*) FILTER (WHERE birth_date IS NULL)"
                + " FROM client")).containsExactly(List.of("1911-08-20", "1987-09-27", "0"));
        assertThat(query(ds, "SELECT min(date), max(date) FROM trans")).containsExactly(List.of("1993-01-01", "1994-10-31"));
        // a lone ' ' k_symbol means missing, like '' does
        assertThat(query(ds, "SELECT count(*) FROM \"order\" WHERE trim(k_symbol) = ''")).containsExactly(List.of("0"));
    }

    @Test
    void real_files_match_pkdd_schema_exactly() throws Exception {
        String sql = "SELECT table_name, column_name, data_type, ordinal_position FROM information_schema.columns"
                + " WHERE table_schema = 'main' ORDER BY table_name, ordinal_position";
        List<List<String>> expected;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            PkddSchema.create(c);
            expected = rows(c, sql);
        }
        assertThat(query(real(), sql)).isEqualTo(expected).hasSize(56);
    }

    @Test
    void real_fingerprint_is_stable_and_ensure_does_not_rebuild() throws Exception {
        Dataset ds = real();
        assertThat(new PkddLoader(REAL).fingerprint()).isEqualTo(ds.fingerprint());
        Dataset again = new DatasetStore(realStore).ensure("pkdd", new PkddLoader(REAL), Progress.NONE);
        assertThat(again.builtAt()).isEqualTo(ds.builtAt());
    }

    // --- small hand-made files in the original format -----------------------------------------------

    private static final String ACCOUNT = "\"account_id\";\"district_id\";\"frequency\";\"date\"\r\n"
            + "576;1;\"POPLATEK MESICNE\";930101\r\n3818;69;\"POPLATEK TYDNE\";971231\r\n";
    private static final String CLIENT = "\"client_id\";\"birth_number\";\"district_id\"\r\n"
            + "1;\"706213\";18\r\n2;\"115612\";1\r\n";
    private static final String DISP = "\"disp_id\";\"client_id\";\"account_id\";\"type\"\r\n"
            + "1;1;576;\"OWNER\"\r\n2;2;576;\"DISPONENT\"\r\n";
    private static final String CARD = "\"card_id\";\"disp_id\";\"type\";\"issued\"\r\n1005;1;\"classic\";931107 00:00:00\r\n";
    private static final String DISTRICT = "A1;A2;A3;A4;A5;A6;A7;A8;A9;A10;A11;A12;A13;A14;A15;A16\r\n"
            + "1;\"Hl.m. Praha\";\"Prague\";1204953;0;0;0;1;1;100.0;12541;0.29;0.43;167;85677;99107\r\n"
            + "69;\"Jesenik\";\"north Moravia\";42821;4;13;5;1;3;48.4;8173;?;7.01;124;?;1358\r\n";
    private static final String LOAN_HEADER = "\"loan_id\";\"account_id\";\"date\";\"amount\";\"duration\";\"payments\";"
            + "\"status\"\r\n";
    private static final String LOAN = LOAN_HEADER + "5314;576;930705;96396;12;8033.00;\"B\"\r\n";
    private static final String ORDER = "\"order_id\";\"account_id\";\"bank_to\";\"account_to\";\"amount\";\"k_symbol\"\r\n"
            + "29401;576;\"YZ\";\"87144583\";2452.00;\"SIPO\"\r\n29402;576;\"ST\";\"89597016\";3372.70;\" \"\r\n";
    private static final String TRANS = "\"trans_id\";\"account_id\";\"date\";\"type\";\"operation\";\"amount\";"
            + "\"balance\";\"k_symbol\";\"bank\";\"account\"\r\n"
            + "695247;576;930101;\"PRIJEM\";\"VKLAD\";700.00;700.00;\"\";;\r\n"
            + "171812;576;930131;\"VYDAJ\";\"PREVOD NA UCET\";100.00;600.00;\"SIPO\";\"YZ\";87144583\r\n";

    private void writeTiny() throws IOException {
        write("account.asc", ACCOUNT);
        write("client.asc", CLIENT);
        write("disp.asc", DISP);
        write("card.asc", CARD);
        write("district.asc", DISTRICT);
        write("loan.asc", LOAN);
        write("order.asc", ORDER);
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.ISO_8859_1);
    }

    private void gzip(String name, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private Dataset load() throws Exception {
        return store.ensure("pkdd", new PkddLoader(dir), Progress.NONE);
    }

    /** A refused build leaves no dataset and nothing else in the store folder. */
    private void assertRefused(String expected) throws IOException {
        assertThatThrownBy(this::load).isInstanceOf(IllegalArgumentException.class).hasMessage(expected);
        assertThat(store.list()).isEmpty();
        if (Files.isDirectory(storeDir)) {
            try (Stream<Path> left = Files.list(storeDir)) {
                assertThat(left.toList()).isEmpty();
            }
        }
    }

    @Test
    void converts_dates_codes_and_missing_values() throws Exception {
        writeTiny();
        gzip("trans_sample.asc.gz", TRANS);
        List<String> stages = new ArrayList<>();
        Dataset ds = store.ensure("pkdd", new PkddLoader(dir), (stage, done, total) -> stages.add(stage + " " + done + "/" + total));

        assertThat(query(ds, "SELECT client_id, gender, birth_date FROM client ORDER BY 1")).containsExactly(
                List.of("1", "F", "1970-12-13"), List.of("2", "F", "1911-06-12"));
        assertThat(query(ds, "SELECT account_id, date FROM account ORDER BY 1")).containsExactly(
                List.of("576", "1993-01-01"), List.of("3818", "1997-12-31"));
        assertThat(query(ds, "SELECT order_id, k_symbol FROM \"order\" ORDER BY 1")).containsExactly(
                List.of("29401", "SIPO"), Arrays.asList("29402", null));
        assertThat(query(ds, "SELECT trans_id, k_symbol, bank, account FROM trans ORDER BY 1")).containsExactly(
                Arrays.asList("171812", "SIPO", "YZ", "87144583"), Arrays.asList("695247", null, null, null));
        assertThat(query(ds, "SELECT A12, A15 FROM district WHERE A1 = 69")).containsExactly(Arrays.asList(null, null));
        assertThat(ds.description()).isEqualTo("PKDD'99 Financial data from " + dir
                + " (trans: partial file trans_sample.asc.gz, 2 rows)");
        assertThat(stages).containsExactly("loading district.asc 0/8", "loading account.asc 1/8",
                "loading client.asc 2/8", "loading disp.asc 3/8", "loading card.asc 4/8", "loading loan.asc 5/8",
                "loading order.asc 6/8", "loading trans_sample.asc.gz 7/8", "loaded 8 PKDD'99 files 8/8");
    }

    @Test
    void without_trans_file_the_table_is_empty_and_says_so() throws Exception {
        writeTiny();
        Dataset ds = load();
        assertThat(ds.rows("trans")).isZero();
        assertThat(ds.rows("loan")).isEqualTo(1);
        assertThat(ds.description()).isEqualTo("PKDD'99 Financial data from " + dir
                + " (trans: no trans*.asc file, table is empty)");
    }

    @Test
    void the_full_trans_file_wins_over_samples() throws Exception {
        writeTiny();
        write("trans.asc", TRANS);
        gzip("trans_first100k.asc.gz", TRANS);
        assertThat(load().description()).endsWith("(trans: partial file trans.asc, 2 rows)");
    }

    @Test
    void several_sample_trans_files_are_refused() throws Exception {
        writeTiny();
        gzip("trans_a.asc.gz", TRANS);
        write("trans_b.asc", TRANS);
        assertRefused("PKDD'99 folder " + dir + " has several trans files (trans_a.asc.gz, trans_b.asc):"
                + " keep one, or add the full trans.asc");
    }

    @Test
    void fingerprint_follows_content() throws Exception {
        writeTiny();
        String before = new PkddLoader(dir).fingerprint();
        assertThat(new PkddLoader(dir).fingerprint()).isEqualTo(before);
        write("loan.asc", LOAN + "5316;576;930711;165960;36;4610.00;\"A\"\r\n");
        assertThat(new PkddLoader(dir).fingerprint()).isNotEqualTo(before);
    }

    @Test
    void missing_folder_or_files_are_named() throws Exception {
        Path none = tmp.resolve("nowhere");
        assertThatThrownBy(() -> store.ensure("pkdd", new PkddLoader(none), Progress.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PKDD'99 folder " + none + " not found: " + EXPECTED);
        writeTiny();
        Files.delete(dir.resolve("loan.asc"));
        assertRefused("PKDD'99 file loan.asc not found in " + dir + ": " + EXPECTED);
        Files.delete(dir.resolve("account.asc"));
        assertRefused("PKDD'99 files account.asc, loan.asc not found in " + dir + ": " + EXPECTED);
    }

    @Test
    void a_bad_date_names_file_row_and_value() throws Exception {
        writeTiny();
        write("loan.asc", LOAN_HEADER + "5314;576;9307x5;96396;12;8033.00;\"B\"\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: loan_id 5314: date '9307x5' is not a YYMMDD date");
        write("loan.asc", LOAN_HEADER + "5314;576;931332;96396;12;8033.00;\"B\"\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: loan_id 5314: date '931332' is not a YYMMDD date");
        write("loan.asc", LOAN_HEADER + "5314;576;930705;lots;12;8033.00;\"B\"\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: loan_id 5314: amount 'lots' is not an integer");
    }

    @Test
    void binary_junk_ragged_rows_and_wrong_headers_are_refused() throws Exception {
        writeTiny();
        byte[] junk = new byte[2048];
        new java.util.Random(3).nextBytes(junk);
        junk[5] = 0;
        Files.write(dir.resolve("loan.asc"), junk);
        assertRefused("PKDD'99 file loan.asc is malformed: it looks binary, not ';'-separated text");
        write("loan.asc", LOAN + "5316;576;930711;165960;36\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: line 3: Expected Number of Columns: 7 Found: 5");
        write("loan.asc", "\"loan_id\";\"date\"\r\n5314;930705\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: its header is 'loan_id;date', expected"
                + " 'loan_id;account_id;date;amount;duration;payments;status'");
        write("loan.asc", LOAN + "5314;576;930705;96396;12;8033.00;\"B\"\r\n");
        assertRefused("PKDD'99 file loan.asc is malformed: PRIMARY KEY or UNIQUE constraint violation:"
                + " duplicate key \"5314\"");
    }

    @Test
    void a_failed_rebuild_keeps_the_previous_dataset() throws Exception {
        writeTiny();
        Dataset good = load();
        write("card.asc", CARD + "1006;2;\"gold\";not a date\r\n");
        assertThatThrownBy(this::load).hasMessage(
                "PKDD'99 file card.asc is malformed: card_id 1006: issued 'not a date' is not a date like 931107 00:00:00");
        assertThat(store.get("pkdd").fingerprint()).isEqualTo(good.fingerprint());
        assertThat(query(store.get("pkdd"), "SELECT count(*) FROM card")).containsExactly(List.of("1"));
    }

    static List<List<String>> query(Dataset ds, String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + ds.file(), ro)) {
            return rows(c, sql);
        }
    }

    private static List<List<String>> rows(Connection c, String sql) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
