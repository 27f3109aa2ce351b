package dev.sift.ml;

import dev.sift.data.AtomicFiles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Saved models under {@code <root>/<dataset>/<id>/} ({@code root} is {@code $SIFT_HOME/models}): XGBoost's own model
 * file {@value #MODEL_FILE} and the {@link ModelCard} {@value #CARD_FILE}, each written atomically, the card last, so
 * a folder without a card is a save that did not finish. Ids are m1, m2, … per dataset, taken by creating the
 * folder, so two processes saving at once never share one. A model whose file does not match its card's size and
 * SHA-256, or whose card cannot be read, is reported as damaged and never loaded.
 */
public final class ModelStore {
    public static final String MODEL_FILE = "model.ubj";
    public static final String CARD_FILE = "card.json";
    private static final Pattern ID = Pattern.compile("m([1-9][0-9]{0,8})");
    private static final Pattern DATASET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

    private final Path root;
    private final String siftVersion;

    public ModelStore(Path root, String siftVersion) {
        this.root = root;
        this.siftVersion = siftVersion;
    }

    public Path root() {
        return root;
    }

    /** A saved model's folder: its card, or why it cannot be used ({@code problem}, with {@code card} null). */
    public record Entry(String dataset, String id, Path dir, ModelCard card, String problem) {
        public boolean usable() {
            return problem == null;
        }
    }

    /** A model loaded from its files, with its card. */
    public record Loaded(TrainedModel model, ModelCard card) { }

    /** The datasets that have saved models, by name. */
    public List<String> datasets() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString())
                    .filter(n -> DATASET.matcher(n).matches()).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("Could not list " + root + ": " + e.getMessage(), e);
        }
    }

    /** The saved models of {@code dataset}, by id number; damaged ones carry their problem. */
    public List<Entry> list(String dataset) {
        Path dir = datasetDir(dataset);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Entry> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(dir, p -> ID.matcher(p.getFileName().toString()).matches())) {
            for (Path d : dirs) {
                out.add(entry(dataset, d));
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not list " + dir + ": " + e.getMessage(), e);
        }
        out.sort(Comparator.comparingInt(e -> number(e.id())));
        return out;
    }

    /** A model folder as found: its card when the card reads and the model file matches it, else the problem. */
    private Entry entry(String dataset, Path d) {
        String id = d.getFileName().toString();
        Path card = d.resolve(CARD_FILE);
        if (!Files.exists(card)) {
            return new Entry(dataset, id, d, null, "its card " + CARD_FILE + " is missing (the save did not finish)");
        }
        ModelCard c;
        try {
            c = ModelCard.fromJson(Files.readAllBytes(card));
        } catch (IOException e) {
            return new Entry(dataset, id, d, null, "its card " + CARD_FILE + " cannot be read ("
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
        }
        if (c.id() == null || !c.id().equals(id) || c.features() == null || c.modelSha256() == null) {
            return new Entry(dataset, id, d, null, "its card " + CARD_FILE + " is incomplete (no id, features or model"
                    + " checksum)");
        }
        String problem = modelProblem(d.resolve(MODEL_FILE), c);
        return problem == null ? new Entry(dataset, id, d, c, null) : new Entry(dataset, id, d, null, problem);
    }

    /** Why the model file does not match its card (missing, unreadable, other size or checksum), or null. */
    private static String modelProblem(Path file, ModelCard c) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException ex) {
            return "its model file " + MODEL_FILE + " is missing";
        } catch (IOException ex) {
            return "its model file " + MODEL_FILE + " cannot be read (" + ex.getMessage() + ")";
        }
        if (bytes.length != c.modelBytes() || !sha256(bytes).equals(c.modelSha256())) {
            return "its model file " + MODEL_FILE + " is damaged (" + bytes.length + " bytes, the card says "
                    + c.modelBytes() + (bytes.length == c.modelBytes() ? ", and its checksum differs" : "")
                    + "): it was truncated or changed after it was saved";
        }
        return null;
    }

    /** The saved model {@code id} of {@code dataset}, checked against its card; one clear error when it cannot be used. */
    public Loaded load(String dataset, String id) throws MlException {
        Path dir = modelDir(dataset, id);
        if (!Files.isDirectory(dir)) {
            throw new MlException("No saved model '" + id + "' for dataset '" + dataset + "'. Saved models: "
                    + describe(list(dataset)) + ".");
        }
        Entry e = entry(dataset, dir);
        if (!e.usable()) {
            throw damaged(dataset, id, e.problem());
        }
        try {
            return new Loaded(e.card().model(Files.readAllBytes(dir.resolve(MODEL_FILE))), e.card());
        } catch (IOException ex) {
            throw damaged(dataset, id, "its model file " + MODEL_FILE + " cannot be read (" + ex.getMessage() + ")");
        }
    }

    private static MlException damaged(String dataset, String id, String problem) {
        return new MlException("Saved model " + id + " of dataset '" + dataset + "' cannot be used: " + problem
                + ". It is not used; remove it with 'sift models rm " + id + " --dataset " + dataset + "' and train again.");
    }

    /**
     * Saves {@code m} for {@code dataset} and returns it under the id it was saved as: its own id when that folder is
     * free, else the next free one (another session saved in the meantime).
     */
    public synchronized Loaded save(String dataset, String fingerprint, TrainedModel m, ModelCard.Origin origin)
            throws IOException {
        Path parent = datasetDir(dataset);
        Files.createDirectories(parent);
        int n = Math.max(number(m.id()), nextNumber(dataset));
        Path dir;
        while (true) {
            dir = parent.resolve("m" + n);
            try {
                Files.createDirectory(dir);
                break;
            } catch (FileAlreadyExistsException taken) {
                n++;
            }
        }
        TrainedModel saved = withId(m, "m" + n);
        byte[] booster = saved.booster();
        ModelCard card = ModelCard.of(saved, origin, dataset, fingerprint, siftVersion, booster.length, sha256(booster));
        try {
            AtomicFiles.write(dir.resolve(MODEL_FILE), out -> out.write(booster));
            byte[] json = card.toJson();
            AtomicFiles.write(dir.resolve(CARD_FILE), out -> out.write(json));
        } catch (IOException e) {
            delete(dir);
            throw e;
        }
        return new Loaded(saved, card);
    }

    /** Removes a saved model (damaged or not); false when there is none of that id. */
    public synchronized boolean remove(String dataset, String id) throws IOException, MlException {
        Path dir = modelDir(dataset, id);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        delete(dir);
        return true;
    }

    /** The number after the highest id saved for {@code dataset} (1 when none). */
    public int nextNumber(String dataset) {
        return list(dataset).stream().mapToInt(e -> number(e.id())).max().orElse(0) + 1;
    }

    /** "m1 (classification of defaulted), m2 (damaged)", or "(none)". */
    public static String describe(List<Entry> entries) {
        if (entries.isEmpty()) {
            return "(none)";
        }
        return String.join(", ", entries.stream().map(e -> e.id() + (e.usable() ? " (" + e.card().task() + " of "
                + e.card().target() + ")" : " (damaged)")).toList());
    }

    /** The number of an id such as m12; 0 for anything else. */
    public static int number(String id) {
        var m = ID.matcher(id == null ? "" : id);
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    private Path datasetDir(String dataset) {
        if (dataset == null || !DATASET.matcher(dataset).matches()) {
            throw new IllegalArgumentException("'" + dataset + "' is not a dataset name (letters, digits, '_', '.', '-').");
        }
        return root.resolve(dataset);
    }

    private Path modelDir(String dataset, String id) throws MlException {
        if (id == null || !ID.matcher(id.trim()).matches()) {
            throw new MlException("'" + id + "' is not a model id: ids are m1, m2, …. Saved models of '" + dataset + "': "
                    + describe(list(dataset)) + ".");
        }
        return datasetDir(dataset).resolve(id.trim());
    }

    static TrainedModel withId(TrainedModel m, String id) {
        return id.equals(m.id()) ? m : new TrainedModel(id, m.task(), m.source(), m.target(), m.entity(), m.positiveClass(),
                m.negativeClass(), m.encoder(), m.provenance(), m.booster(), m.foldModels());
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
