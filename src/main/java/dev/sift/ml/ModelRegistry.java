package dev.sift.ml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The models of one session: each trained model gets an id (m1, m2, …); the latest trained or selected
 * one is the default for predict and explain. Also keeps each model's latest predictions so they can be
 * explained. Models are held serialized, so there is no native memory to free here.
 */
public final class ModelRegistry {
    private final Map<String, TrainedModel> models = new LinkedHashMap<>();
    private final Map<String, Predictions> latest = new LinkedHashMap<>();
    private String selected;
    private int next = 1;

    public synchronized String nextId() {
        return "m" + next++;
    }

    public synchronized void add(TrainedModel m) {
        models.put(m.id(), m);
        selected = m.id();
    }

    public synchronized List<TrainedModel> all() {
        return new ArrayList<>(models.values());
    }

    public synchronized Optional<TrainedModel> selected() {
        return Optional.ofNullable(selected).map(models::get);
    }

    /** The named model, or the selected one when {@code id} is null; errors say what exists. */
    public synchronized TrainedModel resolve(String id) throws MlException {
        if (models.isEmpty()) {
            throw new MlException("No model has been trained in this session yet: call train_model first.");
        }
        if (id == null) {
            return models.get(selected);
        }
        TrainedModel m = models.get(id.trim());
        if (m == null) {
            throw new MlException("Unknown model '" + id + "'. Models in this session: " + String.join(", ", models.keySet())
                    + " (selected: " + selected + "). Use one of these ids, or omit model to use the selected one.");
        }
        return m;
    }

    public synchronized TrainedModel select(String id) throws MlException {
        TrainedModel m = resolve(id);
        selected = m.id();
        return m;
    }

    public synchronized void putPredictions(Predictions p) {
        latest.put(p.model().id(), p);
    }

    public synchronized Optional<Predictions> predictions(String modelId) {
        return Optional.ofNullable(latest.get(modelId));
    }
}
