package dev.sift.data.source;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ReadPreference;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import dev.sift.data.Progress;
import org.bson.BsonDocument;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.MessageDigest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A live MongoDB database through the official Java driver: {@code mongodb://user@host:port/db}; every collection
 * (and view) becomes a table named after it, with the same type mapping as a dump ({@link BsonTables}: nested
 * documents and arrays as JSON, ObjectId as text, Date as TIMESTAMP WITH TIME ZONE, Decimal128 as DECIMAL). Each
 * collection is read twice with a cursor of {@value #BATCH} documents (once for the field types, once for the
 * rows), so memory never holds a collection. The fingerprint reads the collection names, their document counts
 * and the largest {@code _id} of each. Reads prefer a secondary; nothing is written.
 */
final class MongoSource implements Source {
    static final String VERSION = "mongo-live-1";
    static final int BATCH = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(MongoSource.class);

    private final SourceUrl url;
    private final String database;
    private final Credentials credentials;
    private final int connectTimeout;
    private final List<String> notes = new ArrayList<>();
    private int loaded = -1;

    MongoSource(SourceUrl url, Map<String, String> options, Map<String, String> env) {
        this.url = url;
        this.database = url.path().replaceAll("/+$", "");
        if (database.isBlank()) {
            throw new IllegalArgumentException("MongoDB " + url.masked()
                    + ": no database named: write mongodb://host:port/DATABASE");
        }
        this.credentials = Credentials.resolve(url, options, env, null);
        String timeout = options.getOrDefault(JdbcSource.CONNECT_TIMEOUT, url.query().get(JdbcSource.CONNECT_TIMEOUT));
        int t = JdbcSource.DEFAULT_CONNECT_TIMEOUT_SECONDS;
        if (timeout != null) {
            try {
                t = Integer.parseInt(timeout.trim());
            } catch (NumberFormatException e) {
                t = -1;
            }
            if (t < 1 || t > 600) {
                throw new IllegalArgumentException("MongoDB " + url.masked() + ": " + JdbcSource.CONNECT_TIMEOUT + " '"
                        + timeout + "' is not a number of seconds from 1 to 600");
            }
        }
        this.connectTimeout = t;
    }

    private MongoClient client() {
        // the connection string without user and password: the credential is set apart, from Credentials
        StringBuilder cs = new StringBuilder("mongodb://").append(url.hosts()).append('/').append(database);
        List<String> query = new ArrayList<>();
        url.query().forEach((k, v) -> {
            if (!k.equals(JdbcSource.CONNECT_TIMEOUT) && !k.equalsIgnoreCase("password")) {
                query.add(k + "=" + v);
            }
        });
        if (!query.isEmpty()) {
            cs.append('?').append(String.join("&", query));
        }
        MongoClientSettings.Builder b = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(cs.toString()))
                .readPreference(ReadPreference.secondaryPreferred())
                .applyToClusterSettings(c -> c.serverSelectionTimeout(connectTimeout, TimeUnit.SECONDS))
                .applyToSocketSettings(s -> s.connectTimeout(connectTimeout, TimeUnit.SECONDS));
        if (credentials.user().isPresent()) {
            String authDb = url.query().getOrDefault("authSource", database);
            b.credential(MongoCredential.createCredential(credentials.user().get(), authDb,
                    credentials.password().orElse("").toCharArray()));
        }
        return MongoClients.create(b.build());
    }

    /** The collections to load, sorted; MongoDB's own {@code system.*} collections are left out. */
    private List<String> collections(MongoDatabase db) {
        List<String> out = new ArrayList<>();
        for (String name : db.listCollectionNames()) {
            if (!name.startsWith("system.")) {
                out.add(name);
            }
        }
        out.sort(String::compareTo);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("MongoDB " + url.masked() + ": database '" + database
                    + "' does not exist or has no collections");
        }
        return out;
    }

    @Override
    public String fingerprint() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        FileSupport.hashText(sha, VERSION);
        FileSupport.hashText(sha, url.hosts() + "/" + database);
        try (MongoClient client = client()) {
            MongoDatabase db = client.getDatabase(database);
            for (String name : collections(db)) {
                MongoCollection<BsonDocument> c = db.getCollection(name, BsonDocument.class);
                FileSupport.hashText(sha, name + " n=" + c.countDocuments());
                BsonDocument last = c.find().projection(new Document("_id", 1)).sort(new Document("_id", -1))
                        .limit(1).first();
                FileSupport.hashText(sha, "max _id=" + (last == null ? "none" : last.get("_id")));
            }
        } catch (MongoException e) {
            throw failure(e);
        }
        return FileSupport.hex(sha.digest());
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("MongoDB ").append(url.masked());
        if (loaded >= 0) {
            sb.append(" (").append(loaded).append(loaded == 1 ? " collection)" : " collections)");
        }
        if (!notes.isEmpty()) {
            sb.append("; note: ").append(String.join("; ", notes));
        }
        return sb.toString();
    }

    @Override
    public void load(Connection duck, String schema, Progress progress) throws Exception {
        notes.clear();
        try (MongoClient client = client()) {
            MongoDatabase db = client.getDatabase(database);
            List<String> names = collections(db);
            Map<String, String> tables = new LinkedHashMap<>();
            for (String name : names) {
                String table = name.replace('.', '_');
                String clash = tables.putIfAbsent(table, name);
                if (clash != null) {
                    throw new IllegalArgumentException("MongoDB " + url.masked() + ": collections " + clash + " and "
                            + name + " would both load as table '" + table + "'");
                }
            }
            for (Map.Entry<String, String> t : tables.entrySet()) {
                MongoCollection<BsonDocument> c = db.getCollection(t.getValue(), BsonDocument.class);
                List<String> n = BsonTables.load(duck, schema, t.getKey(), t.getValue(), sink -> {
                    try (MongoCursor<BsonDocument> cursor = c.find().batchSize(BATCH).iterator()) {
                        while (cursor.hasNext()) {
                            sink.accept(cursor.next());
                        }
                    }
                }, progress);
                n.forEach(note -> LOG.warn("MongoDB {}: {}", url.masked(), note));
                notes.addAll(n);
            }
            loaded = tables.size();
        } catch (MongoException e) {
            throw failure(e);
        }
    }

    /** One line for a driver failure, naming the server with its password masked; the cause is not kept. */
    private IllegalArgumentException failure(MongoException e) {
        String where = "MongoDB " + url.masked() + ": ";
        String message;
        if (e instanceof MongoSecurityException) {
            message = where + "login failed for user '" + credentials.user().orElse("(none)") + "' (password: "
                    + credentials.from() + ")";
        } else if (e instanceof MongoTimeoutException) {
            message = where + "cannot connect to " + url.hosts() + " (no server answered within " + connectTimeout + " s)";
        } else if (e instanceof MongoCommandException c && (c.getErrorCode() == 13 || c.getErrorCode() == 18)) {
            message = where + "permission denied: " + c.getErrorMessage();
        } else {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            message = where + m.lines().findFirst().orElse(m);
        }
        return new IllegalArgumentException(credentials.redact(FileSupport.clip(message)));
    }
}
