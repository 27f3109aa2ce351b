package dev.sift.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.data.AtomicFiles;
import dev.sift.data.Dataset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The automatic knowledge graph of a dataset ({@link KgBuilder#build}), persisted beside the dataset as
 * {@code <store>/<name>.kg-cache.json} so that later processes skip the scans over the data.
 *
 * <p>Contract: a cached graph is used only when the file names the dataset's content fingerprint, this
 * {@link #VERSION} and the same {@link #code() builder code} (a hash of the class files that derive and
 * hold the graph, so a new jar whose builder reasons differently never reads an old answer). Anything else —
 * missing, unreadable, corrupt, another fingerprint, version or code — is ignored with a debug line, and the
 * caller rebuilds and rewrites it. Writes go to a temporary file moved into place, so readers never see half a
 * file. The entries hold only strings, longs, booleans, lists and maps, so they round-trip exactly; a loaded
 * graph {@code equals} a freshly built one entry for entry.
 */
public final class KgCache {
    private static final Logger LOG = LoggerFactory.getLogger(KgCache.class);
    /** Bump when the file layout changes. */
    public static final int VERSION = 2;
    static final String SUFFIX = ".kg-cache.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static volatile String code;

    /** One entry of the automatic graph: exactly one of the four is set. */
    record Item(KgEntry.Table table, KgEntry.Column column, KgEntry.Join join, KgEntry.Concept concept) {
        static Item of(KgEntry e) {
            if (e instanceof KgEntry.Table t) {
                return new Item(t, null, null, null);
            } else if (e instanceof KgEntry.Column c) {
                return new Item(null, c, null, null);
            } else if (e instanceof KgEntry.Join j) {
                return new Item(null, null, j, null);
            } else if (e instanceof KgEntry.Concept c) {
                return new Item(null, null, null, c); // the meanings of a table of contests (Contests)
            }
            throw new IllegalArgumentException("The automatic graph has no " + e.kind().wire() + " entries: " + e.id());
        }
    }

    /** The file's content. */
    record File(int version, String fingerprint, String code, String dataset, List<Item> entries) { }

    private KgCache() { }

    /** Where the cache of {@code ds} lives: beside its database file in the store folder. */
    public static Path path(Dataset ds) {
        return ds.file().resolveSibling(ds.name() + SUFFIX);
    }

    /** The cached automatic graph of {@code ds}, or empty (logged at debug) when there is no usable cache. */
    public static Optional<KnowledgeGraph> load(Dataset ds) {
        Path p = path(ds);
        JsonNode f;
        try {
            f = JSON.readTree(p.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            LOG.debug("No knowledge-graph cache {}; building", p);
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("Ignoring unreadable knowledge-graph cache {}: {}", p, e.getMessage());
            return Optional.empty();
        }
        String why = f.path("version").asInt(-1) != VERSION ? "format version " + f.path("version") + ", not " + VERSION
                : !ds.fingerprint().equals(f.path("fingerprint").asText(null)) ? "another dataset fingerprint ("
                        + f.path("fingerprint") + ")"
                : !code().equals(f.path("code").asText(null)) ? "another builder code (" + f.path("code") + ")"
                : !ds.name().equals(f.path("dataset").asText(null)) ? "another dataset name (" + f.path("dataset") + ")"
                : !f.path("entries").isArray() ? "no entries" : null;
        if (why != null) {
            LOG.debug("Ignoring knowledge-graph cache {}: {}", p, why);
            return Optional.empty();
        }
        try {
            List<KgEntry> entries = new ArrayList<>();
            for (JsonNode item : f.get("entries")) {
                entries.add(entry(item));
            }
            return Optional.of(new KnowledgeGraph(ds.name(), null, entries));
        } catch (RuntimeException e) {
            LOG.debug("Ignoring inconsistent knowledge-graph cache {}: {}", p, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * One cached entry, read field by field from the tree (binding records cold cost a one-shot question tens of
     * milliseconds); a field of the wrong type makes the whole cache ignored.
     */
    private static KgEntry entry(JsonNode item) {
        JsonNode t = present(item, "table");
        JsonNode c = present(item, "column");
        JsonNode j = present(item, "join");
        JsonNode k = present(item, "concept");
        if ((t == null ? 0 : 1) + (c == null ? 0 : 1) + (j == null ? 0 : 1) + (k == null ? 0 : 1) != 1) {
            throw new IllegalArgumentException("a cached entry must be exactly one of table, column, join, concept");
        }
        if (k != null) {
            return new KgEntry.Concept(text(k, "name"), text(k, "description"), strings(k, "synonyms"), text(k, "table"),
                    text(k, "column"), text(k, "expression"), flag(k, "curated"));
        }
        if (t != null) {
            return new KgEntry.Table(text(t, "name"), text(t, "description"), whole(t, "rows"), strings(t, "synonyms"),
                    flag(t, "curated"));
        }
        if (c != null) {
            Map<String, String> codes = new LinkedHashMap<>();
            JsonNode cs = c.path("codes");
            if (!cs.isObject()) {
                throw new IllegalArgumentException("column codes must be an object");
            }
            cs.fields().forEachRemaining(e -> codes.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
            return new KgEntry.Column(text(c, "table"), text(c, "name"), text(c, "type"), text(c, "description"),
                    text(c, "unit"), Collections.unmodifiableMap(codes), strings(c, "values"), text(c, "sample"),
                    flag(c, "key"), strings(c, "synonyms"), flag(c, "curated"));
        }
        JsonNode coverage = j.get("coverage");
        if (coverage == null || !coverage.isNumber()) {
            throw new IllegalArgumentException("join coverage must be a number");
        }
        return new KgEntry.Join(text(j, "name"), text(j, "fromTable"), text(j, "fromColumn"), text(j, "toTable"),
                text(j, "toColumn"), text(j, "meaning"), strings(j, "synonyms"), flag(j, "curated"), flag(j, "approved"),
                text(j, "cardinality"), coverage.asDouble(), text(j, "on"), pairs(j.path("more")));
    }

    /** The further column pairs of a join on several columns (none for a one-column join). */
    private static List<KgEntry.Join.Pair> pairs(JsonNode more) {
        if (more.isMissingNode() || more.isNull()) {
            return List.of();
        }
        if (!more.isArray()) {
            throw new IllegalArgumentException("join 'more' must be a list of column pairs");
        }
        List<KgEntry.Join.Pair> out = new ArrayList<>();
        more.forEach(p -> out.add(new KgEntry.Join.Pair(text(p, "from"), text(p, "to"))));
        return out;
    }

    private static JsonNode present(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = present(node, field);
        if (v != null && !v.isTextual()) {
            throw new IllegalArgumentException(field + " must be text");
        }
        return v == null ? null : v.asText();
    }

    private static long whole(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException(field + " must be a whole number");
        }
        return v.asLong();
    }

    private static boolean flag(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isBoolean()) {
            throw new IllegalArgumentException(field + " must be true or false");
        }
        return v.asBoolean();
    }

    private static List<String> strings(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isArray()) {
            throw new IllegalArgumentException(field + " must be a list");
        }
        List<String> out = new ArrayList<>(v.size());
        v.forEach(e -> out.add(e.asText()));
        return List.copyOf(out);
    }

    /**
     * Writes the automatic graph of {@code ds} atomically. A store that cannot be written (read-only folder,
     * full disk) costs only the speed-up: the failure is logged and the graph is still used.
     */
    public static void save(Dataset ds, KnowledgeGraph auto) {
        Path p = path(ds);
        try {
            File f = new File(VERSION, ds.fingerprint(), code(), ds.name(),
                    auto.entries().stream().map(Item::of).toList());
            AtomicFiles.write(p, out -> JSON.writeValue(out, f));
            LOG.debug("Wrote knowledge-graph cache {}", p);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not write the knowledge-graph cache {} ({}); the next run builds the graph again", p,
                    e.getMessage());
        }
    }

    /** Removes the cache of a dataset (when the dataset itself is removed). */
    public static void delete(Path storeRoot, String name) throws IOException {
        Files.deleteIfExists(storeRoot.resolve(name + SUFFIX));
    }

    /** A hash of the class files that derive and hold the automatic graph. */
    static String code() {
        String c = code;
        if (c == null) {
            try {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                for (Class<?> k : List.of(KgBuilder.class, KgCache.class, KgEntry.class, KgEntry.Table.class,
                        KgEntry.Column.class, KgEntry.Join.class, KgEntry.Concept.class, Contests.class, SexCodes.class,
                        InitialCodes.class)) {
                    String res = k.getName().substring(k.getName().lastIndexOf('.') + 1) + ".class";
                    try (InputStream in = k.getResourceAsStream(res)) {
                        md.update(res.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        md.update(in == null ? new byte[0] : in.readAllBytes());
                    }
                }
                try (InputStream in = KgCache.class.getResourceAsStream("/names.yaml")) { // the words Contests and SexCodes read
                    md.update(in == null ? new byte[0] : in.readAllBytes());
                }
                c = HexFormat.of().formatHex(md.digest(), 0, 8);
            } catch (IOException | NoSuchAlgorithmException e) {
                c = "unknown-" + System.nanoTime(); // never matches a written file: no caching, still correct
            }
            code = c;
        }
        return c;
    }
}
