package dev.sift.data;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /** The demo datasets: built by their own generators, never replaced by a user's files or sources. */
    public static final Set<String> DEMO_NAMES = Set.of("bank", "pkdd");
    /** A build's temporary files: {@code .NAME.UUID.building} (+ {@code .wal}), {@code .NAME.UUID.json}, {@code .NAME.UUID.lock}. */
    private static final Pattern LEFTOVER = Pattern.compile("\\.([a-z][a-z0-9_]{0,62})\\.([0-9a-f-]{36})\\.(building|building\\.wal|json|lock)");
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DatasetStore.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A live dataset's connection file (engine URL, options, cached schema) beside its manifest. */
    public static final String LIVE_SUFFIX = ".engine.json";
    /** Builds running at once and waiting beyond those; more are refused at once. */
    static final int RUNNING_BUILDS = 2;
    static final int WAITING_BUILDS = 8;

    private final Path root;
    /** The described tables of this store's datasets, shared by the workspaces opened on them. */
    private final DatasetTables tables = new DatasetTables(DatasetTables.DEFAULT_CAPACITY);
    private final BuildQueue builds = new BuildQueue(RUNNING_BUILDS, WAITING_BUILDS);

    public DatasetStore(Path root) {
        this.root = root;
    }

    /** Where workspaces on this store's datasets find the datasets' described tables. */
    public DatasetTables tables() {
        return tables;
    }

    /** The store under a Sift home: {@code <home>/datasets}. */
    public static DatasetStore under(Path home) {
        return new DatasetStore(home.resolve("datasets"));
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
                    ds.description(), ds.builtAt(), ds.tables(), ds.sources(), ds.live())) : Optional.empty();
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
        cleanLeftovers();
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
        return builds.run(name, () -> {
            Optional<Dataset> done = find(name); // a build of this name that finished while this one waited
            return done.isPresent() && done.get().fingerprint().equals(fingerprint) ? done.get()
                    : buildNow(name, fingerprint, builder, progress);
        });
    }

    /** Builds the dataset again even when its fingerprint is unchanged ({@code sift load --refresh}). */
    public Dataset rebuild(String name, DatasetBuilder builder, Progress progress) throws Exception {
        checkName(name);
        return build(name, builder.fingerprint(), builder, progress);
    }

    /**
     * Loads a user's sources as dataset {@code name}. A demo name is refused; a name already built from other
     * sources is refused unless {@code replace}; the same sources are rebuilt when their fingerprint changed, or
     * always with {@code refresh}.
     */
    public Dataset load(String name, DatasetBuilder builder, boolean replace, boolean refresh, Progress progress)
            throws Exception {
        checkName(name);
        if (DEMO_NAMES.contains(name)) {
            throw new DatasetExistsException(name, true, List.of());
        }
        Optional<Dataset> existing = find(name);
        if (existing.isPresent() && !replace && !existing.get().sources().equals(builder.sources())) {
            throw new DatasetExistsException(name, false, existing.get().sources());
        }
        String fingerprint = builder.fingerprint();
        if (existing.isPresent() && !refresh && existing.get().fingerprint().equals(fingerprint)) {
            return existing.get();
        }
        return build(name, fingerprint, builder, progress);
    }

    /** A dataset name that is taken: a demo dataset, or one built from other sources. */
    public static final class DatasetExistsException extends IllegalArgumentException {
        private final String name;
        private final boolean demo;

        DatasetExistsException(String name, boolean demo, List<String> sources) {
            super(demo ? "Dataset '" + name + "' is a demo dataset and is never replaced: choose another name."
                    : "Dataset '" + name + "' already exists (built from " + String.join("; ", sources)
                    + "): choose another name, or replace it explicitly.");
            this.name = name;
            this.demo = demo;
        }

        public String name() {
            return name;
        }

        /** True when the name is a demo dataset's, which nothing replaces. */
        public boolean demo() {
            return demo;
        }
    }

    /** Builds through the queue: one build per name, a bounded number at once. */
    private Dataset build(String name, String fingerprint, DatasetBuilder builder, Progress progress)
            throws Exception {
        return builds.run(name, () -> buildNow(name, fingerprint, builder, progress));
    }

    private Dataset buildNow(String name, String fingerprint, DatasetBuilder builder, Progress progress)
            throws Exception {
        Files.createDirectories(root);
        cleanLeftovers();
        String id = "." + name + "." + UUID.randomUUID();
        Path tmp = root.resolve(id + ".building");
        Path manifestTmp = root.resolve(id + ".json");
        Path lockFile = root.resolve(id + ".lock");
        List<Path> temporary = List.of(tmp, Path.of(tmp + ".wal"), manifestTmp, lockFile);
        // Ctrl-C runs shutdown hooks but not this thread's finally: the hook removes the half-built files then
        Thread onExit = new Thread(() -> temporary.forEach(DatasetStore::deleteQuietly), "sift-build-cleanup");
        Runtime.getRuntime().addShutdownHook(onExit);
        // the lock says "a live process builds this" to cleanLeftovers() in this and other processes
        try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockChannel.lock()) {
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
            Dataset ds = new Dataset(name, file, fingerprint, builder.describe(), Instant.now().toString(), tables,
                    builder.sources());
            JSON.writeValue(manifestTmp.toFile(), ds);
            Files.deleteIfExists(root.resolve(name + ".json")); // no manifest: the old dataset is gone first
            move(tmp, file);
            move(manifestTmp, root.resolve(name + ".json"));
            writeReport(name, builder.report());
            Files.deleteIfExists(root.resolve(name + LIVE_SUFFIX)); // a live dataset of that name is replaced
            return ds;
        } finally {
            Files.deleteIfExists(tmp);
            Files.deleteIfExists(Path.of(tmp + ".wal"));
            Files.deleteIfExists(manifestTmp); // left only when publishing failed midway
            Files.deleteIfExists(lockFile);
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or ran: it deletes the same files
            }
        }
    }

    /**
     * Removes what interrupted builds (a kill, a crash) left behind: temporary files whose build holds no lock,
     * i.e. whose process is gone. A build in progress, in this process or another, keeps its files.
     */
    public void cleanLeftovers() {
        if (!Files.isDirectory(root)) {
            return;
        }
        Map<String, List<Path>> byBuild = new HashMap<>();
        try (Stream<Path> files = Files.list(root)) {
            files.forEach(p -> {
                var m = LEFTOVER.matcher(p.getFileName().toString());
                if (m.matches()) {
                    byBuild.computeIfAbsent("." + m.group(1) + "." + m.group(2), k -> new ArrayList<>()).add(p);
                }
            });
        } catch (IOException e) {
            LOG.warn("Could not look for leftovers of interrupted builds in {}: {}", root, e.getMessage());
            return;
        }
        byBuild.forEach((id, files) -> {
            if (!buildIsLive(root.resolve(id + ".lock"))) {
                LOG.info("Removing leftovers of an interrupted build: {}", files);
                files.forEach(DatasetStore::deleteQuietly);
            }
        });
    }

    private static boolean buildIsLive(Path lockFile) {
        if (!Files.exists(lockFile)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true; // held by another process
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true; // held by this process
        } catch (IOException e) {
            return true; // cannot tell: leave it
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("Could not remove {}: {}", p, e.getMessage());
        }
    }

    /** The load report of a dataset (empty when its build made none). */
    public LoadReport loadReport(String name) {
        Path f = root.resolve(checkName(name) + REPORT);
        if (!Files.isRegularFile(f)) {
            return LoadReport.EMPTY;
        }
        try {
            return JSON.readValue(f.toFile(), LoadReport.class);
        } catch (IOException e) {
            LOG.warn("Ignoring the load report {} ({})", f, e.getMessage());
            return LoadReport.EMPTY;
        }
    }

    static final String REPORT = ".load-report.json";

    private void writeReport(String name, LoadReport report) throws IOException {
        Path f = root.resolve(name + REPORT);
        if (report == null || report.isEmpty()) {
            Files.deleteIfExists(f);
            return;
        }
        Path tmp = root.resolve("." + name + "." + UUID.randomUUID() + REPORT);
        JSON.writeValue(tmp.toFile(), report);
        move(tmp, f);
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
        Files.deleteIfExists(root.resolve(name + ".values")); // the values of many-valued text columns (ValueFile)
        Files.deleteIfExists(root.resolve(name + ".kg-valid")); // the knowledge file's validity record (KgValidity)
        Files.deleteIfExists(root.resolve(name + TablesRecord.SUFFIX)); // the described tables (TablesRecord)
        Files.deleteIfExists(root.resolve(name + REPORT));
        boolean live = Files.deleteIfExists(root.resolve(name + LIVE_SUFFIX));
        return Files.deleteIfExists(root.resolve(name + ".duckdb")) || live || had;
    }

    static List<Dataset.TableSummary> tableSummaries(Connection db) throws Exception {
        List<String[]> names = new ArrayList<>();
        try (Statement st = db.createStatement();
             ResultSet rs = st.executeQuery("SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT internal "
                     + "AND database_name = current_database() ORDER BY schema_name, table_name")) {
            while (rs.next()) {
                names.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        List<Dataset.TableSummary> out = new ArrayList<>();
        for (String[] t : names) {
            try (Statement st = db.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM " + Sql.quoteIdent(t[0]) + "." + Sql.quoteIdent(t[1]))) {
                rs.next();
                // main's tables by name; a source's schema qualifies its tables (user_database.review)
                out.add(new Dataset.TableSummary(t[0].equals("main") ? t[1] : t[0] + "." + t[1], rs.getLong(1)));
            }
        }
        out.sort(Comparator.comparing(Dataset.TableSummary::name));
        return out;
    }
}
