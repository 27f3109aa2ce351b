package dev.sift.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.XGBoost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Models saved under the Sift home: card and XGBoost file, found by later sessions, damaged files refused. */
class ModelStoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** 300 rows: y = 1 when a + 0.3 for 'red' exceeds 0.6; d a date the card records the latest labelled value of. */
    static final String DATA = "SELECT i AS item_id, (i % 97) / 97.0 AS a, ['red', 'green', 'blue'][1 + i % 3] AS colour,"
            + " CAST(DATE '2020-01-01' + INTERVAL (i % 200) DAY AS DATE) AS d,"
            + " CASE WHEN i >= 290 THEN NULL WHEN (i % 97) / 97.0 + CASE WHEN i % 3 = 0 THEN 0.3 ELSE 0 END > 0.6"
            + " THEN 1 ELSE 0 END AS y FROM range(300) t(i)";

    @TempDir
    Path home;
    private final ToolRegistry tools = Sift.defaultTools();
    private ModelStore store;
    private Workspace ws;

    @BeforeEach
    void open() throws Exception {
        store = new ModelStore(home.resolve("models"), "test");
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ws.saveFrame("train_data", DATA);
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolContext session() {
        return new ToolContext(ws, null, "q", new ModelRegistry(store, ws::dataset));
    }

    private ToolResult call(ToolContext ctx, String tool, String args) throws Exception {
        return tools.run(tools.prepare(tool, JSON.readTree(args), ws), ctx);
    }

    private TrainedModel train(ToolContext ctx) throws Exception {
        ToolResult r = call(ctx, "train_model", "{\"source\":\"train_data\",\"target\":\"y\"}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        return ctx.models().resolve(null);
    }

    @Test
    void a_trained_model_is_saved_with_its_card_and_a_later_session_scores_with_it_identically() throws Exception {
        TrainedModel m = train(session());
        Path dir = home.resolve("models/bank/m1");
        assertThat(dir.resolve("model.ubj")).exists();
        ModelCard card = ModelCard.fromJson(Files.readAllBytes(dir.resolve("card.json")));
        assertThat(card.dataset()).isEqualTo("bank");
        assertThat(card.datasetFingerprint()).isEqualTo(ws.dataset().fingerprint());
        assertThat(card.sourceSql()).isEqualTo(DATA);
        assertThat(card.target()).isEqualTo("y");
        assertThat(card.seed()).isEqualTo(42L);
        assertThat(card.siftVersion()).isEqualTo("test");
        assertThat(card.features()).extracting(ModelCard.Feature::column).containsExactly("a", "colour", "d");
        assertThat(card.features().get(1).type()).isEqualTo("VARCHAR");
        assertThat(card.features().get(1).levels()).containsExactlyInAnyOrder("red", "green", "blue");
        assertThat(card.trainedThrough()).isEqualTo(ws.query("SELECT CAST(max(d) AS VARCHAR) FROM train_data"
                + " WHERE y IS NOT NULL").scalar());
        assertThat(card.trainedThroughColumn()).isEqualTo("d");
        assertThat(card.metrics().get("auc")).isEqualTo(m.provenance().metrics().get("auc"));
        Booster own = XGBoost.loadModel(dir.resolve("model.ubj").toString()); // XGBoost's own file, readable by XGBoost
        own.dispose();

        ToolContext later = session(); // a new session: nothing in memory but the store
        assertThat(later.models().selected()).isEmpty();
        TrainedModel loaded = later.models().resolve("m1");
        MlData rows = MlData.read(ws, ws.table("train_data").orElseThrow(), m.encoder(), "item_id", null, null, false);
        assertThat(Predictions.predict(loaded, rows.x(), rows.rows())).containsExactly(Predictions.predict(m, rows.x(), rows.rows()));
        assertThat(later.models().stale(loaded)).isEmpty();
        ToolResult listed = call(later, "list_models", "{}");
        assertThat(listed.summary()).startsWith("1 model:\n  m1: classification of y on train_data, 3 columns");
        assertThat(train(later).id()).isEqualTo("m2"); // ids continue across sessions
    }

    @Test
    void ids_taken_by_another_session_meanwhile_move_to_the_next_free_one() throws Exception {
        ToolContext first = session();
        ToolContext second = session();
        assertThat(first.models().nextId()).isEqualTo("m1");
        train(second); // saved as m1 while the first session was training its m1
        assertThat(train(first).id()).isEqualTo("m2");
        assertThat(store.list("bank")).extracting(ModelStore.Entry::id).containsExactly("m1", "m2");
    }

    @Test
    void a_truncated_model_file_is_one_clear_error_and_is_never_used() throws Exception {
        train(session());
        Path file = home.resolve("models/bank/m1/model.ubj");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        ToolContext later = session();
        String expected = "Saved model m1 of dataset 'bank' cannot be used: its model file model.ubj is damaged ("
                + bytes.length / 2 + " bytes, the card says " + bytes.length + "): it was truncated or changed after it"
                + " was saved. It is not used; remove it with 'sift models rm m1 --dataset bank' and train again.";
        assertThatThrownBy(() -> later.models().resolve("m1")).isInstanceOf(MlException.class).hasMessage(expected);
        assertThat(later.models().all()).isEmpty();
        ToolResult listed = call(later, "list_models", "{}");
        assertThat(listed.summary()).isEqualTo("No models trained or saved for this dataset yet: call train_model."
                + "\nDamaged, not used: m1: its model file model.ubj is damaged (" + bytes.length / 2 + " bytes, the card"
                + " says " + bytes.length + "): it was truncated or changed after it was saved.");
        ToolResult predict = call(later, "predict", "{\"source\":\"train_data\",\"model\":\"m1\"}");
        assertThat(predict.ok()).isFalse();
        assertThat(predict.error()).contains(expected);
    }

    @Test
    void a_changed_model_file_of_the_same_size_and_a_broken_card_are_refused() throws Exception {
        train(session());
        train(session());
        Path file = home.resolve("models/bank/m1/model.ubj");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(file, bytes);
        Files.writeString(home.resolve("models/bank/m2/card.json"), "{\"format\": 1, \"id\": \"m2\"");
        assertThatThrownBy(() -> store.load("bank", "m1")).hasMessageContaining("is damaged (" + bytes.length
                + " bytes, the card says " + bytes.length + ", and its checksum differs)");
        assertThatThrownBy(() -> store.load("bank", "m2")).hasMessageStartingWith("Saved model m2 of dataset 'bank'"
                + " cannot be used: its card card.json cannot be read (");
        assertThatThrownBy(() -> store.load("bank", "../m1")).hasMessage("'../m1' is not a model id: ids are m1, m2, …."
                + " Saved models of 'bank': m1 (damaged), m2 (damaged).");
    }

    @Test
    void a_model_of_another_build_of_the_dataset_is_used_with_a_warning() throws Exception {
        train(session());
        Path card = home.resolve("models/bank/m1/card.json");
        Files.writeString(card, Files.readString(card).replace(ws.dataset().fingerprint(), "older-build"));
        ToolContext later = session();
        ToolResult predict = call(later, "predict", "{\"source\":\"train_data\",\"model\":\"m1\"}");
        assertThat(predict.ok()).as(predict.error()).isTrue();
        String warning = "Warning: model m1 was trained on another build of dataset 'bank' (fingerprint older-build, now "
                + ws.dataset().fingerprint() + "): the rows have changed since, so its metrics describe the old data;"
                + " train again to be sure.";
        assertThat(predict.summary()).contains(warning);
        assertThat(predict.meta().get(ToolResult.CAVEAT).toString()).contains(warning);
    }

    @Test
    void scoring_data_whose_column_types_differ_from_the_card_is_refused_naming_the_difference() throws Exception {
        train(session());
        ws.saveFrame("text_a", "SELECT item_id, CAST(a AS VARCHAR) AS a, colour, d FROM train_data");
        ToolResult r = call(session(), "predict", "{\"source\":\"text_a\",\"model\":\"m1\"}");
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).contains("Frame text_a does not match model m1: a is VARCHAR (text) here but was DOUBLE"
                + " (a number) in training. Cast the column in SQL to the type the model was trained on (e.g. CAST(x AS"
                + " DOUBLE) AS x) and predict again.");
    }
}
