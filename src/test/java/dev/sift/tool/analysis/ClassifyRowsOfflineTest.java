package dev.sift.tool.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.TestDatasets;
import dev.sift.data.Sql;
import dev.sift.data.Workspace;
import dev.sift.knowledge.Embeddings;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * classify_rows without a language model: the shipped embedding model labels 32 product reviews written by hand with
 * their topic (resource {@code labelling/reviews.csv}) by similarity to each label's meaning, says it is approximate,
 * and marks rows with a small margin uncertain.
 */
class ClassifyRowsOfflineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LABELS = "{\"delivery\": \"shipping, couriers, parcels arriving late or damaged\","
            + " \"quality\": \"how well the product is made, breaks or lasts\", \"price\": \"cost, value for money,"
            + " discounts\", \"service\": \"customer support staff and how they answered\"}";
    private static Workspace ws;

    @BeforeAll
    static void frames() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        List<String> values = new ArrayList<>();
        try (InputStream in = ClassifyRowsOfflineTest.class.getResourceAsStream("/labelling/reviews.csv")) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1).toList();
            for (String line : lines) {
                String[] p = line.split(",", 3);
                values.add("(" + p[0] + ", " + Sql.quoteString(p[1]) + ", " + Sql.quoteString(p[2]) + ")");
            }
        }
        ws.saveFrame("reviews", "SELECT * FROM (VALUES " + String.join(", ", values) + ") v(review_id, truth, text)");
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    @Test
    void the_embedding_model_labels_reviews_by_meaning_says_it_is_approximate_and_marks_close_calls() throws Exception {
        assumeTrue(Embeddings.load() != null, "the embedding model is not on the class path (mvn -Pembeddings)");
        ToolRegistry tools = new ToolRegistry(List.of(new ClassifyRows(null)));
        ToolResult r = tools.run(tools.prepare("classify_rows", JSON.readTree("{\"source\":\"reviews\",\"columns\":"
                + "[\"text\"],\"labels\":" + LABELS + "}"), ws), new ToolContext(ws, null, "q"));
        assertThat(r.ok()).as(r.error()).isTrue();
        long labelled = (Long) ws.query("SELECT count(*) FROM frames.labels_reviews WHERE label <> 'uncertain'").scalar();
        long right = (Long) ws.query("SELECT count(*) FROM reviews r JOIN frames.labels_reviews l ON r.review_id = l.id"
                + " WHERE r.truth = l.label").scalar();
        long uncertain = 32 - labelled;
        System.out.println("offline labels: " + right + " right of " + labelled + " labelled, " + uncertain + " uncertain");
        // measured: 29 right of 30 labelled, 2 uncertain (margins 0.030, 0.041; the one wrong label had 0.062)
        assertThat(right).isGreaterThanOrEqualTo(Math.round(labelled * 0.9));
        assertThat(labelled).isGreaterThanOrEqualTo(26);
        assertThat(uncertain).isPositive();
        // a row is uncertain exactly when its margin is under the stated bound
        assertThat(ws.query("SELECT count(*) FROM frames.labels_reviews WHERE (label = 'uncertain') <> (margin < "
                + EmbeddingLabels.UNCERTAIN_MARGIN + ")").scalar()).isEqualTo(0L);
        assertThat(r.summary()).contains("embedding similarity (approximate)").contains("'uncertain'")
                .contains("join reviews.review_id = id");
        assertThat(r.caveat()).hasValueSatisfying(c -> assertThat(c).contains("approximate"));
        assertThat(((ClassifyRows.Result) r.payload()).requests()).isZero();
    }

    @Test
    void extract_fields_offline_says_it_needs_a_model() throws Exception {
        ToolRegistry tools = new ToolRegistry(List.of(new ExtractFields(null)));
        ToolResult r = tools.run(tools.prepare("extract_fields", JSON.readTree("{\"source\":\"reviews\",\"columns\":"
                + "[\"text\"],\"fields\":{\"days_late\":\"integer: days the parcel was late\"}}"), ws),
                new ToolContext(ws, null, "q"));
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).contains("needs a language model").contains("word_date");
    }
}
