package dev.sift.data.source;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryWriter;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.sift.data.source.DatabaseFileSourcesTest.columns;
import static dev.sift.data.source.DatabaseFileSourcesTest.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MongoDB dumps read without a server: BSON types mapped to columns, nested values as JSON, bad dumps refused. */
class MongoDumpSourceTest {
    @TempDir
    Path tmp;
    DatasetStore store;
    Path dump;

    @BeforeEach
    void setUp() throws Exception {
        store = new DatasetStore(tmp.resolve("store"));
        dump = Files.createDirectories(tmp.resolve("dump/shop"));
    }

    static byte[] bson(List<BsonDocument> docs) {
        BasicOutputBuffer buf = new BasicOutputBuffer();
        for (BsonDocument d : docs) {
            try (BsonBinaryWriter w = new BsonBinaryWriter(buf)) {
                new BsonDocumentCodec().encode(w, d, EncoderContext.builder().build());
            }
        }
        return buf.toByteArray();
    }

    private Dataset load() throws Exception {
        return store.load("shop", DatasetSources.of(List.of(dump.toString()), tmp, Map.of()), false, false, Progress.NONE);
    }

    @Test
    void bson_types_become_columns_and_nested_values_json() throws Exception {
        ObjectId id1 = new ObjectId("6859a000fe8b31cd7362e2ab");
        UUID uuid = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        BsonDocument a = new BsonDocument("_id", new BsonObjectId(id1))
                .append("name", new BsonString("Acme"))
                .append("visits", new BsonInt32(3))
                .append("total", new BsonInt64(5_000_000_000L))
                .append("price", new BsonDecimal128(new Decimal128(new BigDecimal("12.50"))))
                .append("score", new BsonDouble(4.5))
                .append("open", BsonBoolean.TRUE)
                .append("since", new BsonDateTime(1_700_000_000_000L))
                .append("key", new BsonBinary(uuid))
                .append("raw", new BsonBinary(new byte[] {1, 2, 3}))
                .append("attributes", new BsonDocument("WiFi", new BsonString("free"))
                        .append("parking", new BsonDocument("lot", BsonBoolean.TRUE)))
                .append("tags", new BsonArray(List.of(new BsonString("x"), new BsonString("y"))))
                .append("rating", new BsonInt32(5))
                .append("extra", new BsonString("text"));
        BsonDocument b = new BsonDocument("_id", new BsonObjectId(new ObjectId("6859a000fe8b31cd7362e2ac")))
                .append("name", new BsonString("Bolt"))
                .append("visits", new BsonInt32(1))
                .append("total", new BsonInt32(7))
                .append("price", new BsonDecimal128(new Decimal128(new BigDecimal("3"))))
                .append("score", new BsonInt32(2))
                .append("open", BsonNull.VALUE)
                .append("attributes", BsonNull.VALUE)
                .append("rating", new BsonString("five"))
                .append("extra", new BsonDocument("k", new BsonInt32(1)));
        Files.write(dump.resolve("business.bson"), bson(List.of(a, b)));
        Files.writeString(dump.resolve("business.metadata.json"), "{\"collectionName\":\"business\",\"indexes\":[]}");

        Dataset ds = load();
        assertThat(ds.tables()).extracting(Dataset.TableSummary::name, Dataset.TableSummary::rows)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("business", 2L));
        assertThat(columns(ds, "business")).containsExactly("_id VARCHAR", "name VARCHAR", "visits INTEGER",
                "total BIGINT", "price DECIMAL(38,2)", "score DOUBLE", "open BOOLEAN", "since TIMESTAMP WITH TIME ZONE",
                "key UUID", "raw BLOB", "attributes JSON", "tags JSON", "rating VARCHAR", "extra JSON");
        assertThat(query(ds.file(), "SELECT _id, total, price, score, open, epoch_ms(since), key, hex(raw),"
                + " attributes->>'WiFi', attributes->'parking'->>'lot', tags->>1, json_array_length(tags), rating, extra"
                + " FROM business ORDER BY name")).containsExactly(
                Arrays.asList("6859a000fe8b31cd7362e2ab", "5000000000", "12.50", "4.5", "true", "1700000000000",
                        uuid.toString(), "010203", "free", "true", "y", "2", "5", "\"text\""),
                Arrays.asList("6859a000fe8b31cd7362e2ac", "7", "3.00", "2.0", null, null, null, null, null, null, null,
                        null, "five", "{\"k\":1}"));
    }

    @Test
    void gzipped_dumps_and_collections_without_metadata_load_by_file_name() throws Exception {
        byte[] raw = bson(List.of(new BsonDocument("n", new BsonInt32(1)), new BsonDocument("n", new BsonInt32(2))));
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(dump.resolve("events.bson.gz")))) {
            out.write(raw);
        }
        Dataset ds = load();
        assertThat(query(ds.file(), "SELECT sum(n) FROM events")).containsExactly(List.of("3"));
    }

    @Test
    void a_folder_without_bson_files_is_refused() throws Exception {
        Files.writeString(dump.resolve("readme.txt"), "nothing here");
        assertThatThrownBy(this::load).isInstanceOf(IllegalArgumentException.class).hasMessage("Folder " + dump
                + " holds no .bson files: give the folder of one database of a MongoDB dump (mongodump writes"
                + " <database>/<collection>.bson)");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void a_truncated_bson_file_names_the_document_and_publishes_nothing() throws Exception {
        byte[] raw = bson(List.of(new BsonDocument("n", new BsonInt32(1)), new BsonDocument("s", new BsonString("abc"))));
        Files.write(dump.resolve("t.bson"), Arrays.copyOf(raw, raw.length - 3));
        assertThatThrownBy(this::load).isInstanceOf(IllegalArgumentException.class).hasMessage("BSON file "
                + dump.resolve("t.bson") + " is corrupt at document 2 (byte 12): the file ends inside the document");
        assertThat(store.list()).isEmpty();
        assertThat(Files.list(tmp.resolve("store")).toList()).isEmpty();
    }

    @Test
    void garbage_inside_a_bson_document_is_refused_in_one_line() throws Exception {
        byte[] raw = bson(List.of(new BsonDocument("n", new BsonInt32(1))));
        raw[4] = 0x77; // an element type BSON does not have
        Files.write(dump.resolve("t.bson"), raw);
        assertThatThrownBy(this::load).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("BSON file " + dump.resolve("t.bson") + " is corrupt at document 1 (byte 0): ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void field_names_differing_only_in_case_get_distinct_columns() throws Exception {
        Files.write(dump.resolve("t.bson"), bson(List.of(new BsonDocument("Name", new BsonString("a"))
                .append("name", new BsonString("b")))));
        Dataset ds = load();
        assertThat(columns(ds, "t")).containsExactly("Name VARCHAR", "name_2 VARCHAR");
    }
}
