package dev.sift.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sift.TestDatasets;
import dev.sift.data.LastDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static dev.sift.web.WebFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The dataset list marks the one last loaded or asked about (the app opens on it), wherever that happened. */
class WebLastDatasetTest {
    @TempDir
    Path home;

    private static Map<String, Boolean> lastUsed(WebFixture w) throws Exception {
        Map<String, Boolean> out = new HashMap<>();
        for (JsonNode d : json(w.get("/api/datasets"))) {
            out.put(d.get("name").asText(), d.get("last_used").asBoolean());
        }
        return out;
    }

    @Test
    void a_dataset_loaded_elsewhere_is_marked_and_a_session_on_another_moves_the_mark() throws Exception {
        WebFixture.link(home, TestDatasets.shop());
        LastDataset.under(home).loaded("shop"); // as `sift load shop …` leaves it
        try (WebFixture w = new WebFixture(home)) {
            assertThat(lastUsed(w)).containsEntry("shop", true).containsEntry("bank", false);
            w.newSession(); // on bank
            assertThat(lastUsed(w)).containsEntry("shop", false).containsEntry("bank", true);
        }
    }

    @Test
    void nothing_is_marked_before_anything_was_loaded_or_asked_and_a_removed_dataset_is_not_marked() throws Exception {
        try (WebFixture w = new WebFixture(home)) {
            assertThat(lastUsed(w)).containsEntry("bank", false);
            LastDataset.under(home).loaded("gone");
            assertThat(lastUsed(w)).doesNotContainKey("gone").containsEntry("bank", false);
        }
    }
}
