package dev.sift.knowledge;

import dev.sift.data.Dataset;
import dev.sift.data.DatasetStore;
import dev.sift.data.Progress;
import dev.sift.data.Workspace;
import dev.sift.data.source.ShopGenerator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A knowledge file found valid over a dataset is remembered beside it, so later loads skip validating it; another
 * text, other data or a failure is never taken for a success.
 */
class KgValidityTest {
    private static final String VALID = "metrics:\n  - {name: units, expression: \"sum(orders.quantity)\", grain: orders}\n";
    private static final String INVALID = "metrics:\n  - {name: margin, expression: \"sum(orders.qty)\", grain: orders}\n";

    @TempDir
    Path home;
    private Dataset ds;
    private Path kg;

    @BeforeEach
    void shop() throws Exception {
        ds = new DatasetStore(home.resolve("datasets")).ensure("shop", new ShopGenerator(ShopGenerator.DEFAULT_SEED),
                Progress.NONE);
        kg = Files.createDirectories(home.resolve("kg")).resolve("shop.kg.yaml");
    }

    @Test
    void a_file_found_valid_is_recorded_for_this_text_over_this_data_only() throws Exception {
        Files.writeString(kg, VALID);
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(Knowledge.load(ws).graph().metrics()).hasSize(1);
        }

        assertThat(KgValidity.path(ds)).isEqualTo(home.resolve("datasets/shop.kg-valid")).isRegularFile();
        assertThat(KgValidity.of(ds, KgLoader.read(kg)).orElseThrow().recorded()).isTrue();
        // the same text under another name, or over data with another fingerprint, is another key
        assertThat(KgValidity.of(ds, KgLoader.parse(VALID, "elsewhere.kg.yaml")).orElseThrow().recorded()).isFalse();
        Dataset rebuilt = new Dataset(ds.name(), ds.file(), ds.fingerprint() + "-changed", ds.description(),
                ds.builtAt(), ds.tables());
        assertThat(KgValidity.of(rebuilt, KgLoader.read(kg)).orElseThrow().recorded()).isFalse();
    }

    @Test
    void a_file_that_fails_is_not_recorded_and_fails_again() throws Exception {
        Files.writeString(kg, INVALID);
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThatThrownBy(() -> Knowledge.load(ws)).isInstanceOf(KgException.class)
                    .hasMessageContaining(kg + ": metrics[margin]");
            assertThat(KgValidity.path(ds)).doesNotExist();
            assertThatThrownBy(() -> Knowledge.load(ws)).isInstanceOf(KgException.class)
                    .hasMessageContaining(kg + ": metrics[margin]");
        }
    }

    @Test
    void a_recorded_success_skips_the_validation_queries() throws Exception {
        // recording the broken file's key by hand shows that a matching record is all a load checks
        Files.writeString(kg, INVALID);
        KgValidity.of(ds, KgLoader.read(kg)).orElseThrow().record();
        try (Workspace ws = Workspace.open(ds, Workspace.Limits.defaults())) {
            assertThat(Knowledge.load(ws).graph().metrics()).extracting(KgEntry.Metric::name).containsExactly("margin");

            Files.writeString(kg, INVALID + "  - {name: units, expression: \"sum(orders.quantity)\", grain: orders}\n");
            assertThatThrownBy(() -> Knowledge.load(ws)).isInstanceOf(KgException.class)
                    .hasMessageContaining(kg + ": metrics[margin]");
        }
    }

    @Test
    void a_curated_file_made_in_code_has_no_record() throws Exception {
        CuratedKg made = new CuratedKg("made", null, java.util.Map.of(), java.util.List.of());

        assertThat(made.digest()).isNull();
        assertThat(KgValidity.of(ds, made)).isEmpty();
        assertThat(KgLoader.read(writeValid()).digest()).hasSize(64);
    }

    private Path writeValid() throws Exception {
        return Files.writeString(kg, VALID);
    }
}
