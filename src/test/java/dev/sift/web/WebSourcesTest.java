package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** Uploads of database files and zipped dumps, the Connect API, and names that exist (409 unless replace=true). */
class WebSourcesTest {
    @TempDir
    Path home;
    @TempDir
    Path work;

    private dev.sift.data.DatasetStore store() {
        return new dev.sift.data.DatasetStore(home.resolve("datasets"));
    }

    private static HttpResponse<String> upload(WebFixture w, String name, String filename, byte[] content, boolean replace)
            throws Exception {
        String boundary = "----sift" + System.nanoTime();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n" + name + "\r\n")
                .getBytes(StandardCharsets.UTF_8));
        if (replace) {
            body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"replace\"\r\n\r\ntrue\r\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + filename
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.write(content);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return w.http.send(w.req("/api/datasets").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());
    }

    private byte[] sqlite(String rows) throws Exception {
        Path db = Files.createTempFile(work, "crm", ".sqlite");
        Files.delete(db);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE client (id INTEGER PRIMARY KEY, name TEXT)");
            st.execute("INSERT INTO client VALUES " + rows);
        }
        return Files.readAllBytes(db);
    }

    private static byte[] zippedDump() throws Exception {
        ByteArrayOutputStream bson = new ByteArrayOutputStream();
        for (String doc : List.of("{\"_id\": 1, \"name\": \"Ana\", \"address\": {\"city\": \"Brno\"}}",
                "{\"_id\": 2, \"name\": \"Ben\", \"address\": {\"city\": \"Praha\"}}")) {
            RawBsonDocument raw = RawBsonDocument.parse(doc);
            bson.write(raw.getByteBuffer().array(), 0, raw.getByteBuffer().remaining());
        }
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(zip)) {
            z.putNextEntry(new ZipEntry("dump/crm/users.bson"));
            z.write(bson.toByteArray());
            z.putNextEntry(new ZipEntry("dump/crm/users.metadata.json"));
            z.write("{\"options\": {}, \"indexes\": []}".getBytes(StandardCharsets.UTF_8));
            z.putNextEntry(new ZipEntry("__MACOSX/dump/._users.bson"));
            z.write(new byte[] {1, 2, 3});
        }
        return zip.toByteArray();
    }

    @Test
    void a_sqlite_upload_builds_a_dataset_and_an_existing_name_is_409_unless_replace_is_asked() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> first = upload(w, "crm", "crm.sqlite", sqlite("(1, 'Ana'), (2, 'Ben')"), false);
            assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
            assertThat(json(first).get("tables").get(0).get("name").asText()).isEqualTo("client");
            assertThat(json(first).get("tables").get(0).get("rows").asLong()).isEqualTo(2);
            assertThat(json(first).get("last_used").asBoolean()).as("an upload is the dataset the app opens on next").isTrue();
            assertThat(dev.sift.data.LastDataset.under(home).read()).get().extracting(dev.sift.data.LastDataset.Entry::dataset)
                    .isEqualTo("crm");

            HttpResponse<String> again = upload(w, "crm", "crm.sqlite", sqlite("(1, 'Ana'), (2, 'Ben'), (3, 'Cy')"), false);
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(json(again).get("error").asText())
                    .isEqualTo("Dataset 'crm' already exists: choose another name, or send replace=true to replace it.");
            assertThat(store().get("crm").tables().get(0).rows()).isEqualTo(2); // untouched

            HttpResponse<String> replaced = upload(w, "crm", "crm.sqlite", sqlite("(1, 'Ana'), (2, 'Ben'), (3, 'Cy')"), true);
            assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(201);
            assertThat(json(replaced).get("tables").get(0).get("rows").asLong()).isEqualTo(3);
        }
    }

    @Test
    void the_demo_dataset_is_never_replaced_by_an_upload_even_when_replace_is_asked() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            long loans = store().get("bank").rows("loan");
            HttpResponse<String> r = upload(w, "bank", "loan.csv", "loan_id\n1\n".getBytes(StandardCharsets.UTF_8), true);
            assertThat(r.statusCode()).isEqualTo(409);
            assertThat(json(r).get("error").asText())
                    .isEqualTo("Dataset 'bank' is a demo dataset and is never replaced: choose another name.");
            assertThat(store().get("bank").rows("loan")).isEqualTo(loans);
        }
    }

    @Test
    void a_zipped_mongodb_dump_builds_a_dataset_with_nested_documents_as_json() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> r = upload(w, "people", "crm.zip", zippedDump(), false);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            JsonNode table = json(r).get("tables").get(0);
            assertThat(table.get("name").asText()).isEqualTo("users");
            assertThat(table.get("rows").asLong()).isEqualTo(2);
            try (var ws = dev.sift.data.Workspace.open(store().get("people"), dev.sift.data.Workspace.Limits.defaults())) {
                assertThat(ws.query("SELECT address->>'city' FROM users ORDER BY _id").rows())
                        .containsExactly(List.of("Brno"), List.of("Praha"));
            }
            // the upload and its unpacked folder are gone; only the running server's (empty) multipart folder stays
            try (var left = Files.list(home.resolve("tmp"))) {
                for (java.nio.file.Path p : left.toList()) {
                    assertThat(p.getFileName().toString()).startsWith("sift-multipart-");
                    try (var inside = Files.list(p)) {
                        assertThat(inside.toList()).as("left in " + p).isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void a_zip_that_is_not_a_dump_is_refused_in_one_line() throws Exception {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(zip)) {
            z.putNextEntry(new ZipEntry("notes.txt"));
            z.write("hello".getBytes(StandardCharsets.UTF_8));
        }
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> r = upload(w, "notes", "notes.zip", zip.toByteArray(), false);
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(json(r).get("error").asText()).contains("no .bson");
            assertThat(store().find("notes")).isEmpty();
        }
    }

    @Test
    void connect_takes_only_urls_the_operator_allows() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            HttpResponse<String> refused = w.post("/api/datasets/connect",
                    "{\"name\": \"shop\", \"source\": \"postgresql://db.internal/shop\"}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(json(refused).get("error").asText()).isEqualTo("Source postgresql://db.internal/shop is not under a"
                    + " URL prefix the operator allows (none are set). Allowed sources are set in SIFT_ALLOWED_SOURCES.");
            HttpResponse<String> path = w.post("/api/datasets/connect", "{\"name\": \"x\", \"source\": \"/etc/passwd\"}");
            assertThat(path.statusCode()).isEqualTo(400);
            assertThat(json(path).get("error").asText()).startsWith("Give 'source' as a URL");
            HttpResponse<String> bank = w.post("/api/datasets/connect", "{\"name\": \"bank\", \"source\": \"s3://x/y\"}");
            assertThat(bank.statusCode()).isEqualTo(403);
        }
    }

    @Test
    void connect_builds_a_dataset_from_an_allowed_url_and_an_existing_name_is_409() throws Exception {
        de.bwaldvogel.mongo.MongoServer server = new de.bwaldvogel.mongo.MongoServer(
                new de.bwaldvogel.mongo.backend.memory.MemoryBackend());
        server.bind("127.0.0.1", 0);
        String hostPort = "127.0.0.1:" + server.getLocalAddress().getPort();
        try (com.mongodb.client.MongoClient client = com.mongodb.client.MongoClients.create("mongodb://" + hostPort)) {
            client.getDatabase("shop").getCollection("orders").insertMany(List.of(
                    new org.bson.Document("_id", 1).append("total", 10.5), new org.bson.Document("_id", 2).append("total", 4.5)));
            var allowed = dev.sift.data.source.AllowedSources.of("mongodb://" + hostPort + "/shop", home, work, java.util.Map.of());
            try (WebFixture w = new WebFixture(home, null, WebServer.Options.defaults(), allowed)) {
                String body = "{\"name\": \"shop\", \"source\": \"mongodb://" + hostPort + "/shop\"}";
                HttpResponse<String> r = w.post("/api/datasets/connect", body);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                assertThat(json(r).get("tables").get(0).get("rows").asLong()).isEqualTo(2);
                HttpResponse<String> taken = w.post("/api/datasets/connect", "{\"name\": \"shop\", \"source\": \"mongodb://"
                        + hostPort + "/shop?schema=x\"}");
                assertThat(taken.statusCode()).isEqualTo(409);
                assertThat(json(taken).get("error").asText()).contains("send replace=true");
                HttpResponse<String> other = w.post("/api/datasets/connect", "{\"name\": \"other\", \"source\": \"mongodb://"
                        + hostPort + "/admin\"}");
                assertThat(other.statusCode()).isEqualTo(403);
            }
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void a_source_a_turn_connects_is_the_dataset_the_next_turn_of_the_web_session_queries() throws Exception {
        Path orders = Files.writeString(work.resolve("orders.csv"), "order_id,amount\n1,10.5\n2,20\n3,4.5\n");
        dev.sift.llm.ScriptedLlm llm = new dev.sift.llm.ScriptedLlm(
                "{\"thought\":\"the user named a file\",\"tool\":\"connect_source\",\"args\":{\"source\":"
                        + WebFixture.JSON.writeValueAsString(orders.toString()) + "}}",
                "{\"thought\":\"done\",\"final_answer\":\"Connected the orders file.\"}",
                "{\"turn\":\"new\",\"question\":\"What do the orders total?\",\"references\":[]}", // the turn's resolution
                "{\"thought\":\"sum\",\"tool\":\"run_sql\",\"args\":{\"sql\":\"SELECT sum(amount) AS total FROM orders\"}}",
                "{\"thought\":\"done\",\"final_answer\":\"The orders total 35.\"}");
        var allowed = dev.sift.data.source.AllowedSources.of(work.toString(), home, work, java.util.Map.of());
        try (WebFixture w = new WebFixture(home, llm, WebServer.Options.defaults(), allowed)) {
            String session = w.newSession();
            List<WebFixture.Event> first = w.events(w.ask(session, "Look at " + orders));
            JsonNode connected = first.stream().filter(e -> e.type().equals("result")).findFirst().orElseThrow().data()
                    .get("result");
            assertThat(connected.get("dataset").asText()).isEqualTo("orders");
            assertThat(json(w.get("/api/sessions/" + session)).get("dataset").asText()).isEqualTo("orders");

            List<WebFixture.Event> second = w.events(w.ask(session, "What do the orders total?"));
            JsonNode total = second.stream().filter(e -> e.type().equals("result")).findFirst().orElseThrow().data()
                    .get("result");
            assertThat(total.get("answer").asText()).isEqualTo("The orders total 35.");
            assertThat(llm.requests().get(2).messages().get(0).content()).contains("<<<TABLES (the dataset's table names, untrusted)\norders\nTABLES>>>");
            assertThat(total.get("evidence").get(0).get("rows").get(0).get(0).asDouble()).isEqualTo(35.0);
            assertThat(store().find("orders")).isPresent();
        }
    }
}
