package dev.sift.data.source;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.sift.data.Progress;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static dev.sift.data.source.SourceTestSupport.freePort;
import static dev.sift.data.source.SourceTestSupport.row;
import static dev.sift.data.source.SourceTestSupport.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against an in-memory server that speaks MongoDB's wire protocol, through the official driver. */
class MongoSourceTest {
    private static MongoServer server;
    private static MongoClient client;
    private static String hostPort;

    @BeforeAll
    static void startServer() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        hostPort = "127.0.0.1:" + server.getLocalAddress().getPort();
        client = MongoClients.create("mongodb://" + hostPort);
        MongoDatabase shop = client.getDatabase("shop");
        List<Document> businesses = new ArrayList<>();
        for (int i = 1; i <= 3000; i++) {
            Document d = new Document("_id", new ObjectId(new Date(1_700_000_000_000L + i * 1000L), i))
                    .append("name", "b" + i).append("stars", i % 5 + 0.5).append("reviews", i)
                    .append("price", new Decimal128(new BigDecimal(i + ".25")))
                    .append("opened", new Date(1_600_000_000_000L + i * 86_400_000L))
                    .append("attributes", new Document("wifi", i % 2 == 0).append("parking", new Document("lot", true)))
                    .append("tags", List.of("t" + i % 3, "x"));
            if (i == 7) {
                d.append("zip", "02139");
            } else if (i % 10 == 0) {
                d.append("zip", 94105);
            }
            businesses.add(d);
        }
        shop.getCollection("business").insertMany(businesses);
        shop.getCollection("tip.archive").insertOne(new Document("text", "nice").append("likes", 3));
    }

    @AfterAll
    static void stopServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }

    private static Source source(String db) {
        return NetworkSources.open("mongodb://" + hostPort + "/" + db, Map.of(), Map.of()).orElseThrow();
    }

    @Test
    void one_dataset_from_a_live_server_and_a_file_at_once_is_queried_across_both(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path ratings = java.nio.file.Files.writeString(dir.resolve("ratings.csv"),
                "name,rating\nb1,5\nb2,3\nb3,4\n");
        DatasetSources sources = DatasetSources.of(List.of("mongodb://" + hostPort + "/shop", ratings.toString()), dir, Map.of());
        dev.sift.data.DatasetStore store = new dev.sift.data.DatasetStore(dir.resolve("datasets"));
        dev.sift.data.Dataset ds = store.load("mixed", sources, false, false, Progress.NONE);
        assertThat(ds.tables()).extracting(dev.sift.data.Dataset.TableSummary::name)
                .contains("shop.business", "ratings.ratings");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + ds.file());
             Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT b.name, b.reviews, r.rating FROM shop.business b"
                     + " JOIN ratings.ratings r ON r.name = b.name ORDER BY b.name")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + ":" + rs.getLong(2) + ":" + rs.getLong(3));
            }
            assertThat(rows).containsExactly("b1:1:5", "b2:2:3", "b3:3:4");
        }
    }

    @Test
    void loads_every_collection_with_nested_documents_queryable_as_json() throws Exception {
        Source s = source("shop");
        s.fingerprint();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement st = duck.createStatement()) {
            s.load(duck, "main", Progress.NONE);
            st.execute("SET TimeZone = 'UTC'");
            assertThat(row(duck, "SELECT count(*), sum(reviews), max(stars), sum(price) FROM business"))
                    .containsExactly("3000", "4501500", "4.5", "4502250.00");
            assertThat(row(duck, "SELECT count(*) FROM business WHERE (attributes->>'wifi') = 'true'"
                    + " AND (attributes->'parking'->>'lot') = 'true'")).containsExactly("1500");
            assertThat(row(duck, "SELECT (tags->>0), opened::VARCHAR, length(_id) FROM business WHERE name = 'b1'"))
                    .containsExactly("t1", "2020-09-14 12:26:40+00", "24");
            assertThat(row(duck, "SELECT typeof(zip), count(zip) FROM business GROUP BY 1")).containsExactly("VARCHAR", "301");
            assertThat(row(duck, "SELECT text, likes FROM tip_archive")).containsExactly("nice", "3");
        }
        assertThat(s.describe()).startsWith("MongoDB mongodb://" + hostPort + "/shop (2 collections); note: ")
                .contains("zip");
    }

    @Test
    void fingerprint_changes_when_documents_are_added() throws Exception {
        String before = source("shop").fingerprint();
        assertThat(source("shop").fingerprint()).isEqualTo(before);
        client.getDatabase("shop").getCollection("tip.archive").insertOne(new Document("text", "more"));
        assertThat(source("shop").fingerprint()).isNotEqualTo(before);
        client.getDatabase("shop").getCollection("tip.archive").deleteOne(new Document("text", "more"));
    }

    @Test
    void unknown_database_and_unreachable_server_are_one_line() throws Exception {
        assertThatThrownBy(() -> source("nope").fingerprint())
                .hasMessage("MongoDB mongodb://" + hostPort + "/nope: database 'nope' does not exist or has no collections");
        int port = freePort();
        String u = "mongodb://reader:hunter2@127.0.0.1:" + port + "/shop?connect_timeout=1";
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> NetworkSources.open(u, Map.of(), Map.of()).orElseThrow().fingerprint())
                .hasMessage("MongoDB mongodb://reader:***@127.0.0.1:" + port + "/shop?connect_timeout=1: cannot connect"
                        + " to 127.0.0.1:" + port + " (no server answered within 1 s)");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(8);
    }
}
