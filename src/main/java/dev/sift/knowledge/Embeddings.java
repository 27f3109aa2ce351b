package dev.sift.knowledge;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;

/**
 * Dense retrieval with the quantized all-MiniLM-L6-v2 model shipped inside its jar (runs offline; its ONNX
 * runtime unpacks a native library once). Switched by {@code SIFT_EMBEDDINGS=on|off} (or the system property
 * {@code sift.embeddings}); off by default because loading the model and embedding a graph costs more than a
 * whole offline answer (see {@code docs/knowledge.md}). When on but the model cannot load, retrieval
 * falls back to BM25 alone and logs why.
 */
public final class Embeddings {
    private static final Logger LOG = LoggerFactory.getLogger(Embeddings.class);
    private static volatile Embeddings shared;
    private static volatile boolean failed;

    private final EmbeddingModel model;

    private Embeddings(EmbeddingModel model) {
        this.model = model;
    }

    /** The shared model when dense retrieval is {@code enabled} (configuration) and loads; null otherwise. */
    public static Embeddings ifEnabled(boolean enabled) {
        return enabled ? load() : null;
    }

    /** Loads the model once per process; null when it cannot load (the reason is logged). */
    public static synchronized Embeddings load() {
        if (shared == null && !failed) {
            long t0 = System.nanoTime();
            try {
                shared = new Embeddings(new AllMiniLmL6V2QuantizedEmbeddingModel());
                LOG.debug("MiniLM embeddings loaded in {} ms", (System.nanoTime() - t0) / 1_000_000);
            } catch (NoClassDefFoundError e) {
                failed = true; // the lean jar leaves the model out
                LOG.warn("Dense retrieval is off: SIFT_EMBEDDINGS=on, but this build has no embeddings add-on ({})."
                        + " Build Sift with 'mvn -Pembeddings package' to include it.", e.getMessage());
            } catch (RuntimeException | LinkageError e) {
                failed = true;
                LOG.warn("Dense retrieval is off: the embedding model could not load ({})", e.toString());
            }
        }
        return shared;
    }

    /** Unit vectors of texts, searchable by cosine similarity. */
    public Vectors embed(List<String> texts) {
        return new Vectors(vectors(texts));
    }

    /** Unit vectors of texts in order (cosine similarity is their dot product). */
    public List<float[]> vectors(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        for (var e : model.embedAll(texts.stream().map(t -> TextSegment.from(t.isBlank() ? "-" : t)).toList()).content()) {
            out.add(unit(e.vector()));
        }
        return out;
    }

    float[] vector(String text) {
        return unit(model.embed(text.toLowerCase(Locale.ROOT)).content().vector());
    }

    private static float[] unit(float[] v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        float s = (float) (n == 0 ? 1 : 1 / Math.sqrt(n));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * s;
        }
        return out;
    }

    /** Document vectors of one index. */
    public final class Vectors {
        private final List<float[]> docs;

        Vectors(List<float[]> docs) {
            this.docs = docs;
        }

        /** Positions of the {@code k} documents most similar to the query, best first. */
        public List<Integer> rank(String query, int k, IntPredicate keep) {
            float[] q = vector(query);
            List<double[]> scored = new ArrayList<>();
            for (int i = 0; i < docs.size(); i++) {
                if (keep.test(i)) {
                    float[] d = docs.get(i);
                    double s = 0;
                    for (int j = 0; j < d.length; j++) {
                        s += d[j] * q[j];
                    }
                    scored.add(new double[] {s, i});
                }
            }
            scored.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
            return scored.subList(0, Math.min(k, scored.size())).stream().map(a -> (int) a[1]).toList();
        }
    }
}
