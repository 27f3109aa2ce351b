package dev.sift.tool.ml;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.data.Workspace;
import dev.sift.ml.Explanations;
import dev.sift.ml.FeatureEncoder;
import dev.sift.ml.Predictions;
import dev.sift.ml.TrainedModel;
import dev.sift.tool.ToolContext;
import dev.sift.tool.ToolRegistry;
import dev.sift.tool.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The ML tools called as the loop calls them (validated by the registry, then run) on frames with known structure. */
class MlToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * 400 rows: y = 1 when a (0..1) plus 0.3 for colour 'red' exceeds 0.6; b is noise, d a date, code an id-like
     * text, k a constant. Deterministic (no random functions).
     */
    static final String DATA = "SELECT i AS item_id, (i % 97) / 97.0 AS a, ((i * 37) % 101) / 101.0 AS b,"
            + " ['red', 'green', 'blue'][1 + i % 3] AS colour, CAST(DATE '2020-01-01' + INTERVAL (i % 365) DAY AS DATE) AS d,"
            + " 'c' || i AS code, 7 AS k, i + 1000 AS seq, i * 37 + 5 AS amount,"
            + " CASE WHEN (i % 97) / 97.0 + CASE WHEN i % 3 = 0 THEN 0.3 ELSE 0 END > 0.6 THEN 1 ELSE 0 END AS y"
            + " FROM range(400) t(i)";

    private final ToolRegistry tools = Sift.defaultTools();
    private Workspace ws;
    private ToolContext ctx;

    @BeforeEach
    void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        ctx = new ToolContext(ws, null, "question");
        ws.saveFrame("train_data", DATA);
    }

    @AfterEach
    void close() {
        ws.close();
    }

    private ToolResult call(String tool, String args) throws Exception {
        return tools.run(tools.prepare(tool, JSON.readTree(args), ws), ctx);
    }

    private ToolResult train() throws Exception {
        ToolResult r = call("train_model", "{\"source\":\"train_data\",\"target\":\"y\"}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        return r;
    }

    @Test
    void train_reports_encoding_drops_and_cross_validated_metrics_against_a_baseline() throws Exception {
        ToolResult r = train();
        assertThat(r.summary()).startsWith("Trained model m1: classification of y (predicts the probability of y = 1)"
                + " on train_data, 400 labelled rows, entity item_id.\nFeatures: a (number), b (number),"
                + " colour (one-hot, 3 values), d (date: year, month, day of week, age in days), amount (number).\nDropped:"
                + " code (identifier), k (constant), seq (identifier).\nQuality: AUC ")
                .containsPattern("\nQuality: AUC [01]\\.\\d{3} ± 0\\.\\d{3} over 5 folds \\(\\d+ positives\\), baseline"
                        + " 0\\.\\d{3} \\([a-z.=_]+ alone\\)\\.\n")
                .contains("\nCross-validated (5 folds): auc ")
                .contains("\nBaseline on the same folds: class prior (AUC 0.500, pr_auc ")
                .contains("\nThe model is trained on all 400 labelled rows.");
        TrainedModel m = ctx.models().resolve(null);
        assertThat(m.provenance().features()).containsExactly("a", "b", "colour=red", "colour=blue", "colour=green", // levels by frequency
                "d.year", "d.month", "d.day_of_week", "d.age_days", "amount");
        assertThat(m.provenance().metrics().get("auc")).isGreaterThan(0.95);
        assertThat(m.provenance().seed()).isEqualTo(42L);
        assertThat(m.provenance().dataFingerprint()).hasSize(16);
        assertThat(m.provenance().trainRows()).isEqualTo(400);
        assertThat(m.provenance().evaluation().rows()).isEqualTo(400);
        // stratified: every test fold's share of positives is the overall share, to within one row of 80
        assertThat(m.provenance().evaluation().metrics().get("positive_rate").sd()).isLessThan(1.0 / 80);
        // same data and seed -> same model metrics and fingerprint
        train();
        TrainedModel again = ctx.models().resolve("m2");
        assertThat(again.provenance().metrics()).isEqualTo(m.provenance().metrics());
        assertThat(again.provenance().dataFingerprint()).isEqualTo(m.provenance().dataFingerprint());
    }

    @Test
    void shap_rows_sum_to_the_margin_and_map_back_to_columns() throws Exception {
        train();
        TrainedModel m = ctx.models().resolve(null);
        assertThat(call("predict", "{\"source\":\"train_data\"}").ok()).isTrue();
        Predictions p = ctx.models().predictions("m1").orElseThrow();
        float[][] contrib = Explanations.contributions(m, p.data().x(), p.data().rows());
        float[] margins = Explanations.margins(m, p.data().x(), p.data().rows());
        double[][] byColumn = Explanations.byColumn(m.encoder(), contrib);
        assertThat(contrib[0]).hasSize(m.encoder().width() + 1);
        for (int r = 0; r < contrib.length; r++) {
            double sum = 0;
            for (float v : contrib[r]) {
                sum += v;
            }
            assertThat(sum).isCloseTo(margins[r], within(1e-4));
            // colour's SHAP is the sum of its three one-hot features; d's of its four parts
            assertThat(byColumn[r][2]).isCloseTo(contrib[r][2] + contrib[r][3] + contrib[r][4], within(1e-6));
            assertThat(byColumn[r][3]).isCloseTo(contrib[r][5] + contrib[r][6] + contrib[r][7] + contrib[r][8], within(1e-6));
            double cols = 0;
            for (double v : byColumn[r]) {
                cols += v;
            }
            assertThat(cols).isCloseTo(margins[r], within(1e-4));
            // probability = the calibrator (learnt on out-of-fold margins) applied to the margin
            assertThat(p.values()[r]).isCloseTo(m.calibrator().apply(margins[r]), within(1e-5));
        }
        assertThat(m.encoder().columnNames()).containsExactly("a", "b", "colour", "d", "amount");
    }

    @Test
    void explain_prediction_names_the_real_drivers_in_plain_words() throws Exception {
        train();
        call("predict", "{\"source\":\"train_data\"}");
        ToolResult r = call("explain_prediction", "{\"cases\":[\"3\", 95], \"top_k\": 3}");
        assertThat(r.ok()).as(r.summary()).isTrue();
        @SuppressWarnings("unchecked")
        List<Explanations.Case> cases = (List<Explanations.Case>) ((Map<String, Object>) r.payload()).get("cases");
        // item 3: a = 3/97 = 0.031, red -> low; item 95: a = 0.979, green -> high. a drives both.
        assertThat(cases).extracting(c -> String.valueOf(c.entity())).containsExactly("3", "95");
        assertThat(cases.get(0).prediction()).isLessThan(0.2);
        assertThat(cases.get(1).prediction()).isGreaterThan(0.8);
        assertThat(cases.get(1).drivers().get(0).column()).isEqualTo("a");
        assertThat(cases.get(1).drivers().get(0).shap()).isPositive();
        assertThat(cases.get(1).sentence()).startsWith("item 95: high risk of y = 1 (probability ")
                .contains("mainly because a is high (0.9794 vs median ");
        @SuppressWarnings("unchecked")
        List<Explanations.Importance> global = (List<Explanations.Importance>) ((Map<String, Object>) r.payload())
                .get("global_importance");
        assertThat(global.get(0).column()).isEqualTo("a");
        assertThat(global.subList(0, 2)).extracting(Explanations.Importance::column).contains("colour");
        assertThat(ws.query("SELECT count(*) FROM frames.explanations").scalar()).isEqualTo(2L);
        assertThat(ws.query("SELECT count(DISTINCT column_name) FROM frames.shap_values").scalar()).isEqualTo(5L); // every column, per case
    }

    @Test
    void predict_names_the_missing_columns() throws Exception {
        train();
        ws.saveFrame("partial", "SELECT item_id, a, colour, amount FROM (" + DATA + ")");
        ToolResult r = call("predict", "{\"source\":\"partial\"}");
        assertThat(r.ok()).isFalse();
        assertThat(r.error()).isEqualTo("Frame partial lacks the columns b, d that model m1 was trained on (from"
                + " train_data: a, b, colour, d, amount). Frame partial has: item_id, a, colour, amount. Build it with the same column"
                + " names (e.g. the training SQL with a different filter) and predict again.");
    }

    @Test
    void text_with_many_values_is_ordinal_and_long_text_is_dropped() throws Exception {
        ws.saveFrame("texts", "SELECT a, y, 'v' || (item_id % 20) AS level20, 'w' || (item_id % 60) AS level60 FROM (" + DATA + ")");
        ToolResult r = call("train_model", "{\"source\":\"texts\",\"target\":\"y\"}");
        assertThat(r.summary()).contains("Features: a (number), level20 (ordinal, 20 values).\nDropped: level60"
                + " (60 distinct text values (more than 50)).");
        assertThat(ctx.models().resolve(null).provenance().features()).containsExactly("a", "level20");
    }

    @Test
    void a_bad_frame_label_is_an_error_for_the_planner() throws Exception {
        train();
        assertThat(call("predict", "{\"source\":\"train_data\",\"label\":\"Top Loans\"}").error()).isEqualTo(
                "Frame label 'Top Loans' is not valid: use lowercase letters, digits and '_' (at most 63), starting with"
                        + " a letter, e.g. 'top_loans'.");
    }

    @Test
    void predict_ignores_an_empty_target_and_keeps_a_known_one_for_evaluation() throws Exception {
        train();
        ws.saveFrame("new_rows", "SELECT item_id, a, b, colour, d, amount, CAST(NULL AS INTEGER) AS y FROM (" + DATA + ") LIMIT 5");
        ToolResult r = call("predict", "{\"source\":\"new_rows\",\"label\":\"scored\"}");
        assertThat(r.summary()).startsWith("Scored 5 rows of new_rows with model m1").contains("Column y is empty here and was ignored.");
        assertThat(ws.query("SELECT * FROM frames.scored").columnNames()).containsExactly("item_id", "prediction", "probability");

        ToolResult all = call("predict", "{\"source\":\"train_data\"}");
        assertThat(all.summary()).contains("evaluate_predictions(predictions=predictions, truth=y) gives metrics.");
        ToolResult eval = call("evaluate_predictions", "{\"predictions\":\"predictions\",\"truth\":\"y\"}");
        assertThat(eval.summary()).startsWith("Evaluated 400 rows of predictions: classification of y (positive class y = 1)"
                + " scored by probability: auc ");
    }

    @Test
    void evaluate_predictions_matches_hand_computed_metrics() throws Exception {
        ws.saveFrame("hand", "SELECT * FROM (VALUES (1, 0.9), (0, 0.4), (1, 0.35), (0, 0.1)) t(actual, probability)");
        ToolResult r = call("evaluate_predictions", "{\"predictions\":\"hand\",\"truth\":\"actual\"}");
        assertThat(r.summary()).isEqualTo("Evaluated 4 rows of hand: classification of actual (positive class actual = 1)"
                + " scored by probability: auc 0.750, pr_auc 0.833, log_loss 0.443, brier 0.151, accuracy 0.750, f1 0.667,"
                + " positive_rate 0.500.");
        ws.saveFrame("hand_reg", "SELECT * FROM (VALUES (1.0, 1.0), (2, 2), (3, 3), (4, 6)) t(actual, prediction)");
        assertThat(call("evaluate_predictions", "{\"predictions\":\"hand_reg\",\"truth\":\"actual\"}").summary())
                .isEqualTo("Evaluated 4 rows of hand_reg: regression of actual scored by prediction: rmse 1.000, mae 0.500, r2 0.200.");
    }

    @Test
    void leakage_guard_refuses_a_feature_derived_one_to_one_from_the_target() throws Exception {
        ws.saveFrame("leaky", "SELECT *, CASE WHEN y = 1 THEN 'B' ELSE 'A' END AS status FROM (" + DATA + ")");
        ToolResult r = call("train_model", "{\"source\":\"leaky\",\"target\":\"y\"}");
        assertThat(r.error()).isEqualTo("Refused: feature 'status' maps one-to-one to the target 'y' (each of its 2"
                + " values goes with exactly one target value), so it leaks the answer. Leave it out (pass features"
                + " without it, or build the frame without it) and train again.");
        ws.saveFrame("copy", "SELECT a, b, y, y AS y_copy FROM (" + DATA + ")");
        assertThat(call("train_model", "{\"source\":\"copy\",\"target\":\"y\"}").error())
                .startsWith("Refused: feature 'y_copy' is identical to the target 'y'");
        ws.saveFrame("reg", "SELECT b, a, a * 2 + 1 AS twice FROM (" + DATA + ")");
        assertThat(call("train_model", "{\"source\":\"reg\",\"target\":\"a\",\"task_type\":\"regression\"}").error())
                .startsWith("Refused: feature 'twice' has correlation 1.0000 with the target 'a'");
        // leaving the leaking column out works
        assertThat(call("train_model", "{\"source\":\"leaky\",\"target\":\"y\",\"features\":[\"a\",\"colour\"]}").ok()).isTrue();
    }

    @Test
    void target_problems_are_explained() throws Exception {
        assertThat(call("train_model", "{\"source\":\"loan\",\"target\":\"status\"}").error()).isEqualTo(
                "Target 'status' has 4 distinct values (A, B, C, D): classification needs exactly two classes. Make a"
                        + " yes/no target in SQL (e.g. CASE WHEN status = 'B' THEN 1 ELSE 0 END AS is_default), or use"
                        + " task_type 'regression' for a number.");
        assertThat(call("train_model", "{\"source\":\"train_data\",\"target\":\"y\",\"params\":{\"depth\":3}}").error())
                .startsWith("Parameter 'depth' is not accepted. Accepted: alpha, colsample_bytree, eta,");
        assertThat(call("train_model", "{\"source\":\"train_data\",\"target\":\"y\",\"features\":[\"y\",\"a\"]}").error())
                .isEqualTo("The target 'y' is listed among the features: a model cannot use the answer as an input."
                        + " Remove it from features.");
    }

    @Test
    void regression_trains_and_reports_rmse() throws Exception {
        ToolResult r = call("train_model", "{\"source\":\"train_data\",\"target\":\"a\",\"task_type\":\"regression\","
                + "\"features\":[\"b\",\"colour\"],\"params\":{\"num_round\":20,\"max_depth\":2}}");
        assertThat(r.summary()).startsWith("Trained model m1: regression of a on train_data, 400 labelled rows")
                .containsPattern("\nQuality: RMSE [0-9.]+ ± [0-9.]+ over 5 folds, baseline [0-9.]+ \\(predicting the mean\\)");
        assertThat(ctx.models().resolve("m1").provenance().params()).containsEntry("num_round", 20).containsEntry("max_depth", 2L);
    }

    @Test
    void model_lifecycle_lists_selects_and_compares_on_the_same_folds() throws Exception {
        assertThat(call("list_models", "{}").summary()).isEqualTo("No models trained or saved for this dataset yet: call train_model.");
        assertThat(call("predict", "{\"source\":\"train_data\"}").error())
                .isEqualTo("No model has been trained in this session yet: call train_model first.");
        train();
        call("train_model", "{\"source\":\"train_data\",\"target\":\"y\",\"features\":[\"b\"]}");
        assertThat(call("list_models", "{}").summary()).isEqualTo("2 models:\n"
                + "  " + ctx.models().resolve("m1").line() + "\n* " + ctx.models().resolve("m2").line()
                + "\n(* = selected, used when model is omitted)");
        assertThat(call("select_model", "{\"model\":\"m7\"}").error()).isEqualTo("Unknown model 'm7'. Models:"
                + " m1, m2 (selected: m2). Use one of these ids, or omit model to use the selected one.");
        assertThat(call("select_model", "{\"model\":\"m1\"}").summary()).startsWith("Selected m1: classification of y");
        ToolResult cmp = call("compare_models", "{}");
        assertThat(cmp.summary()).startsWith("Compared 2 models of y by their cross-validated metrics:\nm1 (5 columns,"
                + " train_data): AUC ").contains("\nm2 (1 columns, train_data): AUC ")
                .endsWith("Best by mean auc: m1. select_model(model=m1) makes it the default.");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Double>> metrics = (Map<String, Map<String, Double>>) cmp.payload();
        assertThat(metrics.get("m1").get("auc")).isEqualTo(ctx.models().resolve("m1").provenance().evaluation().mean("auc"));
        // on a given frame the models are scored on its rows, with a note when they learned from them
        assertThat(call("compare_models", "{\"source\":\"train_data\"}").summary()).startsWith("Compared 2 models of y"
                + " on rows of train_data with a value of y:").contains("Note: m1 was trained on train_data, so these"
                + " are rows it learned from: its cross-validated figures (AUC ");
        assertThat(call("explain_prediction", "{}").error()).isEqualTo("Model m1 has no predictions yet: call"
                + " predict(source=<frame to score>, model=m1) first, then explain_prediction.");
        call("predict", "{\"source\":\"train_data\"}");
        assertThat(call("explain_prediction", "{\"cases\":[\"9999\"]}").error()).startsWith("Case '9999' is not among"
                + " the 400 rows predicted with model m1 (frame predictions; item_id values such as ");
    }

    @Test
    void models_persist_across_contexts_that_share_a_registry() throws Exception {
        train();
        ToolContext nextTurn = new ToolContext(ws, null, "and now?", ctx.models());
        assertThat(tools.run(tools.prepare("predict", JSON.readTree("{\"source\":\"train_data\"}"), ws), nextTurn).ok()).isTrue();
    }

    @Test
    void check_drift_flags_the_shifted_column_only() throws Exception {
        ws.saveFrame("shifted", "SELECT item_id, a + 0.5 AS a, b, colour, d, y FROM (" + DATA + ")");
        ToolResult r = call("check_drift", "{\"reference\":\"train_data\",\"current\":\"shifted\",\"columns\":[\"a\",\"b\",\"colour\"]}");
        assertThat(r.summary()).startsWith("Drift from train_data (400 rows) to shifted (400 rows): 1 of 3 columns flagged")
                .contains("\nFLAGGED a: PSI ").contains("\nok b: PSI 0.000, KS D 0.000 (p 1.0000)").contains("\nok colour: PSI 0.000");
        assertThat(ws.query("SELECT column_name FROM frames.drift WHERE flagged").rows()).containsExactly(List.of("a"));
        assertThat(call("check_drift", "{\"reference\":\"train_data\",\"current\":\"nope\"}").error())
                .startsWith("Unknown current 'nope'. Tables: account, card, client, disp, district, loan, order, trans. Frames: ");
        assertThat(call("check_drift", "{\"reference\":\"train_data\",\"current\":\"shifted\",\"columns\":[\"code\"]}").error())
                .isEqualTo("Column 'code' is not in both train_data and shifted. Shared columns: item_id, a, b, colour, d, y.");
    }

    @Test
    void kmeans_clusters_separable_groups_and_profiles_them() throws Exception {
        ws.saveFrame("blobs", "SELECT i AS point_id, (i % 3) * 10 + ((i * 7) % 11) / 11.0 AS x,"
                + " CASE WHEN i % 3 = 1 THEN 10 ELSE 0 END + ((i * 5) % 13) / 13.0 AS z FROM range(90) t(i)");
        ToolResult r = call("kmeans_clusters", "{\"source\":\"blobs\",\"columns\":[\"x\",\"z\"]}");
        assertThat(r.summary()).startsWith("Clustered 90 rows of blobs on x, z into k = 3 clusters").contains("30 rows (33.3%)");
        assertThat(ws.query("SELECT count(DISTINCT cluster) FROM frames.clusters GROUP BY CAST(point_id AS INTEGER) % 3")
                .rows()).containsOnly(List.of(1L));
        // the frame keeps the rows: every source column beside the cluster
        assertThat(ws.query("SELECT * FROM frames.clusters").columnNames()).containsExactly("point_id", "x", "z", "cluster");
        assertThat(call("kmeans_clusters", "{\"source\":\"district\",\"columns\":[\"A4\",\"A11\"],\"k\":2}").ok()).isTrue();
        assertThat(ws.query("SELECT count(*), count(DISTINCT A2), min(cluster), max(cluster) FROM frames.clusters").rows())
                .containsExactly(List.of(77L, 77L, 1, 2));
        assertThat(ws.query("SELECT * FROM frames.clusters").columnNames()).startsWith("A1", "A2", "A3");
        assertThat(call("kmeans_clusters", "{\"source\":\"blobs\",\"columns\":[\"x\"],\"k\":2}").summary()).contains("into k = 2 clusters");
        assertThat(call("kmeans_clusters", "{\"source\":\"train_data\",\"columns\":[\"colour\"]}").error()).isEqualTo(
                "Column colour is VARCHAR: kmeans_clusters needs numeric columns. Numeric columns of train_data: item_id, a,"
                        + " b, k, seq, amount, y. Turn other values into numbers in SQL first (e.g. a count or a CASE).");
    }

    @Test
    void anomaly_scan_lists_unusual_rows_with_reasons() throws Exception {
        ToolResult r = call("anomaly_scan", "{\"source\":\"loan\",\"columns\":[\"amount\"],\"threshold\":3}");
        assertThat(r.ok()).isTrue();
        long flagged = (Long) ws.query("SELECT count(*) FROM frames.anomalies").scalar();
        assertThat(r.summary()).startsWith(flagged + " of " + TestDatasets.bank().rows("loan") + " rows of loan are unusual"
                + " (robust |z| > 3 in amount); saved as frame frames.anomalies (with the scanned columns amount, score"
                + " and reasons).");
        assertThat(ws.query("SELECT * FROM frames.anomalies LIMIT 0").columnNames()).containsExactly("row_id", "loan_id",
                "amount", "score", "reasons");
        // The frame's values are the table's own.
        assertThat(ws.query("SELECT count(*) FROM frames.anomalies a JOIN loan l ON CAST(l.loan_id AS VARCHAR) = a.loan_id"
                + " WHERE l.amount <> a.amount").scalar()).isEqualTo(0L);
        if (flagged > 0) {
            assertThat(r.summary()).containsPattern("\nloan_id \\d+ \\(score [0-9.]+\\): amount = [0-9,]+ is [0-9.]+ robust SDs above the median");
        }
        assertThat(r.summary().lines().filter(l -> l.startsWith("loan_id ")).count()).isEqualTo(Math.min(flagged, 25));
    }

    @Test
    void anomaly_scan_lists_every_flagged_row_up_to_its_stated_window() throws Exception {
        // 40 outliers among 400 rows: the observation states that it shows 25 of 40, and the frame holds all 40.
        ws.saveFrame("spiky", "SELECT i AS point_id, CASE WHEN i % 10 = 0 THEN 1000 + i ELSE i % 7 END AS v,"
                + " (i % 5) * 1.0 AS w FROM range(400) t(i)");
        ToolResult r = call("anomaly_scan", "{\"source\":\"spiky\",\"columns\":[\"v\",\"w\"]}");
        assertThat(r.summary()).startsWith("40 of 400 rows of spiky are unusual").contains("\nShowing the 25"
                + " highest-scoring of 40 flagged rows (all are in frames.anomalies):\npoint_id 390 (score ");
        assertThat(r.summary().lines().filter(l -> l.startsWith("point_id ")).count()).isEqualTo(25);
        assertThat(ws.query("SELECT count(*), min(v), sum(w) FROM frames.anomalies").rows().get(0))
                .containsExactly(40L, 1000.0, 0.0);
        ToolResult few = call("anomaly_scan", "{\"source\":\"spiky\",\"columns\":[\"v\"],\"threshold\":1000}");
        assertThat(few.summary()).doesNotContain("Showing the");
    }

    @Test
    void anomaly_scan_says_when_a_column_of_few_values_can_flag_no_row() throws Exception {
        ToolResult r = call("anomaly_scan", "{\"source\":\"loan\",\"columns\":[\"duration\"]}");
        assertThat(r.summary()).startsWith("0 of " + TestDatasets.bank().rows("loan") + " rows of loan are unusual")
                .endsWith("\nNote: no row can be unusual in duration (5 distinct values, 12 to 60: the farthest is 1.3"
                        + " robust SDs from the median, within 3.5). For a column of few values, sample_values shows how"
                        + " rare each value is.");
    }
}
