package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.Progress;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files from a hostile test pass: each is refused with one clear line before DuckDB reads it (or loads correctly),
 * in bounded time, and leaves nothing in the store.
 */
class HostileFilesTest extends FilesInAStore {
    private static byte[] gzipBytes(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private Dataset load(Path... files) throws Exception {
        return store.ensure("files", new FileLoader(List.of(files)), Progress.NONE);
    }

    private void assertRefused(String expected, Path file) throws IOException {
        long start = System.nanoTime();
        assertThatThrownBy(() -> load(file)).isInstanceOf(IllegalArgumentException.class).hasMessage(expected);
        assertThat((System.nanoTime() - start) / 1_000_000).as("refused in bounded time").isLessThan(10_000);
        assertThat(store.list()).isEmpty();
        if (Files.isDirectory(storeDir)) {
            try (Stream<Path> left = Files.list(storeDir)) {
                assertThat(left.toList()).as("nothing left behind").isEmpty();
            }
        }
    }

    private static String nested(int depth) {
        return "{\"a\": " + "[".repeat(depth - 1) + "1" + "]".repeat(depth - 1) + "}";
    }

    @Test
    void json_nested_5000_deep_is_refused_before_duckdb_reads_it() throws Exception {
        Path deep = write("d.json", nested(5000));
        assertRefused("File " + deep + ": line 1 nests JSON deeper than 100 levels; flatten the records (DuckDB"
                + " cannot read such depth safely)", deep);
        Path lines = write("d.jsonl", "{\"a\": 1}\n" + nested(2000) + "\n");
        assertRefused("File " + lines + ": line 2 nests JSON deeper than 100 levels; flatten the records (DuckDB"
                + " cannot read such depth safely)", lines);
    }

    @Test
    void json_nested_within_the_limit_loads() throws Exception {
        Dataset ds = load(write("ok.json", "[" + nested(40) + ", " + nested(3) + "]"));
        assertThat(ds.rows("ok")).isEqualTo(2);
    }

    @Test
    void a_json_scalar_is_not_a_table() throws Exception {
        Path number = write("n.json", " 42 ");
        assertRefused("File " + number + ": line 1 holds a single number where a record should be; a table needs"
                + " an object or an array of objects, like [{\"id\": 1, \"name\": \"a\"}]", number);
        Path text = write("s.json", "\"just text\"");
        assertRefused("File " + text + ": line 1 holds a single string where a record should be; a table needs"
                + " an object or an array of objects, like [{\"id\": 1, \"name\": \"a\"}]", text);
        Path numbers = write("a.json", "[1, 2, 3]");
        assertRefused("File " + numbers + ": line 1 holds a single number where a record should be; a table needs"
                + " an object or an array of objects, like [{\"id\": 1, \"name\": \"a\"}]", numbers);
        Path line = write("l.jsonl", "{\"a\": 1}\ntrue\n");
        assertRefused("File " + line + ": line 2 holds a single true/false value where a record should be; a table"
                + " needs one object per line, like {\"id\": 1, \"name\": \"a\"}", line);
    }

    @Test
    void a_truncated_gzip_is_refused_instead_of_loading_half_its_rows() throws Exception {
        StringBuilder csv = new StringBuilder("id,name\n");
        for (int i = 0; i < 20_000; i++) {
            csv.append(i).append(",name").append(i * 7919 % 10007).append('\n');
        }
        byte[] whole = gzipBytes(csv.toString());
        Path cut = Files.write(data.resolve("cut.csv.gz"), Arrays.copyOf(whole, whole.length / 2));
        assertRefused("File " + cut + " is a damaged gzip file (Unexpected end of ZLIB input stream): it was cut short"
                + " or corrupted; compress it again", cut);
        byte[] badCrc = whole.clone();
        badCrc[badCrc.length - 6] ^= 0x5A; // the CRC-32 in the trailer
        Path crc = Files.write(data.resolve("crc.csv.gz"), badCrc);
        assertRefused("File " + crc + " is a damaged gzip file (Corrupt GZIP trailer): it was cut short or corrupted;"
                + " compress it again", crc);
        Path good = Files.write(data.resolve("good.csv.gz"), whole);
        assertThat(load(good).rows("good")).isEqualTo(20_000);
    }

    @Test
    void an_unterminated_quote_is_refused_with_its_line() throws Exception {
        Path csv = write("q.csv", "id,note\n1,fine\n2,\"never closed\n3,more\n4,rows\n");
        assertRefused("File " + csv + ": line 3 opens a quoted field (\") that is never closed, so the rest of the"
                + " file would load as one value; close the quote or remove it", csv);
    }

    @Test
    void quoted_fields_with_escapes_and_line_breaks_still_load() throws Exception {
        Dataset ds = load(write("fine.csv", "id,note\n1,\"say \"\"hi\"\"\"\n2,\"two\nlines\"\n3,5\" pipe\n"));
        assertThat(ds.rows("fine")).isEqualTo(3);
        assertThat(query(ds, "SELECT note FROM fine ORDER BY id")).containsExactly("say \"hi\"", "two\nlines", "5\" pipe");
    }

    @Test
    void a_one_megabyte_line_is_not_a_column_name() throws Exception {
        Path header = write("h.csv", "x".repeat(1_000_000) + "\n1\n2\n");
        assertRefused("File " + header + ": column 1's name is 1000000 characters long (at most 255); the first line"
                + " should be a header of column names", header);
        Path longLine = write("long.csv", "a,b\n1," + "y".repeat(2 << 20) + "\n");
        assertRefused("File " + longLine + ": line 2 is longer than 1 MB; is it really line-oriented text? Split it"
                + " into rows (one record per line)", longLine);
    }

    @Test
    void a_text_value_far_down_a_number_column_loads_the_column_as_text() throws Exception {
        StringBuilder csv = new StringBuilder("id,amount\n");
        for (int i = 1; i <= 40_000; i++) {
            // a word, not a missing-value marker such as 'n/a' (those are read as missing: CarefulTypesTest)
            csv.append(i).append(',').append(i == 30_001 ? "pending" : String.valueOf(i * 3)).append('\n');
        }
        Dataset ds = load(write("num.csv", csv.toString()));

        assertThat(ds.rows("num")).isEqualTo(40_000);
        assertThat(query(ds, "SELECT data_type FROM information_schema.columns WHERE table_name = 'num'"
                + " AND column_name = 'amount'")).containsExactly("VARCHAR");
        assertThat(query(ds, "SELECT amount FROM num WHERE id = 30001")).containsExactly("pending");
    }

    @Test
    void duckdb_conversion_errors_name_the_line_and_the_value() {
        String message = "Conversion Error: CSV Error on Line: 30002\nOriginal Line: 30001,n/a\nError when converting"
                + " column \"amount\". Could not convert string \"n/a\" to 'BIGINT'\n\nColumn amount is being converted"
                + " as type BIGINT\nPossible solutions:\n* Override the type\n\n  file = x.csv\n  all_varchar = 0\n";
        assertThat(FileSupport.reason(new java.sql.SQLException(message))).isEqualTo("line 30002: Error when converting"
                + " column \"amount\". Could not convert string \"n/a\" to 'BIGINT'");
    }

    private static List<String> query(Dataset ds, String sql) throws Exception {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        List<String> out = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + ds.file(), ro);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
