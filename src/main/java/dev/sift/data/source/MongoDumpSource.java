package dev.sift.data.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.Progress;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * A MongoDB dump folder read without a server: each {@code <collection>.bson} (or {@code .bson.gz}, from
 * {@code mongodump --gzip}) becomes one table named after the collection (its {@code .metadata.json} gives the
 * name when present). Documents are decoded with the official BSON library and loaded by {@link BsonTables}.
 */
public final class MongoDumpSource implements Source {
    static final String VERSION = "mongo-dump-1";
    private static final Logger LOG = LoggerFactory.getLogger(MongoDumpSource.class);
    /** MongoDB refuses documents over 16 MiB; a length far beyond that is a corrupt file, not a big document. */
    private static final int MAX_DOCUMENT = 64 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One collection file and the table it loads as. */
    record Collection(Path file, String name, String table) { }

    private final Path folder;

    public MongoDumpSource(Path folder) {
        this.folder = folder.toAbsolutePath().normalize();
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        for (Collection c : collections()) {
            FileSupport.hashText(sha, c.file().getFileName() + "=" + c.table());
            FileSupport.hash(sha, c.file());
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        return "MongoDB dump " + folder;
    }

    @Override
    public void load(Connection db, String schema, Progress progress) throws Exception {
        for (Collection c : collections()) {
            List<String> notes = BsonTables.load(db, schema, c.table(), c.name(), sink -> read(c.file(), sink), progress);
            notes.forEach(n -> LOG.warn("{}", n));
        }
    }

    /** The collections of the dump, checked before any work: the folder must hold .bson files. */
    List<Collection> collections() throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException("MongoDB dump folder not found: " + folder);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(folder)) {
            files = s.filter(p -> isBson(p.getFileName().toString())).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("Folder " + folder + " holds no .bson files: give the folder of one"
                    + " database of a MongoDB dump (mongodump writes <database>/<collection>.bson)");
        }
        List<Collection> out = new ArrayList<>();
        for (Path f : files) {
            FileSupport.requireRegular(f);
            String file = f.getFileName().toString();
            String stem = file.substring(0, file.length() - (file.endsWith(".gz") ? 8 : 5));
            if (stem.startsWith("system.")) {
                continue; // MongoDB's own collections (views, users), not data
            }
            String name = collectionName(folder.resolve(stem + ".metadata.json"), stem);
            out.add(new Collection(f, name, name.replace('.', '_')));
        }
        return out;
    }

    static boolean isBson(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(".bson") || lower.endsWith(".bson.gz");
    }

    private static String collectionName(Path metadata, String stem) {
        if (!Files.isRegularFile(metadata)) {
            return stem;
        }
        try {
            JsonNode name = JSON.readTree(metadata.toFile()).path("collectionName");
            return name.isTextual() && !name.asText().isBlank() ? name.asText() : stem;
        } catch (IOException e) {
            throw new IllegalArgumentException("MongoDB metadata file " + metadata + " is not valid JSON: "
                    + FileSupport.clip(String.valueOf(e.getMessage()).lines().findFirst().orElse("")), e);
        }
    }

    /** Streams the documents of one .bson file: each is a little-endian int32 length, then that many bytes. */
    static void read(Path file, BsonTables.Sink sink) throws Exception {
        BsonDocumentCodec codec = new BsonDocumentCodec();
        DecoderContext context = DecoderContext.builder().build();
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = new BufferedInputStream(file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw,
                     1 << 16)) {
            long offset = 0;
            for (long n = 1; ; n++) {
                byte[] head = in.readNBytes(4);
                if (head.length == 0) {
                    return;
                }
                int length = head.length < 4 ? -1 : (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16
                        | (head[3] & 0xff) << 24;
                if (length < 5 || length > MAX_DOCUMENT) {
                    throw corrupt(file, n, offset, "a document length of " + (head.length < 4 ? "fewer than 4 bytes"
                            : length + " bytes") + " is impossible");
                }
                byte[] doc = new byte[length];
                System.arraycopy(head, 0, doc, 0, 4);
                int got = in.readNBytes(doc, 4, length - 4);
                if (got < length - 4) {
                    throw corrupt(file, n, offset, "the file ends inside the document");
                }
                BsonDocument document;
                try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(doc))) {
                    document = codec.decode(reader, context);
                } catch (RuntimeException e) { // BsonSerializationException, BSONException, buffer underflow
                    throw corrupt(file, n, offset, String.valueOf(e.getMessage()));
                }
                sink.accept(document);
                offset += length;
            }
        } catch (java.util.zip.ZipException e) {
            throw new IllegalArgumentException("BSON file " + file + " is not valid gzip: " + e.getMessage(), e);
        }
    }

    private static IllegalArgumentException corrupt(Path file, long n, long offset, String why) {
        return new IllegalArgumentException("BSON file " + file + " is corrupt at document " + n + " (byte " + offset
                + "): " + FileSupport.clip(why));
    }
}
