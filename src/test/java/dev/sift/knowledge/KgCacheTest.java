package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The on-disk cache of the automatic knowledge graph: a loaded graph equals a freshly built one, and a
 * missing, corrupt, foreign or outdated file is ignored (so the caller rebuilds) rather than trusted.
 */
class KgCacheTest {
    private static Workspace ws;
    private static KnowledgeGraph built;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() throws Exception {
        ws = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
        built = KgBuilder.build(ws);
    }

    @AfterAll
    static void close() {
        ws.close();
    }

    /** The test bank as if it lived in {@code dir} (the cache only uses the name, fingerprint and folder). */
    private Dataset copy(String fingerprint) throws Exception {
        Dataset b = TestDatasets.bank();
        return new Dataset(b.name(), dir.resolve(b.name() + ".duckdb"), fingerprint, b.description(), b.builtAt(),
                b.tables());
    }

    @Test
    void a_graph_loaded_from_the_cache_equals_the_built_one_entry_for_entry() throws Exception {
        Dataset ds = copy(TestDatasets.bank().fingerprint());
        KgCache.save(ds, built);

        KnowledgeGraph loaded = KgCache.load(ds).orElseThrow();

        assertThat(KgCache.path(ds)).isEqualTo(dir.resolve("bank.kg-cache.json"));
        assertThat(loaded.dataset()).isEqualTo(built.dataset());
        assertThat(loaded.source()).isEmpty();
        assertThat(loaded.entries()).hasSize(built.entries().size()).containsExactlyElementsOf(built.entries());
        assertThat(loaded.entries()).extracting(KgEntry::describe)
                .containsExactlyElementsOf(built.entries().stream().map(KgEntry::describe).toList());
        assertThat(loaded.table("trans").orElseThrow().rows()).isEqualTo(built.table("trans").orElseThrow().rows())
                .isPositive();
        assertThat(loaded.column("loan", "status").orElseThrow().values()).containsExactly("A", "B", "C", "D");
        assertThat(loaded.outline()).isEqualTo(built.outline());
        assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
    }

    @Test
    void the_curated_overlay_on_a_cached_graph_equals_the_overlay_on_a_built_one() throws Exception {
        Dataset ds = copy(TestDatasets.bank().fingerprint());
        KgCache.save(ds, built);
        CuratedKg curated = KgLoader.bundled("bank").orElseThrow();

        KnowledgeGraph fromCache = KgLoader.overlay(KgCache.load(ds).orElseThrow(), curated, ws);
        KnowledgeGraph fresh = KgLoader.overlay(built, curated, ws);

        assertThat(fromCache.entries()).containsExactlyElementsOf(fresh.entries());
        assertThat(fromCache.predictions()).isEqualTo(fresh.predictions());
    }

    @Test
    void a_missing_cache_is_no_graph() throws Exception {
        assertThat(KgCache.load(copy(TestDatasets.bank().fingerprint()))).isEmpty();
    }

    @Test
    void a_corrupt_cache_is_ignored_and_replaced_by_the_next_save() throws Exception {
        Dataset ds = copy(TestDatasets.bank().fingerprint());
        KgCache.save(ds, built);
        String good = Files.readString(KgCache.path(ds));
        Files.writeString(KgCache.path(ds), good.substring(0, good.length() / 2), StandardCharsets.UTF_8);
        assertThat(KgCache.load(ds)).isEmpty();

        Files.writeString(KgCache.path(ds), "not json at all", StandardCharsets.UTF_8);
        assertThat(KgCache.load(ds)).isEmpty();

        // valid JSON, but an entry that is none of table, column, join
        Files.writeString(KgCache.path(ds), good.replaceFirst("\\{\"table\":\\{", "{\"table\":null,\"x\":{"),
                StandardCharsets.UTF_8);
        assertThat(KgCache.load(ds)).isEmpty();

        // a field of the wrong type, or a flag left out
        Files.writeString(KgCache.path(ds), good.replaceFirst("\"rows\":(\\d+)", "\"rows\":\"$1\""), StandardCharsets.UTF_8);
        assertThat(KgCache.load(ds)).isEmpty();
        Files.writeString(KgCache.path(ds), good.replaceFirst(",\"curated\":false", ""), StandardCharsets.UTF_8);
        assertThat(KgCache.load(ds)).isEmpty();

        KgCache.save(ds, built);
        assertThat(KgCache.load(ds).orElseThrow().entries()).containsExactlyElementsOf(built.entries());
    }

    @Test
    void a_cache_of_another_fingerprint_version_or_builder_is_ignored() throws Exception {
        Dataset old = copy("an-older-build");
        KgCache.save(old, built);
        Dataset current = copy(TestDatasets.bank().fingerprint());
        assertThat(KgCache.load(old)).isPresent();
        assertThat(KgCache.load(current)).isEmpty();

        KgCache.save(current, built);
        String good = Files.readString(KgCache.path(current));
        Files.writeString(KgCache.path(current), good.replace("\"version\":" + KgCache.VERSION, "\"version\":0"));
        assertThat(KgCache.load(current)).isEmpty();

        Files.writeString(KgCache.path(current), good.replace(KgCache.code(), "0000000000000000"));
        assertThat(KgCache.load(current)).isEmpty();
    }

    @Test
    void knowledge_of_a_store_dataset_writes_the_cache_beside_it_and_gives_the_same_graph() throws Exception {
        Knowledge k = Knowledge.load(ws);
        Dataset ds = ws.dataset();
        Path file = ds.file().resolveSibling("bank.kg-cache.json");

        assertThat(file).exists();
        assertThat(Knowledge.automatic(ws).entries()).containsExactlyElementsOf(built.entries());
        assertThat(k.graph().entries()).containsExactlyElementsOf(
                Knowledge.build(ws, KgLoader.bundled("bank")).graph().entries());
        assertThat(TestDatasets.store().list()).extracting(Dataset::name).contains("bank").doesNotContain("bank.kg-cache");
    }

    @Test
    void removing_a_dataset_removes_its_cache() throws Exception {
        for (String f : java.util.List.of("gone.json", "gone.duckdb", "gone.kg-cache.json", "gone.kg-valid",
                "gone.tables.json")) {
            Files.writeString(dir.resolve(f), "x");
        }

        new dev.sift.data.DatasetStore(dir).remove("gone");

        assertThat(dir).isEmptyDirectory();
    }
}
