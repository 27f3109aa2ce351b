package dev.sift.bench;

import dev.sift.TestDatasets;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The ML bench end to end at a small size: every measurement is printed and the synthetic task is learnable. */
class MlBenchTest {
    @Test
    void prints_both_read_timings_training_prediction_and_shap_numbers() throws Exception {
        StringWriter s = new StringWriter();
        new MlBench(TestDatasets.bank(), 2, 3000).run(new PrintWriter(s, true));
        String out = s.toString();
        // surefire's JVM runs both compilers
        assertThat(out).contains("; optimising compiler, as serve runs (a one-shot ask runs on the quick one only:")
                .containsPattern("3,000 rows x 20 features: frame in DuckDB [0-9.]+ s; read into floats \\(median of 2\\) via JDBC"
                + " rows [0-9.]+ s, via Arrow [0-9.]+ s \\([0-9.]+x\\); capacity search [0-9.]+ s \\([0-9.]+x the"
                + " cross-validation; chose depth \\d+\\); train on all rows \\(\\d+ rounds, hist, 1 thread\\)"
                + " [0-9.]+ s; cross-validation \\(5 folds\\) [0-9.]+ s \\([0-9.]+x the training\\); CV AUC 0\\.9\\d\\d ± 0\\.0\\d\\d")
                .containsPattern("predict 3,000 rows: [0-9.]+ s \\([0-9,]+ rows/s\\)")
                .containsPattern("TreeSHAP for 10 cases \\(load model \\+ predictContrib\\), median of 7: [0-9.]+ ms");
    }

    /** Built in two separate databases, the frame holds the same values (a random() would differ) and both classes. */
    @Test
    void the_synthetic_frame_is_the_same_in_every_database_and_holds_both_classes() throws Exception {
        List<Object> first = summary();
        assertThat(summary()).isEqualTo(first);
        assertThat(first.get(0)).isEqualTo(500L);
        assertThat(((Number) first.get(1)).longValue()).isBetween(25L, 475L);
    }

    private static List<Object> summary() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), sum(y), sum(f1), sum(f20), sum(hash(row_id, f7))"
                     + " FROM (" + MlBench.frameSql(500) + ")")) {
            rs.next();
            List<Object> out = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                out.add(rs.getObject(i));
            }
            return out;
        }
    }
}
