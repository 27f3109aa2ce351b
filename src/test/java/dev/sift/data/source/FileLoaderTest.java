package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import org.junit.jupiter.api.Test;

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
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class FileLoaderTest extends FilesInAStore {
    private Path gzip(String name, String text) throws IOException {
        Path p = data.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    private Path parquet(String name, String select) throws Exception {
        Path p = data.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("COPY (" + select + ") TO '" + p.toString().replace("'", "''") + "' (FORMAT parquet)");
        }
        return p;
    }

    private Dataset load(Path... files) throws Exception {
        return store.ensure("files", new FileLoader(List.of(files)), Progress.NONE);
    }

    /** Rows of a query on the published file, opened read-only as readers do. */
    private static List<List<String>> query(Dataset ds, String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + ds.file(), ro);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
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

    private static List<String> columns(Dataset ds, String table) throws Exception {
        return query(ds, "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_name = '"
                + table + "' ORDER BY ordinal_position").stream().map(r -> r.get(0)).toList();
    }

    /** A refused load leaves no dataset and nothing else in the store folder. */
    private void assertRefused(String expected, Path... files) throws IOException {
        assertThatThrownBy(() -> load(files)).isInstanceOf(IllegalArgumentException.class).hasMessage(expected);
        assertThat(store.list()).isEmpty();
        if (Files.isDirectory(storeDir)) {
            try (Stream<Path> left = Files.list(storeDir)) {
                assertThat(left.toList()).isEmpty();
            }
        }
    }

    @Test
    void loads_every_format_as_one_table_per_file() throws Exception {
        Path csv = write("Sales 2024.csv", "id,region,amount\n1,north,10.5\n2,south,20\n3,east,7.25\n");
        Path tsv = write("regions.tsv", "region\tmanager\nnorth\tAna\nsouth\tBo\n");
        Path txt = write("notes.txt", "k;v\na;1\nb;2\nc;3\nd;4\n");
        Path gz = gzip("Events.csv.gz", "day,clicks\n2024-01-01,5\n2024-01-02,7\n");
        Path pq = parquet("points.parquet", "SELECT range AS id, 'p' || range AS label FROM range(6)");
        Path json = write("people.json", "[{\"name\": \"Ana\", \"age\": 31}, {\"name\": \"Bo\", \"age\": 42}]");
        Path jsonl = write("Clicks.jsonl", "{\"user\": 1, \"page\": \"/\"}\n{\"user\": 2, \"page\": \"/a\"}\n");
        Path ndjson = write("x.ndjson", "{\"v\": true}\n");

        Dataset ds = load(csv, tsv, txt, gz, pq, json, jsonl, ndjson);

        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows).containsExactly(
                tuple("clicks", 2L), tuple("events", 2L),
                tuple("notes", 4L), tuple("people", 2L),
                tuple("points", 6L), tuple("regions", 2L),
                tuple("sales_2024", 3L), tuple("x", 1L));
        assertThat(columns(ds, "sales_2024")).containsExactly("id BIGINT", "region VARCHAR", "amount DOUBLE");
        assertThat(columns(ds, "regions")).containsExactly("region VARCHAR", "manager VARCHAR");
        assertThat(columns(ds, "notes")).containsExactly("k VARCHAR", "v BIGINT");
        assertThat(columns(ds, "events")).containsExactly("day DATE", "clicks BIGINT");
        assertThat(columns(ds, "points")).containsExactly("id BIGINT", "label VARCHAR");
        assertThat(columns(ds, "people")).containsExactly("name VARCHAR", "age BIGINT");
        assertThat(columns(ds, "clicks")).containsExactly("user BIGINT", "page VARCHAR");
        assertThat(columns(ds, "x")).containsExactly("v BOOLEAN");
        assertThat(query(ds, "SELECT sum(amount) FROM sales_2024")).containsExactly(List.of("37.75"));
        assertThat(ds.description()).isEqualTo("files: Sales 2024.csv, regions.tsv, notes.txt, Events.csv.gz,"
                + " points.parquet, people.json, Clicks.jsonl, x.ndjson");
    }

    @Test
    void quoted_fields_and_odd_paths_load() throws Exception {
        // a quote and brackets in the path: DuckDB must read the literal file, not a glob
        Path odd = write("it's [v2].csv", "name,comment\n\"Smith, J\",\"said \"\"hi\"\"\"\nLee,\n");
        Dataset ds = load(odd);
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name).containsExactly("it_s_v2");
        assertThat(query(ds, "SELECT name, comment FROM it_s_v2 ORDER BY name"))
                .containsExactly(java.util.Arrays.asList("Lee", null), List.of("Smith, J", "said \"hi\""));
    }

    @Test
    void table_names_are_sanitised_file_stems() {
        assertThat(FileLoader.tableName("Sales 2024")).isEqualTo("sales_2024");
        assertThat(FileLoader.tableName("2024-Q1")).isEqualTo("t_2024_q1");
        assertThat(FileLoader.tableName("Příjmy (účty)")).isEqualTo("prijmy_ucty");
        assertThat(FileLoader.tableName("--")).isEqualTo("t");
        assertThat(FileLoader.tableName("order")).isEqualTo("order");
    }

    @Test
    void clashing_table_names_are_refused() throws Exception {
        Path a = Files.writeString(Files.createDirectories(data.resolve("a")).resolve("Sales.csv"), "x\n1\n");
        Path b = Files.writeString(Files.createDirectories(data.resolve("b")).resolve("sales.tsv"), "x\n1\n");
        assertRefused("Files " + a + " and " + b + " would both load as table 'sales': rename one of them", a, b);
        assertRefused("File " + a + " is given twice: give it once", a, a);
    }

    @Test
    void missing_folder_unsupported_and_empty_files_are_refused() throws Exception {
        Path missing = data.resolve("nope.csv");
        assertRefused("File not found: " + missing, missing);
        assertRefused("File " + data + " is a folder: give the data files in it instead", data);
        Path xlsx = write("book.xlsx", "PK");
        assertRefused("File " + xlsx + " has an unsupported type: use .csv, .tsv, .txt, .csv.gz, .tsv.gz, .parquet,"
                + " .json, .jsonl or .ndjson", xlsx);
        Path empty = write("a.csv", "");
        assertRefused("File " + empty + " is empty: nothing to load", empty);
        Path emptyParquet = write("p.parquet", "");
        assertRefused("File " + emptyParquet + " is empty: nothing to load", emptyParquet);
    }

    @Test
    void files_without_columns_are_refused() throws Exception {
        Path blank = write("blank.csv", "\n \n\n");
        assertRefused("File " + blank + " has no columns: it holds only blank space", blank);
        Path noFields = write("e.jsonl", "{}\n{}\n");
        assertRefused("File " + noFields + " has no columns: its records need fields, like {\"id\": 1, \"name\": \"a\"}",
                noFields);
        Path emptyArray = write("e.json", "[]");
        assertRefused("File " + emptyArray + " has no columns: its records need fields, like {\"id\": 1, \"name\": \"a\"}",
                emptyArray);
    }

    @Test
    void binary_junk_is_refused_before_duck_db_sees_it() throws Exception {
        byte[] junk = new byte[4096];
        new java.util.Random(7).nextBytes(junk);
        junk[10] = 0;
        Path csv = Files.write(data.resolve("junk.csv"), junk);
        assertRefused("File " + csv + " looks binary, not CSV text: save it as UTF-8 CSV", csv);
        Path json = Files.write(data.resolve("junk.jsonl"), junk);
        assertRefused("File " + json + " looks binary, not JSON lines text: save it as UTF-8 JSON lines", json);
        Path pq = parquet("real.parquet", "SELECT 1 AS a");
        Path misnamed = Files.copy(pq, data.resolve("misnamed.csv"));
        assertRefused("File " + misnamed + " is a Parquet file: name it misnamed.parquet", misnamed);
        Path zipped = gzip("plain.csv", "a,b\n1,2\n");
        assertRefused("File " + zipped + " is gzip-compressed: name it plain.csv.gz", zipped);
        Path fake = write("fake.csv.gz", "a,b\n1,2\n");
        assertRefused("File " + fake + " is not valid gzip: Not in GZIP format", fake);
        Path nothing = gzip("nothing.tsv.gz", "");
        assertRefused("File " + nothing + " is empty: nothing to load", nothing);
    }

    @Test
    void ragged_rows_are_refused_with_duck_dbs_reason() throws Exception {
        // DuckDB's sniffer alone would load these as one column of whole lines, or skip the first rows
        Path csv = write("ragged.csv", "a,b\n1,2\n3,4\n5,6,7\n8,9\n");
        assertRefused("File " + csv + " could not be read as CSV: line 4: Expected Number of Columns: 2 Found: 3", csv);
        Path tsv = write("ragged.tsv", "x\ty\n1\t2\n3\t4\t5\n");
        assertRefused("File " + tsv + " could not be read as TSV: line 3: Expected Number of Columns: 2 Found: 3", tsv);
        Path gz = gzip("short.csv.gz", "a,b,c\n1,2,3\n4,5\n");
        assertRefused("File " + gz + " could not be read as CSV: line 3: Expected Number of Columns: 3 Found: 2", gz);
    }

    @Test
    void corrupt_files_are_refused_with_duck_dbs_reason_in_one_line() throws Exception {
        Path pq = write("broken.parquet", "not a parquet file at all");
        assertRefused("File " + pq + " could not be read as Parquet: No magic bytes found at end of file '" + pq + "'",
                pq);
        Path jsonl = write("bad.jsonl", "{\"a\": 1}\n{broken\n");
        // DuckDB counts this line as 3 (it is the second)
        assertRefused("File " + jsonl + " could not be read as JSON lines: Malformed JSON in file \"" + jsonl
                + "\", at byte 2 in line 3: unexpected character.", jsonl);
        Path latin1 = Files.write(data.resolve("latin1.csv"), new byte[] {'a', ',', 'b', '\n', '1', ',', (byte) 0xE9, '\n'});
        assertRefused("File " + latin1 + " could not be read as CSV: line 2: Invalid unicode (byte sequence mismatch)"
                + " detected. This file is not utf-8 encoded. Save it as UTF-8.", latin1);
    }

    @Test
    void fingerprint_follows_content_and_ensure_rebuilds_only_on_change() throws Exception {
        Path csv = write("a.csv", "x\n1\n2\n");
        Path jsonl = write("b.jsonl", "{\"y\": 1}\n");
        assertThat(new FileLoader(List.of(csv, jsonl)).fingerprint())
                .isEqualTo(new FileLoader(List.of(csv, jsonl)).fingerprint())
                .isNotEqualTo(new FileLoader(List.of(csv)).fingerprint());

        Dataset first = load(csv, jsonl);
        Dataset again = load(csv, jsonl);
        assertThat(again.builtAt()).isEqualTo(first.builtAt());
        assertThat(again.fingerprint()).isEqualTo(first.fingerprint());

        Files.writeString(csv, "x\n1\n2\n3\n");
        Dataset changed = load(csv, jsonl);
        assertThat(changed.fingerprint()).isNotEqualTo(first.fingerprint());
        assertThat(changed.rows("a")).isEqualTo(3);
        assertThat(query(changed, "SELECT count(*) FROM a")).containsExactly(List.of("3"));
        try (Stream<Path> left = Files.list(storeDir)) {
            assertThat(left.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("files.duckdb", "files.json");
        }
    }

    @Test
    void progress_is_reported_per_file() throws Exception {
        Path a = write("a.csv", "x\n1\n");
        Path b = write("b.csv", "y\n2\n");
        List<String> seen = new ArrayList<>();
        store.ensure("files", new FileLoader(List.of(a, b)), (stage, done, total) -> seen.add(stage + " " + done + "/" + total));
        assertThat(seen).containsExactly("loading a.csv 0/2", "loading b.csv 1/2", "loaded 2 files 2/2");
    }
}
