package dev.sift.data;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The described tables of a dataset (names, columns and types, row counts, one sample per column; never the column
 * facts, which stay lazy), remembered beside the dataset as {@code <store>/<name>.tables.json} so that later processes
 * skip the describing queries (about a quarter of a second on every one-shot {@code ask}). Its key is a hash of the
 * dataset's name and fingerprint, the database file's name, size and time (a rebuild writes a new file), the class
 * files that describe and hold the tables, and the jar (another DuckDB may name types or cast samples differently).
 * A missing, corrupt or differently keyed record is ignored and replaced.
 */
final class TablesRecord {
    private static final Logger LOG = LoggerFactory.getLogger(TablesRecord.class);
    static final String SUFFIX = ".tables.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** The file's layout: {@code columns} holds {name, type, sample} per column (the sample may be null). */
    record Stored(String key, List<StoredTable> tables) { }

    record StoredTable(String name, long rows, List<List<String>> columns) { }

    private final Path file;
    private final String key;

    private TablesRecord(Path file, String key) {
        this.file = file;
        this.key = key;
    }

    /** The record of {@code ds}; empty for a dataset without a fingerprint or database file. */
    static Optional<TablesRecord> of(Dataset ds) {
        if (ds.fingerprint() == null || ds.fingerprint().isBlank() || ds.file() == null || !Files.isRegularFile(ds.file())) {
            return Optional.empty();
        }
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((ds.name() + "\n" + ds.fingerprint() + "\n" + ds.file().getFileName() + "\n" + Files.size(ds.file())
                    + ":" + Files.getLastModifiedTime(ds.file()).toMillis() + "\n" + BuildStamp.jar() + "\n").getBytes(StandardCharsets.UTF_8));
            BuildStamp.addClasses(md, List.of(TableDescriber.class, TableInfo.class, ColumnInfo.class, TablesRecord.class,
                    Workspace.class));
            return Optional.of(new TablesRecord(path(ds), HexFormat.of().formatHex(md.digest())));
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            LOG.debug("No described-tables record for {}: {}", ds.name(), e.toString());
            return Optional.empty();
        }
    }

    /** {@code ds}'s tables from its record when it holds this key, else described by {@code describe} and recorded. */
    static List<TableInfo> readOrDescribe(Dataset ds, Supplier<List<TableInfo>> describe) {
        long start = System.nanoTime();
        Optional<TablesRecord> record = of(ds);
        Optional<List<TableInfo>> known = record.flatMap(TablesRecord::read);
        if (known.isPresent()) {
            LOG.debug("Tables of {} read from {} in {} ms", ds.name(), record.get().file, (System.nanoTime() - start) / 1_000_000);
            return known.get();
        }
        List<TableInfo> described = List.copyOf(describe.get());
        record.ifPresent(r -> r.write(described));
        LOG.debug("Tables of {} described in {} ms", ds.name(), (System.nanoTime() - start) / 1_000_000);
        return described;
    }

    /** Where the record of {@code ds} lives: beside its database file in the store folder. */
    static Path path(Dataset ds) {
        return ds.file().resolveSibling(ds.name() + SUFFIX);
    }

    /** The tables recorded under this key (without facts); empty when missing, corrupt or keyed otherwise. */
    Optional<List<TableInfo>> read() {
        Stored s;
        try {
            s = JSON.readValue(file.toFile(), Stored.class);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("Ignoring the described-tables record {}: {}", file, e.getMessage());
            return Optional.empty();
        }
        if (s == null || !key.equals(s.key()) || s.tables() == null) {
            LOG.debug("Ignoring the described-tables record {}: {}", file, s == null ? "empty" : "another key");
            return Optional.empty();
        }
        List<TableInfo> out = new ArrayList<>();
        for (StoredTable t : s.tables()) {
            if (t == null || t.name() == null || t.columns() == null) {
                LOG.debug("Ignoring the described-tables record {}: an incomplete table", file);
                return Optional.empty();
            }
            List<ColumnInfo> columns = new ArrayList<>();
            for (List<String> c : t.columns()) {
                if (c == null || c.size() != 3 || c.get(0) == null || c.get(1) == null) {
                    LOG.debug("Ignoring the described-tables record {}: an incomplete column of {}", file, t.name());
                    return Optional.empty();
                }
                columns.add(new ColumnInfo(c.get(0), c.get(1), c.get(2)));
            }
            out.add(new TableInfo(t.name(), TableInfo.Kind.TABLE, t.rows(), List.copyOf(columns)));
        }
        return Optional.of(List.copyOf(out));
    }

    /** Records {@code tables}, atomically; a store that cannot be written only costs describing again next time. */
    void write(List<TableInfo> tables) {
        List<StoredTable> stored = new ArrayList<>();
        for (TableInfo t : tables) {
            List<List<String>> columns = new ArrayList<>();
            for (ColumnInfo c : t.columns()) {
                columns.add(java.util.Arrays.asList(c.name(), c.type(), c.sample()));
            }
            stored.add(new StoredTable(t.name(), t.rows(), columns));
        }
        try {
            AtomicFiles.write(file, out -> JSON.writeValue(out, new Stored(key, stored)));
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not write the described-tables record {}: {}", file, e.getMessage());
        }
    }
}
