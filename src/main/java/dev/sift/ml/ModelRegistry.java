package dev.sift.ml;

import dev.sift.data.Dataset;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The models a session can use: those it trained, and — with a {@link ModelStore} — every model saved for its
 * dataset by earlier sessions. Each trained model gets an id (m1, m2, …; with a store, the next free id of the
 * dataset) and is saved at once; the latest trained or selected one is the default for predict and explain.
 * Also keeps each model's latest predictions so they can be explained. Models are held serialized, so there is
 * no native memory to free here. Without a store (tests, benchmarks) models live as long as the registry.
 */
public final class ModelRegistry {
    private final ModelStore store;
    private final Supplier<Dataset> dataset;
    private final Map<String, TrainedModel> models = new LinkedHashMap<>();
    /** The cards of the models saved or loaded here. */
    private final Map<String, ModelCard> cards = new LinkedHashMap<>();
    /** Where the rows of the models trained here came from (also without a store). */
    private final Map<String, ModelCard.Origin> origins = new LinkedHashMap<>();
    private final Map<String, Predictions> latest = new LinkedHashMap<>();
    private String selected;
    private int next = 1;

    /** Models of this registry only, saved nowhere. */
    public ModelRegistry() {
        this(null, null);
    }

    /** Models saved in {@code store} for the workspace's dataset ({@code dataset} is asked each time: it may switch). */
    public ModelRegistry(ModelStore store, Supplier<Dataset> dataset) {
        this.store = store;
        this.dataset = dataset;
    }

    public synchronized String nextId() {
        int n = next;
        if (store != null) {
            n = Math.max(n, store.nextNumber(datasetName()));
        }
        for (String id : models.keySet()) {
            n = Math.max(n, ModelStore.number(id) + 1);
        }
        next = n + 1;
        return "m" + n;
    }

    /** Adds a model trained here (nothing is recorded of where its rows came from). */
    public synchronized TrainedModel add(TrainedModel m) throws MlException {
        return add(m, ModelCard.Origin.NONE);
    }

    /**
     * Adds a model trained here and selects it; with a store it is saved, with {@code origin} on its card, and comes
     * back under the id it was saved as.
     */
    public synchronized TrainedModel add(TrainedModel m, ModelCard.Origin origin) throws MlException {
        TrainedModel kept = m;
        if (store != null) {
            Dataset ds = dataset.get();
            try {
                ModelStore.Loaded saved = store.save(ds.name(), ds.fingerprint(), m, origin);
                kept = saved.model();
                cards.put(kept.id(), saved.card());
            } catch (IOException e) {
                throw new MlException("Model " + m.id() + " was trained but could not be saved under " + store.root()
                        + " (" + e.getMessage() + "): make SIFT_HOME writable and train again.");
            }
        }
        models.put(kept.id(), kept);
        origins.put(kept.id(), origin);
        selected = kept.id();
        return kept;
    }

    /** The models this session can use: its own and the dataset's saved ones (damaged ones left out), by id. */
    public synchronized List<TrainedModel> all() {
        if (store != null) {
            for (ModelStore.Entry e : store.list(datasetName())) {
                if (e.usable() && !models.containsKey(e.id())) {
                    try {
                        load(e.id());
                    } catch (MlException damaged) {
                        // listed by saved() with its problem; never used
                    }
                }
            }
        }
        List<TrainedModel> out = new ArrayList<>(models.values());
        out.sort(Comparator.comparingInt((TrainedModel m) -> ModelStore.number(m.id())).thenComparing(TrainedModel::id));
        return out;
    }

    /** The dataset's saved models, damaged ones with their problem (empty without a store). */
    public synchronized List<ModelStore.Entry> saved() {
        return store == null ? List.of() : store.list(datasetName());
    }

    public synchronized Optional<TrainedModel> selected() {
        return Optional.ofNullable(selected).map(models::get);
    }

    /** The named model (this session's, else a saved one), or the selected one when {@code id} is null. */
    public synchronized TrainedModel resolve(String id) throws MlException {
        if (id == null) {
            if (selected == null) {
                List<ModelStore.Entry> saved = saved();
                throw new MlException(saved.isEmpty() ? "No model has been trained in this session yet: call train_model first."
                        : "No model has been trained or selected in this session: call train_model, or select_model(model="
                        + saved.get(saved.size() - 1).id() + ") to use a saved one (saved models of this dataset: "
                        + ModelStore.describe(saved) + ").");
            }
            return models.get(selected);
        }
        TrainedModel m = models.get(id.trim());
        if (m != null) {
            return m;
        }
        if (store != null && ModelStore.number(id.trim()) > 0 && store.list(datasetName()).stream()
                .anyMatch(e -> e.id().equals(id.trim()))) {
            return load(id.trim());
        }
        throw new MlException("Unknown model '" + id + "'. Models: " + known() + ". Use one of these ids, or omit model"
                + " to use the selected one.");
    }

    private String known() {
        List<String> ids = new ArrayList<>(models.keySet());
        if (store != null) {
            store.list(datasetName()).stream().map(ModelStore.Entry::id).filter(i -> !ids.contains(i)).forEach(ids::add);
        }
        return ids.isEmpty() ? "(none yet)" : String.join(", ", ids) + (selected == null ? "" : " (selected: " + selected + ")");
    }

    private TrainedModel load(String id) throws MlException {
        ModelStore.Loaded l = store.load(datasetName(), id);
        models.put(id, l.model());
        cards.put(id, l.card());
        return l.model();
    }

    public synchronized TrainedModel select(String id) throws MlException {
        TrainedModel m = resolve(id);
        selected = m.id();
        return m;
    }

    /**
     * What a result of {@code m} must say: that it is weak ({@link ModelQuality}) and that it was trained on another
     * build of the dataset, whose rows may differ from today's.
     */
    public synchronized Optional<String> caveat(TrainedModel m) {
        List<String> parts = new ArrayList<>();
        ModelQuality.warning(m).ifPresent(parts::add);
        stale(m).ifPresent(parts::add);
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", parts));
    }

    /** The warning for a model trained on another fingerprint of the dataset, or empty. */
    public synchronized Optional<String> stale(TrainedModel m) {
        String then = cards.containsKey(m.id()) ? cards.get(m.id()).datasetFingerprint() : null;
        if (then == null || dataset == null || then.equals(dataset.get().fingerprint())) {
            return Optional.empty();
        }
        return Optional.of("Warning: model " + m.id() + " was trained on another build of dataset '" + datasetName()
                + "' (fingerprint " + then + ", now " + dataset.get().fingerprint() + "): the rows have changed since,"
                + " so its metrics describe the old data; train again to be sure.");
    }

    /** The card of a saved model, when it was loaded from (or saved to) the store. */
    public synchronized Optional<ModelCard> card(String id) {
        return Optional.ofNullable(cards.get(id));
    }

    /** Where model {@code id}'s training rows came from: as recorded when it was trained here, else from its card. */
    public synchronized Optional<ModelCard.Origin> origin(String id) {
        return Optional.ofNullable(origins.get(id)).or(() -> card(id).map(ModelCard::origin));
    }

    public synchronized void putPredictions(Predictions p) {
        latest.put(p.model().id(), p);
    }

    public synchronized Optional<Predictions> predictions(String modelId) {
        return Optional.ofNullable(latest.get(modelId));
    }

    private String datasetName() {
        return dataset.get().name();
    }
}
