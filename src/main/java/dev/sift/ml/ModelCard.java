package dev.sift.ml;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a saved model is, written beside XGBoost's own model file as {@code card.json}: the dataset and its
 * fingerprint, where the training rows came from (the table, or the SQL of the frame), the point-in-time rule,
 * parameters and seed, the cross-validated metrics (means, and the {@link Evaluation} with spreads and baselines), every feature with its type and encoding, when and by which Sift version it was
 * made, and the model file's size and SHA-256 (so a damaged file is recognised before it is used).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ModelCard(int format, String id, String dataset, String datasetFingerprint, String siftVersion,
                        String createdAt, String task, String target, String positiveClass, String negativeClass,
                        String entity, String source, String sourceSql, String predictionTask, String pointInTime,
                        String trainedThrough, String trainedThroughColumn, Map<String, Object> params, int rounds,
                        long seed, Map<String, Double> metrics, Evaluation evaluation, int trainRows, List<Feature> features,
                        List<String> encodedFeatures, List<FeatureEncoder.Dropped> dropped, String referenceDate,
                        String trainingFingerprint, long trainMillis, String modelFile, long modelBytes,
                        String modelSha256) {
    public static final int FORMAT = 1;
    static final ObjectMapper JSON = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT).disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** One user column the model reads: its DuckDB type when trained, how it is encoded, levels and median. */
    public record Feature(String column, String type, String encoding, List<String> levels, Double median) { }

    /**
     * Where the training rows came from, beyond the model itself: the SQL of the source frame (null for a dataset
     * table), the knowledge graph's prediction task it was built by, the point-in-time rule of its features, and the
     * latest date among the labelled rows (with the column it was read from), which later rows are newer than.
     */
    public record Origin(String sourceSql, String predictionTask, String pointInTime, String trainedThrough,
                         String trainedThroughColumn) {
        public static final Origin NONE = new Origin(null, null, null, null, null);
    }

    /** Where the training rows came from, as this card records it. */
    public Origin origin() {
        return new Origin(sourceSql, predictionTask, pointInTime, trainedThrough, trainedThroughColumn);
    }

    /** The card of {@code m}, saved from {@code dataset} (fingerprint {@code fingerprint}) with its model file's facts. */
    static ModelCard of(TrainedModel m, Origin o, String dataset, String fingerprint, String siftVersion, long bytes,
                        String sha256) {
        TrainedModel.Provenance p = m.provenance();
        List<Feature> features = m.encoder().columns().stream().map(c -> new Feature(c.column(), c.type(),
                c.kind().name().toLowerCase(java.util.Locale.ROOT), c.levels(), Double.isNaN(c.median()) ? null : c.median()))
                .toList();
        Map<String, Double> metrics = new LinkedHashMap<>();
        p.metrics().forEach((k, v) -> metrics.put(k, v == null || Double.isNaN(v) ? null : v));
        return new ModelCard(FORMAT, m.id(), dataset, fingerprint, siftVersion, p.createdAt(), m.task().label(),
                m.target(), m.positiveClass(), m.negativeClass(), m.entity(), m.source(), o.sourceSql(),
                o.predictionTask(), p.pointInTime() != null ? p.pointInTime() : o.pointInTime(), o.trainedThrough(),
                o.trainedThroughColumn(), p.params(), p.rounds(), p.seed(), metrics, p.evaluation(), p.trainRows(), features, p.features(), m.encoder().dropped(),
                m.encoder().reference() == null ? null : m.encoder().reference().toString(), p.dataFingerprint(),
                p.trainMillis(), ModelStore.MODEL_FILE, bytes, sha256);
    }

    /** The model this card describes, with the booster's bytes read from its model file. */
    TrainedModel model(byte[] booster) throws MlException {
        List<FeatureEncoder.ColumnPlan> plans = new ArrayList<>();
        for (Feature f : features) {
            FeatureEncoder.Kind kind;
            try {
                kind = FeatureEncoder.Kind.valueOf(f.encoding().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new MlException("Saved model " + id + " names an unknown encoding '" + f.encoding() + "' for "
                        + f.column() + ": its card was written by another Sift version.");
            }
            plans.add(new FeatureEncoder.ColumnPlan(f.column(), f.type(), kind, f.levels() == null ? List.of() : f.levels(),
                    f.median() == null ? Double.NaN : f.median()));
        }
        FeatureEncoder encoder = new FeatureEncoder(plans, dropped == null ? List.of() : dropped,
                referenceDate == null ? null : LocalDate.parse(referenceDate));
        Map<String, Double> m = new LinkedHashMap<>();
        metrics.forEach((k, v) -> m.put(k, v == null ? Double.NaN : v));
        TrainedModel.Provenance p = new TrainedModel.Provenance(trainingFingerprint, encodedFeatures, params, rounds, seed,
                m, trainRows, createdAt, trainMillis, evaluation, pointInTime);
        return new TrainedModel(id, TaskType.parse(task), source, target, entity, positiveClass, negativeClass, encoder,
                p, booster, List.of());
    }

    /** The card as written to its file (indented JSON). */
    public byte[] toJson() throws IOException {
        return JSON.writeValueAsBytes(this);
    }

    static ModelCard fromJson(byte[] json) throws IOException {
        return JSON.readValue(json, ModelCard.class);
    }
}
