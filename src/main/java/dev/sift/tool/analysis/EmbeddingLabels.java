package dev.sift.tool.analysis;

import dev.sift.data.Progress;
import dev.sift.knowledge.Embeddings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Labels rows without a language model: each row takes the label whose meaning its text is most similar to, by the
 * embedding model shipped with Sift (MiniLM, cosine similarity). Approximate by nature: a row whose best label beats
 * the runner-up by less than {@link #UNCERTAIN_MARGIN} is {@code uncertain}.
 */
final class EmbeddingLabels {
    static final String UNCERTAIN = "uncertain";
    /** Best minus runner-up similarity under which no label is given (measured on EmbeddingLabelsTest's set). */
    static final double UNCERTAIN_MARGIN = 0.05;
    private static final int CHUNK = 64;

    /** One row's reading: the label given ({@code uncertain} when the margin is small), the nearest, the numbers. */
    record Labelled(String label, String nearest, double similarity, double margin) { }

    private EmbeddingLabels() { }

    /** The labels of {@code rows} by id; {@code labels} maps each label to its meaning. */
    static Map<String, Labelled> label(Embeddings model, Map<String, String> labels, List<ModelRows.Row> rows,
                                       Progress progress) {
        List<String> names = new ArrayList<>(labels.keySet());
        List<String> meanings = names.stream().map(n -> labels.get(n).isBlank() ? n : n + ": " + labels.get(n)).toList();
        List<float[]> lv = model.vectors(meanings);
        Map<String, Labelled> out = new LinkedHashMap<>();
        for (int from = 0; from < rows.size(); from += CHUNK) {
            List<ModelRows.Row> chunk = rows.subList(from, Math.min(rows.size(), from + CHUNK));
            List<float[]> rv = model.vectors(chunk.stream().map(ModelRows.Row::text).toList());
            for (int i = 0; i < chunk.size(); i++) {
                out.put(chunk.get(i).id(), nearest(names, lv, rv.get(i)));
            }
            progress.report("classify_rows: rows compared with the labels' meanings", out.size(), rows.size());
        }
        return out;
    }

    private static Labelled nearest(List<String> names, List<float[]> lv, float[] row) {
        int best = -1;
        double s1 = Double.NEGATIVE_INFINITY;
        double s2 = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < lv.size(); j++) {
            double s = dot(lv.get(j), row);
            if (s > s1) {
                s2 = s1;
                s1 = s;
                best = j;
            } else if (s > s2) {
                s2 = s;
            }
        }
        double margin = lv.size() < 2 ? 1 : s1 - s2;
        String nearest = names.get(best);
        return new Labelled(margin < UNCERTAIN_MARGIN ? UNCERTAIN : nearest, nearest, s1, margin);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
