package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.Sift;
import dev.sift.TestDatasets;
import dev.sift.agent.AgentRun;
import dev.sift.agent.AnswerKind;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.source.DatasetSources;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app's sample chips: written from the dataset's own names and values and each answered offline before it is
 * offered, on the test datasets, on a real public file and on a file written here with names as exports write them.
 */
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

    /** The real files of the shared data folder (read-only, never copied into the repository). */
    private static final Path REAL = Path.of("../shared/data/real");

    /** Builds a dataset from files into the home's store, as {@code sift load} does. */
    private static Dataset load(Path home, String name, Path file) throws Exception {
        return DatasetStore.under(home).load(name, DatasetSources.of(List.of(file.toString()), file.getParent(), Map.of()),
                false, false, Progress.NONE);
    }

    @Test
    void every_sample_offered_on_a_real_public_file_is_phrased_in_words_and_answers_offline() throws Exception {
        Path riots = REAL.resolve("la-riots.csv").toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isRegularFile(riots), "skipped: " + riots.toAbsolutePath()
                + " is absent (the shared real-data folder; see its README)");
        Dataset d = load(home, "riots", riots);
        try (WebFixture w = new WebFixture(home)) {
            List<String> offered = samples(w, "riots");
            assertThat(offered).as("chips").hasSizeGreaterThanOrEqualTo(4);
            assertThat(String.join(" ", offered)).doesNotContain("_", "What tables", "la riotses");
            everyOneAnswers(home, d, offered);
        }
    }

    @Test
    void a_file_with_export_style_names_gets_every_kind_of_chip_written_and_only_answered_ones_offered() throws Exception {
        Path file = home.resolve("in").resolve("fleet_log_2024.csv");
        Files.createDirectories(file.getParent());
        StringBuilder csv = new StringBuilder("Trip ID,Vehicle Type,Driver,Distance_km,Fuel (l),Trip Date\n");
        Random r = new Random(7);
        String[] types = {"Truck", "Van", "Car"};
        for (int i = 1; i <= 240; i++) {
            csv.append(i).append(',').append(types[r.nextInt(types.length)]).append(",Driver ").append((char) ('A' + r.nextInt(8)))
                    .append(',').append(10 + r.nextInt(400)).append('.').append(r.nextInt(10)).append(',')
                    .append(5 + r.nextInt(90)).append(",2024-").append(String.format("%02d-%02d", 1 + r.nextInt(12), 1 + r.nextInt(28)))
                    .append('\n');
        }
        Files.writeString(file, csv);
        Dataset d = load(home, "fleet", file);
        Sift sift = new Sift(home, null, Workspace.Limits.defaults());
        try (Workspace ws = sift.open(d)) {
            List<SampleCandidates.Chip> chips = SampleCandidates.of(sift.knowledge().of(ws).graph(), ws);
            assertThat(chips).extracting(SampleCandidates.Chip::kind)
                    .contains("count", "breakdown", "average", "top", "filter", "per year", "average by");
            String written = String.join(" ", chips.stream().flatMap(c -> c.phrasings().stream()).toList());
            assertThat(written).contains("How many rows are in fleet log?", "by vehicle type", "What is the average distance?",
                    "top 5 drivers by average distance", "have vehicle type ").doesNotContain("fleet logs", "2024", "_", "trip id");
        }
        try (WebFixture w = new WebFixture(home)) {
            List<String> offered = samples(w, "fleet");
            assertThat(offered).as("chips").hasSizeGreaterThanOrEqualTo(3);
            everyOneAnswers(home, d, offered);
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
