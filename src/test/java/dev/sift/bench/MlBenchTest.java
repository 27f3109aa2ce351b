package dev.sift.bench;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The ML bench end to end at a small size: every measurement is printed and the synthetic task is learnable. */
class MlBenchTest {
    @Test
    void prints_both_read_timings_training_prediction_and_shap_numbers() throws Exception {
        StringWriter s = new StringWriter();
        new MlBench(TestDatasets.bank(), 3000).run(new PrintWriter(s, true));
        String out = s.toString();
        assertThat(out).containsPattern("3,000 rows x 20 features: frame in DuckDB [0-9.]+ s; read into floats via JDBC"
                + " rows [0-9.]+ s, via Arrow [0-9.]+ s \\([0-9.]+x\\); train \\(100 rounds, hist, 1 thread; split \\+ metrics\\) [0-9.]+ s, held-out AUC 0\\.9\\d\\d")
                .containsPattern("predict 3,000 rows: [0-9.]+ s \\([0-9,]+ rows/s\\)")
                .containsPattern("TreeSHAP for 10 cases \\(load model \\+ predictContrib\\), median of 7: [0-9.]+ ms");
    }

    @Test
    void synthetic_frame_is_deterministic() {
        assertThat(MlBench.frameSql(10)).isEqualTo(MlBench.frameSql(10)).contains("hash(i * 21 + 20)").doesNotContain("random");
    }
}
