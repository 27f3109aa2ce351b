package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The app's sample chips: written from the dataset's names and each answered offline before it is offered. */
class WebSamplesTest {
    @TempDir
    Path home;

    private static List<String> samples(WebFixture w, String dataset) throws Exception {
        List<String> out = new ArrayList<>();
        json(w.get("/api/datasets/" + dataset + "/samples")).forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Asks each question offline on a fresh Sift over the same store: every one must be an answer. */
    private static void everyOneAnswers(Path home, Dataset d, List<String> questions) throws Exception {
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        try (Workspace ws = sift.open(sift.store().get(d.name()))) {
            for (String q : questions) {
                AgentRun run = sift.askOffline(q, ws);
                assertThat(run.kind()).as(q + " → " + run.answer()).isEqualTo(AnswerKind.ANSWER);
            }
        }
    }

    @Test
    void every_sample_offered_on_the_shop_is_phrased_from_its_names_and_answers_offline() throws Exception {
        WebFixture.link(home, TestDatasets.shop());
        try (WebFixture w = new WebFixture(home)) {
            List<String> offered = samples(w, "shop");
            assertThat(offered).hasSizeBetween(4, SampleQuestions.MAX).contains("How many orders are there?",
                    "How many customers are there?");
            assertThat(String.join(" ", offered)).doesNotContain("customerses", "ordereses", " rows", "loan");
            everyOneAnswers(home, TestDatasets.shop(), offered);
        }
    }

    @Test
    void every_sample_offered_on_the_bank_answers_offline() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            List<String> offered = samples(w, "bank");
            assertThat(offered).isNotEmpty();
            everyOneAnswers(home, TestDatasets.bank(), offered);
        }
    }

    @Test
    void samples_of_a_missing_dataset_are_a_404_naming_the_datasets() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            var missing = w.get("/api/datasets/nope/samples");
            assertThat(missing.statusCode()).isEqualTo(404);
            JsonNode body = json(missing);
            assertThat(body.get("error").asText()).isEqualTo("No dataset 'nope'. Datasets: bank.");
        }
    }
}
