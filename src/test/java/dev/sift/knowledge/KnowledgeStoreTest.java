package dev.sift.knowledge;

import dev.sift.TestDatasets;
import dev.sift.data.Dataset;
import dev.sift.data.DatasetTables;
import dev.sift.data.TableInfo;
import dev.sift.data.Workspace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The caches that replaced process-wide statics: owned by an object, shared through it, bounded. */
class KnowledgeStoreTest {

    @Test
    void one_store_builds_a_datasets_knowledge_once_and_two_stores_share_nothing() throws Exception {
        try (Workspace a = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults());
             Workspace b = Workspace.open(TestDatasets.bank(), Workspace.Limits.defaults())) {
            KnowledgeStore store = new KnowledgeStore(2);
            Knowledge k = store.of(a);
            assertThat(store.of(b)).isSameAs(k);
            assertThat(store.size()).isEqualTo(1);
            assertThat(new KnowledgeStore(2).of(a)).isNotSameAs(k);
            assertThat(store.lazy(b).get()).isSameAs(k);
        }
    }

    @Test
    void the_described_tables_cache_keeps_at_most_its_capacity_least_recently_used_out_first() throws Exception {
        Dataset a = copy("a");
        Dataset b = copy("b");
        Dataset c = copy("c");
        DatasetTables tables = new DatasetTables(2);
        List<String> described = new ArrayList<>();
        tables.of(a, describing("a", described));
        tables.of(b, describing("b", described));
        tables.of(a, describing("a", described)); // a is now the most recently used: b is the eldest
        tables.of(c, describing("c", described)); // over capacity: b goes, though it came in after a
        assertThat(tables.size()).isEqualTo(2);
        tables.of(a, describing("a", described));
        tables.of(c, describing("c", described));
        assertThat(described).containsExactly("a", "b", "c");
        tables.of(b, describing("b", described));
        assertThat(described).containsExactly("a", "b", "c", "b");
        assertThatThrownBy(() -> new DatasetTables(0)).hasMessage("capacity must be at least 1, got 0");
    }

    private static Dataset copy(String suffix) throws Exception {
        Dataset bank = TestDatasets.bank();
        return new Dataset(bank.name() + "_" + suffix, bank.file(), "fingerprint-" + suffix, bank.description(),
                bank.builtAt(), bank.tables());
    }

    private static Supplier<List<TableInfo>> describing(String name, List<String> described) {
        return () -> {
            described.add(name);
            return List.of();
        };
    }
}
