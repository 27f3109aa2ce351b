package dev.sift.data.source;

import dev.sift.data.DatasetBuilder;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.sift.data.source.SourceTestSupport.freePort;
import static dev.sift.data.source.SourceTestSupport.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against a real S3-compatible server (S3Mock) reached with the AWS SDK as a real bucket would be. */
class S3SourceTest {
    private static TestS3 server;
    private static S3Client s3;
    @TempDir
    static Path work;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestS3.startOrSkip();
        s3 = server.client();
        s3.createBucket(r -> r.bucket("lake"));
        Path parquet = work.resolve("orders.parquet");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement st = duck.createStatement()) {
            st.execute("COPY (SELECT i AS order_id, i * 2.5 AS amount, DATE '2024-01-01' + i::INTEGER AS day"
                    + " FROM range(1, 5001) t(i)) TO '" + parquet + "' (FORMAT parquet)");
        }
        server.put(s3, "lake", "shop/orders.parquet", parquet);
        server.put(s3, "lake", "shop/customers.csv", "id,name\n1,Ada\n2,Linus\n3,Grace\n".getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "shop/events/clicks.jsonl",
                "{\"user\": 1, \"page\": {\"path\": \"/a\"}}\n{\"user\": 2, \"page\": {\"path\": \"/b\"}}\n"
                        .getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "shop/README.md", "not data".getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "shop2/extra.csv", "x\n1\n".getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "broken/bad.parquet", "PAR1 this is not parquet PAR1".getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "clash/a/t.csv", "x\n1\n".getBytes(StandardCharsets.UTF_8));
        server.put(s3, "lake", "clash/b/t.csv", "x\n2\n".getBytes(StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (s3 != null) {
            s3.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static Map<String, String> options(Path downloads) {
        Map<String, String> o = new HashMap<>();
        o.put("endpoint", server.endpoint());
        o.put("download_dir", downloads.toString());
        return o;
    }

    private static Source source(String url, Path downloads) {
        return NetworkSources.open(url, options(downloads), server.env()).orElseThrow();
    }

    @Test
    void loads_every_parquet_csv_and_json_object_under_the_prefix_as_a_table(@TempDir Path downloads) throws Exception {
        Source s = source("s3://lake/shop/", downloads);
        s.fingerprint();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            s.load(duck, "main", Progress.NONE);
            assertThat(row(duck, "SELECT count(*), sum(amount), max(day) FROM orders"))
                    .containsExactly("5000", "31256250.0", "2037-09-09");
            assertThat(row(duck, "SELECT string_agg(name, ',' ORDER BY id) FROM customers")).containsExactly("Ada,Linus,Grace");
            assertThat(row(duck, "SELECT string_agg(page.path, ',' ORDER BY \"user\") FROM clicks")).containsExactly("/a,/b");
        }
        assertThat(s.describe()).isEqualTo("S3 s3://lake/shop/ at " + server.endpoint() + " (3 objects); note: skipped 1"
                + " object that are not Parquet, CSV or JSON (e.g. shop/README.md)");
        try (var left = Files.list(downloads)) {
            assertThat(left.toList()).as("downloads are deleted after the load").isEmpty();
        }
    }

    @Test
    void a_key_loads_that_object_only_and_a_prefix_never_matches_a_longer_name(@TempDir Path downloads) throws Exception {
        Source one = source("s3://lake/shop/customers.csv", downloads);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            one.load(duck, "main", Progress.NONE);
            assertThat(row(duck, "SELECT count(*) FROM duckdb_tables()")).containsExactly("1");
        }
        Source shop = source("s3://lake/shop", downloads);
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            shop.load(duck, "main", Progress.NONE);
            assertThat(row(duck, "SELECT count(*) FILTER (WHERE table_name = 'extra'), count(*) FROM duckdb_tables()"))
                    .containsExactly("0", "3");
        }
    }

    @Test
    void fingerprint_follows_the_objects_without_downloading_them(@TempDir Path downloads) throws Exception {
        String before = source("s3://lake/shop2/", downloads).fingerprint();
        assertThat(source("s3://lake/shop2/", downloads).fingerprint()).isEqualTo(before);
        server.put(s3, "lake", "shop2/extra.csv", "x\n1\n2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(source("s3://lake/shop2/", downloads).fingerprint()).isNotEqualTo(before);
        try (var left = Files.list(downloads)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void progress_reports_bytes_downloaded_of_the_total(@TempDir Path downloads) throws Exception {
        List<String> stages = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            source("s3://lake/shop2/", downloads).load(duck, "main", (stage, done, total) -> stages.add(stage + " " + done + "/" + total));
        }
        assertThat(stages).first().asString().startsWith("downloading s3://lake/shop2/extra.csv 0/");
        assertThat(stages).anySatisfy(st -> assertThat(st).startsWith("loading extra.csv"));
    }

    @Test
    void unknown_bucket_empty_prefix_and_unreachable_endpoint_are_one_line(@TempDir Path downloads) throws Exception {
        assertThatThrownBy(() -> source("s3://nope/x/", downloads).fingerprint())
                .hasMessage("S3 s3://nope/x/: bucket 'nope' does not exist");
        assertThatThrownBy(() -> source("s3://lake/nothing/", downloads).fingerprint())
                .hasMessage("S3 s3://lake/nothing/: no Parquet, CSV or JSON objects under it");
        int port = freePort();
        Map<String, String> o = options(downloads);
        o.put("endpoint", "http://127.0.0.1:" + port);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> NetworkSources.open("s3://lake/shop/", o, server.env()).orElseThrow().fingerprint())
                .hasMessageStartingWith("S3 s3://lake/shop/: cannot reach http://127.0.0.1:" + port + " (")
                .hasMessageNotContaining(TestS3.SECRET_KEY);
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
    }

    @Test
    void objects_that_would_share_a_table_name_are_refused_by_key(@TempDir Path downloads) {
        assertThatThrownBy(() -> source("s3://lake/clash/", downloads).load(null, "main", Progress.NONE))
                .hasMessage("S3 s3://lake/clash/: objects clash/a/t.csv and clash/b/t.csv would both load as table 't':"
                        + " name a narrower prefix, or load them as two sources");
    }

    @Test
    void a_corrupt_object_is_named_by_its_key_and_nothing_is_published(@TempDir Path home, @TempDir Path downloads)
            throws Exception {
        Source s = source("s3://lake/broken/", downloads);
        DatasetBuilder b = new DatasetBuilder() {
            @Override public String fingerprint() throws Exception { return s.fingerprint(); }
            @Override public String describe() { return s.describe(); }
            @Override public void build(Connection db, Progress p) throws Exception { s.load(db, "main", p); }
        };
        DatasetStore store = new DatasetStore(home);
        assertThatThrownBy(() -> store.ensure("broken", b, Progress.NONE))
                .hasMessageStartingWith("S3 s3://lake/broken/: File s3://lake/broken/bad.parquet could not be read as Parquet: ");
        assertThat(store.find("broken")).isEmpty();
        try (var left = Files.list(downloads)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void downloads_left_by_a_killed_load_are_removed_by_the_next(@TempDir Path downloads) throws Exception {
        Path stale = Files.createDirectories(downloads.resolve(S3Source.DOWNLOAD_PREFIX + Long.MAX_VALUE + "-1/0"));
        Files.writeString(stale.resolve("half.csv"), "x\n");
        Path live = Files.createDirectories(downloads.resolve(S3Source.DOWNLOAD_PREFIX + ProcessHandle.current().pid() + "-2"));
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            source("s3://lake/shop2/", downloads).load(duck, "main", Progress.NONE);
        }
        try (var left = Files.list(downloads)) {
            assertThat(left.toList()).containsExactly(live);
        }
    }

    @Test
    void named_key_variables_must_be_set() {
        Map<String, String> o = Map.of("endpoint", server.endpoint(), "access_key_env", "LAKE_KEY",
                "secret_key_env", "LAKE_SECRET");
        assertThatThrownBy(() -> NetworkSources.open("s3://lake/shop/", o, Map.of("LAKE_KEY", "k")))
                .hasMessage("S3 s3://lake/shop/: environment variable LAKE_SECRET (secret_key_env) is not set");
    }
}
