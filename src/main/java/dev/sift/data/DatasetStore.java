package dev.sift.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The folder of built datasets: {@code <root>/<name>.duckdb} plus a {@code <name>.json} manifest.
 * A dataset is built once into a temporary file and published by an atomic move only when the build
 * succeeded, so a failed build never leaves a half-built dataset; a published file is never written again.
 * The manifest is written last: a dataset without a manifest does not exist.
 */
public final class DatasetStore {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DatasetStore.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A live dataset's connection file (engine URL, options, cached schema) beside its manifest. */
    public static final String LIVE_SUFFIX = ".engine.json";

    private final Path root;

    public DatasetStore(Path root) {
        this.root = root;
    }

    /** The default store: {@code $SIFT_HOME/datasets}, else {@code ~/.sift/datasets}. */
    public static DatasetStore defaultStore() {
        return new DatasetStore(siftHome().resolve("datasets"));
    }

    /** {@code -Dsift.home}, else {@code $SIFT_HOME}, else {@code ~/.sift}. */
    public static Path siftHome() {
        String home = System.getProperty("sift.home", System.getenv("SIFT_HOME"));
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".sift");
    }

    public Path root() {
        return root;
    }

    /** Checks a dataset name; the message says what is allowed. */
    public static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Dataset name '" + name
                    + "' is not valid: use lowercase letters, digits and '_', starting with a letter.");
        }
        return name;
    }

    public Optional<Dataset> find(String name) {
        if (name == null || !NAME.matcher(name).matches()) { // before resolve: a null or "../x" name is no dataset
            return Optional.empty();
        }
        Path manifest = root.resolve(name + ".json");
        if (!Files.isRegularFile(manifest)) {
            return Optional.empty();
        }
        try {
            Dataset ds = JSON.readValue(manifest.toFile(), Dataset.class);
            Path file = root.resolve(name + (ds.onEngine() ? LIVE_SUFFIX : ".duckdb"));
            return Files.isRegularFile(file) ? Optional.of(new Dataset(ds.name(), file, ds.fingerprint(),
                    ds.description(), ds.builtAt(), ds.tables(), ds.live())) : Optional.empty();
        } catch (IOException e) {
            // Manifests are written atomically, so this is outside damage: treat the dataset as absent (a
            // rebuild replaces it) rather than let one bad file break every command.
            LOG.warn("Ignoring dataset '{}': its manifest {} is unreadable ({}). Rebuild it with sift load.", name,
                    manifest, e.getMessage());
            return Optional.empty();
        }
    }

    /** The dataset, or an error that lists the datasets there are. */
    public Dataset get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("Unknown dataset '" + name + "'. "
                + (list().isEmpty() ? "No datasets are built yet; the demo dataset 'bank' is built on first use."
                : "Available: " + String.join(", ", list().stream().map(Dataset::name).toList()) + ".")));
    }

    public List<Dataset> list() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(root)) {
            return files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".json"))
                    .map(f -> f.substring(0, f.length() - 5)).sorted()
                    .map(this::find).flatMap(Optional::stream).toList();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list datasets in " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * Returns the dataset built from {@code builder}, building it when it is missing or its fingerprint
     * changed. A rebuild replaces the old dataset atomically; a failed build leaves the old one untouched.
     */
    public Dataset ensure(String name, DatasetBuilder builder, Progress progress) throws Exception {
        checkName(name);
        String fingerprint = builder.fingerprint();
        Optional<Dataset> existing = find(name);
        if (existing.isPresent() && existing.get().fingerprint().equals(fingerprint)) {
            return existing.get();
        }
        return build(name, fingerprint, builder, progress);
    }

    private synchronized Dataset build(String name, String fingerprint, DatasetBuilder builder, Progress progress)
            throws Exception {
        Files.createDirectories(root);
        Path tmp = root.resolve("." + name + "." + UUID.randomUUID() + ".building");
        Path manifestTmp = root.resolve("." + name + "." + UUID.randomUUID() + ".json");
        try {
            List<Dataset.TableSummary> tables;
            try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + tmp)) {
                builder.build(db, progress);
                tables = tableSummaries(db);
                if (tables.isEmpty()) {
                    throw new IllegalArgumentException("The build of dataset '" + name + "' produced no tables.");
                }
                try (Statement st = db.createStatement()) {
                    st.execute("CHECKPOINT");
                }
            }
            Path file = root.resolve(name + ".duckdb");
            Dataset ds = new Dataset(name, file, fingerprint, builder.describe(), Instant.now().toString(), tables);
            JSON.writeValue(manifestTmp.toFile(), ds);
            Files.deleteIfExists(root.resolve(name + ".json")); // no manifest: the old dataset is gone first
            move(tmp, file);
            move(manifestTmp, root.resolve(name + ".json"));
            Files.deleteIfExists(root.resolve(name + LIVE_SUFFIX)); // a live dataset of that name is replaced
            return ds;
        } finally {
            Files.deleteIfExists(tmp);
            Files.deleteIfExists(Path.of(tmp + ".wal"));
            Files.deleteIfExists(manifestTmp); // left only when publishing failed midway
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Where the connection file of live dataset {@code name} goes (written before {@link #publishLive}). */
    public Path liveFile(String name) {
        return root.resolve(checkName(name) + LIVE_SUFFIX);
    }

    /**
     * Publishes a live dataset whose connection file ({@link #liveFile}) is already written: the manifest is
     * written to a temporary file and moved into place, replacing an earlier dataset of that name (a built
     * DuckDB file of that name is removed: a name means one dataset).
     */
    public synchronized Dataset publishLive(Dataset ds) throws IOException {
        checkName(ds.name());
        if (!ds.onEngine() || !Files.isRegularFile(liveFile(ds.name()))) {
            throw new IllegalStateException("Not a live dataset with a connection file: " + ds.name());
        }
        Path manifestTmp = root.resolve("." + ds.name() + "." + UUID.randomUUID() + ".json");
        try {
            JSON.writeValue(manifestTmp.toFile(), ds);
            move(manifestTmp, root.resolve(ds.name() + ".json"));
        } finally {
            Files.deleteIfExists(manifestTmp);
        }
        Files.deleteIfExists(root.resolve(ds.name() + ".duckdb"));
        return find(ds.name()).orElseThrow();
    }

    /** Removes a dataset (manifest first, so a crash halfway leaves no visible dataset). */
    public boolean remove(String name) throws IOException {
        checkName(name);
        boolean had = Files.deleteIfExists(root.resolve(name + ".json"));
        Files.deleteIfExists(root.resolve(name + ".kg-cache.json")); // the knowledge-graph cache (KgCache)
        boolean live = Files.deleteIfExists(root.resolve(name + LIVE_SUFFIX));
        return Files.deleteIfExists(root.resolve(name + ".duckdb")) || live || had;
    }

    static List<Dataset.TableSummary> tableSummaries(Connection db) throws Exception {
        List<String> names = new ArrayList<>();
        try (Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' "
                     + "AND database_name = current_database() ORDER BY table_name")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        List<Dataset.TableSummary> out = new ArrayList<>();
        for (String t : names) {
            try (Statement st = db.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM main." + Sql.quoteIdent(t))) {
                rs.next();
                out.add(new Dataset.TableSummary(t, rs.getLong(1)));
            }
        }
        out.sort(Comparator.comparing(Dataset.TableSummary::name));
        return out;
    }
}
